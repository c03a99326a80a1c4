import { z } from 'zod';
import { CLIENT_REFERENCE_MAX, isClientReference } from '../../domain/client-reference.js';
import { CURRENCIES, ORDER_STATUSES, ORDER_TYPES } from '../../domain/enums.js';
import { ApiError } from '../../domain/errors.js';
import { parseTimeFilter } from '../../domain/time-format.js';
import { DELIVERY_STATUSES, WEBHOOK_EVENTS } from '../../domain/webhook-delivery.js';
import { cursorPosition } from '../paging.js';
import { parseRequest, requestReader, type IssueRule, type IssueRules, type RequestReader } from './parse.js';

/**
 * The query strings of the partner API. Each schema is both the validator (the app parses with it through
 * ./parse.ts) and the OpenAPI document's parameter list (src/http/route.ts: queryParameters reads the fields'
 * order, descriptions and JSON schemas from it). A query value is text: numbers are read from digits and
 * then bounded, times and cursors are decoded by a transform (the document shows them as strings).
 *
 * Lists and exports refuse a parameter they do not know (strict objects, 400 bad_param naming it); a
 * parameter given twice comes as an array and is refused the same way (queryRules).
 */

/** `limit`: digits, then a whole number from 1 to max (the default when absent). */
export const pageLimit = (def: number, max: number, digits = 6) =>
  z
    .string()
    .regex(new RegExp(`^\\d{1,${digits}}$`))
    .pipe(z.coerce.number<string>().int().min(1).max(max))
    .default(def)
    .meta({ description: `page size, 1 to ${max}, default ${def}` });

/** `cursor`: the opaque next_cursor of a list of `kind` (src/app/paging.ts), decoded to its position. */
export const pageCursor = (kind: string) =>
  z
    .string()
    .transform((s, ctx) => cursorPosition(s, kind) ?? (ctx.issues.push({ code: 'custom', message: 'not a cursor of this list', input: s }), z.NEVER))
    .optional()
    .meta({ description: 'the next_cursor of the previous page' });

/** `from`/`to`: ISO 8601 date or date-time (offset optional), or unix seconds; parsed to epoch milliseconds. */
export const timeFilter = (description: string) =>
  z
    .string()
    .transform((s, ctx) => parseTimeFilter(s) ?? (ctx.issues.push({ code: 'custom', message: 'not a valid time', input: s }), z.NEVER))
    .optional()
    .meta({ description });

const FROM = 'created at or after: ISO 8601 date or date-time (offset optional), or unix seconds';
const TO = 'created at or before: same formats as from';

const clientReferenceFilter = (description: string) =>
  z.string().refine(isClientReference).optional().meta({ minLength: 1, maxLength: CLIENT_REFERENCE_MAX, description });

export const ORDERS_PAGE_DEFAULT = 50;
export const ORDERS_PAGE_MAX = 200;

/** The filters of GET /orders and of its CSV export. */
const orderFilterFields = {
  status: z.enum(ORDER_STATUSES).optional().meta({ description: 'processing, completed, partial, canceled or failed' }),
  type: z.enum(ORDER_TYPES).optional().meta({ description: 'stars, premium or nft' }),
};

/** GET /orders. */
export const OrderListQuery = z.strictObject({
  ...orderFilterFields,
  client_reference: clientReferenceFilter('only orders created with exactly this client_reference (1 to 128 printable characters, else 400 bad_param)'),
  from: timeFilter(FROM),
  to: timeFilter(TO),
  cursor: pageCursor('o'),
  limit: pageLimit(ORDERS_PAGE_DEFAULT, ORDERS_PAGE_MAX),
});

/** GET /orders/export.csv (and the operator API's export of a partner's orders): no paging. */
export const OrderExportQuery = z.strictObject({
  ...orderFilterFields,
  client_reference: clientReferenceFilter('only orders created with exactly this client_reference'),
  from: timeFilter(FROM),
  to: timeFilter(TO),
});

/** The longest `wait` of GET /orders/{order_id}, in seconds. */
export const WAIT_MAX_SECONDS = 30;

/** GET /orders/{order_id}: `wait` only; other parameters are ignored, as they always were on this endpoint. */
export const OrderReadQuery = z.looseObject({
  wait: z
    .string()
    .regex(/^\d{1,2}$/)
    .pipe(z.coerce.number<string>().int().min(1).max(WAIT_MAX_SECONDS))
    .optional()
    .meta({ description: 'seconds to wait for the outcome: a whole number from 1 to 30 (else 400 bad_param)' }),
});

export const LEDGER_PAGE_DEFAULT = 50;
export const LEDGER_PAGE_MAX = 200;

const currencyFilter = z.enum(CURRENCIES).optional().meta({ description: 'USD or TON (default: both)' });

/** GET /ledger. */
export const LedgerListQuery = z.strictObject({
  currency: currencyFilter,
  from: timeFilter(FROM),
  to: timeFilter(TO),
  cursor: pageCursor('e'),
  limit: pageLimit(LEDGER_PAGE_DEFAULT, LEDGER_PAGE_MAX),
});

/** GET /ledger/export.csv (and the operator API's export of a partner's ledger): no paging. */
export const LedgerExportQuery = LedgerListQuery.omit({ cursor: true, limit: true });

/** GET /stats (the defaults of from and to depend on the clock: the use case sets them). */
export const StatsQuery = z.strictObject({
  from: timeFilter(`${FROM}; default 30 days before to`),
  to: timeFilter('created at or before: same formats as from; default now'),
  group_by: z.enum(['day']).optional().meta({ description: '`day`: one set of figures per UTC day' }),
});

export const DELIVERIES_PAGE_DEFAULT = 50;
export const DELIVERIES_PAGE_MAX = 200;

/** GET /webhook-deliveries. */
export const DeliveryListQuery = z.strictObject({
  order_id: z.string().refine((s) => s.length >= 1 && s.length <= 128).optional().meta({ description: 'only the deliveries of this order' }),
  event: z.enum(WEBHOOK_EVENTS).optional().meta({ description: WEBHOOK_EVENTS.join(', ') }),
  status: z.enum(DELIVERY_STATUSES).optional().meta({ description: 'pending, delivered or failed (else 400 bad_status)' }),
  cursor: pageCursor('w'),
  limit: pageLimit(DELIVERIES_PAGE_DEFAULT, DELIVERIES_PAGE_MAX),
});

export const GIFTS_PAGE_DEFAULT = 20;
export const GIFTS_PAGE_MAX = 100;
export const GIFT_FILTERS = ['model', 'backdrop', 'symbol'] as const;
export type GiftFilter = (typeof GIFT_FILTERS)[number];

const attributeFilter = (name: GiftFilter) =>
  z
    .string()
    .refine((s) => s.trim() !== '')
    .optional()
    .meta({ description: `attribute filter (also attr_${name})` });

/**
 * GET /nft/gifts, after its attribute filters are named plainly (`attr_model` and `attr.model` are `model`:
 * giftListQuery). Unknown parameters are ignored (listed in `ignored_params`), so the object is loose.
 * The cursor names a collection and a sort, so the use case decodes it.
 */
export const GiftListQuery = z.looseObject({
  collection: z.string().refine((s) => s !== '').meta({ description: 'collection identifier (required)' }),
  sort: z.enum(['price_asc', 'price_desc']).default('price_asc').meta({ description: 'price_asc (default) or price_desc' }),
  cursor: z.string().optional().meta({ description: 'the next_cursor of the previous page (same collection and sort)' }),
  limit: pageLimit(GIFTS_PAGE_DEFAULT, GIFTS_PAGE_MAX, 4),
  model: attributeFilter('model'),
  backdrop: attributeFilter('backdrop'),
  symbol: attributeFilter('symbol'),
});

/** The query of GET /nft/gifts with its filters named plainly, the names they came under, and the ignored parameters. */
export function giftListQuery(q: unknown): { query: Record<string, unknown>; cameAs: Record<string, string>; ignored: string[] } {
  const query: Record<string, unknown> = {};
  const cameAs: Record<string, string> = {};
  const ignored: string[] = [];
  for (const [k, v] of typeof q === 'object' && q !== null ? Object.entries(q) : []) {
    const name = k.startsWith('attr_') || k.startsWith('attr.') ? k.slice(5) : k;
    if ((GIFT_FILTERS as readonly string[]).includes(name)) {
      query[name] = v;
      cameAs[name] = k;
    } else if (name !== k) {
      throw new ApiError('bad_attr', `Unknown attribute filter: ${name}. Known: model, backdrop, symbol.`, { param: k });
    } else if (k in GiftListQuery.shape) {
      query[k] = v;
    } else {
      ignored.push(k);
    }
  }
  return { query, cameAs, ignored };
}

const badParam = (param: string, detail: string): IssueRule => () => new ApiError('bad_param', detail, { param });

/**
 * The error of a query's issues: an unknown parameter, then each field in the table's order (the
 * document's), a field given twice (an array) before what is wrong with its value.
 */
export function queryRules(fields: IssueRules, nameOf: (field: string) => string = (f) => f): IssueRules {
  const rules: Record<string, IssueRule> = {
    '': (i) => {
      const k = i.code === 'unrecognized_keys' ? i.keys[0] : '';
      return new ApiError('bad_param', `Unknown query parameter: ${k}.`, { param: k });
    },
  };
  for (const [field, rule] of Object.entries(fields)) {
    rules[field] = (i) => {
      if (Array.isArray(i.input)) return new ApiError('bad_param', `${nameOf(field)} is given more than once.`, { param: nameOf(field) });
      return typeof rule === 'string' ? new ApiError(rule) : rule(i);
    };
  }
  return rules;
}

const FROM_TO_RULES: IssueRules = {
  from: () => new ApiError('bad_time', 'from is not a valid time.'),
  to: () => new ApiError('bad_time', 'to is not a valid time.'),
};
const limitRule = (max: number): IssueRule => () => new ApiError('bad_limit', `limit must be a whole number from 1 to ${max}.`);

const ORDER_FILTER_RULES: IssueRules = {
  status: 'bad_status',
  type: 'bad_type',
  client_reference: badParam('client_reference', `client_reference must be 1 to ${CLIENT_REFERENCE_MAX} printable characters.`),
  ...FROM_TO_RULES,
};
export const ORDER_LIST_RULES = queryRules({ ...ORDER_FILTER_RULES, limit: limitRule(ORDERS_PAGE_MAX), cursor: 'bad_cursor' });
export const ORDER_EXPORT_RULES = queryRules(ORDER_FILTER_RULES);
export const ORDER_READ_RULES = queryRules({ wait: badParam('wait', `wait must be a whole number of seconds from 1 to ${WAIT_MAX_SECONDS}.`) });

const LEDGER_FILTER_RULES: IssueRules = { currency: badParam('currency', 'currency must be USD or TON.'), ...FROM_TO_RULES };
export const LEDGER_LIST_RULES = queryRules({ ...LEDGER_FILTER_RULES, limit: limitRule(LEDGER_PAGE_MAX), cursor: 'bad_cursor' });
export const LEDGER_EXPORT_RULES = queryRules(LEDGER_FILTER_RULES);

export const STATS_RULES = queryRules({ to: FROM_TO_RULES.to, from: FROM_TO_RULES.from, group_by: badParam('group_by', 'group_by must be day.') });

export const DELIVERY_LIST_RULES = queryRules({
  order_id: badParam('order_id', 'order_id must be 1 to 128 characters.'),
  event: badParam('event', `event must be one of ${WEBHOOK_EVENTS.join(', ')}.`),
  status: () => new ApiError('bad_status', 'status must be one of pending, delivered, failed.'),
  limit: limitRule(DELIVERIES_PAGE_MAX),
  cursor: 'bad_cursor',
});

/** GET /nft/gifts: the filters first (under the name they came as), then collection, sort, limit. */
export const giftListRules = (cameAs: Record<string, string>): IssueRules => {
  const nameOf = (f: string) => cameAs[f] ?? f;
  const filter = (f: GiftFilter): IssueRule => () => new ApiError('bad_param', `${nameOf(f)} must be given once, non-empty.`, { param: nameOf(f) });
  return queryRules(
    {
      model: filter('model'),
      backdrop: filter('backdrop'),
      symbol: filter('symbol'),
      collection: (i) => (i.input === undefined || i.input === '' ? new ApiError('collection_required') : new ApiError('bad_param', 'collection must be given once.', { param: 'collection' })),
      sort: 'bad_sort',
      limit: badParam('limit', `limit must be a whole number from 1 to ${GIFTS_PAGE_MAX}.`),
    },
    nameOf,
  );
};

// --- what the routes read (src/http/route.ts reads the query before the handler, typed) -------

export const ORDER_LIST_QUERY = requestReader(OrderListQuery, ORDER_LIST_RULES);
export type OrderListInput = z.output<typeof OrderListQuery>;

export const ORDER_EXPORT_QUERY = requestReader(OrderExportQuery, ORDER_EXPORT_RULES);
export type OrderExportInput = z.output<typeof OrderExportQuery>;

/** GET /orders/{order_id}: `wait` is the only parameter read, so a plain read (no `wait`: partners poll) parses nothing. */
export const ORDER_READ_QUERY: RequestReader<{ wait?: number }> = {
  schema: OrderReadQuery,
  read: (q) => (typeof q === 'object' && q !== null && 'wait' in q && q.wait !== undefined ? { wait: parseRequest(OrderReadQuery, q, ORDER_READ_RULES).wait } : {}),
};

export const LEDGER_LIST_QUERY = requestReader(LedgerListQuery, LEDGER_LIST_RULES);
export type LedgerListInput = z.output<typeof LedgerListQuery>;

export const LEDGER_EXPORT_QUERY = requestReader(LedgerExportQuery, LEDGER_EXPORT_RULES);
export type LedgerExportInput = z.output<typeof LedgerExportQuery>;

export const STATS_QUERY = requestReader(StatsQuery, STATS_RULES);
export type StatsInput = z.output<typeof StatsQuery>;

export const DELIVERY_LIST_QUERY = requestReader(DeliveryListQuery, DELIVERY_LIST_RULES);
export type DeliveryListInput = z.output<typeof DeliveryListQuery>;

/** GET /nft/gifts with its filters named plainly, and the parameters it ignored (`ignored_params`). */
export type GiftListInput = z.output<typeof GiftListQuery> & { ignored: string[] };
export const GIFT_LIST_QUERY: RequestReader<GiftListInput> = {
  schema: GiftListQuery,
  read: (q) => {
    const { query, cameAs, ignored } = giftListQuery(q);
    return { ...parseRequest(GiftListQuery, query, giftListRules(cameAs)), ignored };
  },
};
