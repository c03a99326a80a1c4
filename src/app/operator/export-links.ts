import { fail } from '../../domain/errors.js';
import { offsetIso } from '../../domain/time-format.js';
import { audit } from '../../store/audit-repo.js';
import { inTx } from '../../store/db.js';
import { putGrant, readGrant, sweepGrants } from '../../store/app-repo.js';
import { grantKey } from '../../domain/secret-hash.js';
import type { Deps } from '../deps.js';
import { exportPartnerLedger, exportPartnerOrders, type CsvExport } from '../exports.js';
import { LEDGER_EXPORT_QUERY, ORDER_EXPORT_QUERY } from '../requests/queries.js';
import { requireOperator } from './access.js';

/**
 * A partner's CSV exports from the console. The Mini App inside Telegram authenticates with a header, which
 * a download cannot carry (Telegram's downloadFile fetches the file itself), so the console asks for a
 * short-lived link first: the operator, the partner and the filters (checked now, so a bad filter is a 400
 * before any link exists) are stored under the SHA-256 of a random token, like a sign-in link. The link
 * may be fetched again while it lasts (a download that broke off can be retried); each fetch checks that
 * its creator is still an operator. Creating one is audited.
 */
export const EXPORT_LINK_TTL_MS = 10 * 60_000;
const PREFIX = 'app.export:';
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;
const WHAT = ['orders', 'ledger'] as const;
type What = (typeof WHAT)[number];

function exportOf(deps: Pick<Deps, 'db' | 'clock' | 'config'>, partnerId: number, what: What, filters: Record<string, string>): CsvExport {
  return what === 'orders' ? exportPartnerOrders(deps, partnerId, ORDER_EXPORT_QUERY.read(filters)) : exportPartnerLedger(deps, partnerId, LEDGER_EXPORT_QUERY.read(filters));
}

export function createExportLink(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'ids'>, operatorId: number, partnerId: number, body: Record<string, unknown>, actor: string) {
  const { what, filters = {} } = body;
  for (const k of Object.keys(body)) if (k !== 'what' && k !== 'filters') fail('validation_error', `Unknown field: ${k}.`);
  if (what !== 'orders' && what !== 'ledger') fail('validation_error', 'what must be "orders" or "ledger".');
  if (typeof filters !== 'object' || filters === null || Array.isArray(filters)) fail('validation_error', 'filters must be an object of query parameters.');
  // the export's own parse: the filters of GET /orders or GET /ledger without paging (400 bad_param …), then 404 for an unknown partner
  const { filename } = exportOf(deps, partnerId, what, filters as Record<string, string>);
  const now = deps.clock.now();
  const token = deps.ids.token(24);
  const expiresAt = now + EXPORT_LINK_TTL_MS;
  inTx(deps.db, (tx) => {
    sweepGrants(tx, PREFIX, now);
    putGrant(tx, grantKey(PREFIX, token), { telegramUserId: operatorId, expiresAt, data: { partnerId, what, filters } }, now);
    audit(tx, now, actor, 'export.link', String(partnerId), { what, filters });
  });
  return { url: `${deps.config.publicBaseUrl}/api/app/v1/exports/${token}`, filename, expires_at: offsetIso(expiresAt) };
}

/** The export behind a link: 404 not_found for an unknown or expired one, 403 when its creator is no longer an operator. */
export function openExportLink(deps: Pick<Deps, 'db' | 'clock' | 'config'>, token: string): CsvExport {
  const g = TOKEN.test(token) ? readGrant(deps.db, grantKey(PREFIX, token)) : undefined;
  if (!g || g.expiresAt <= deps.clock.now() || !g.data) fail('not_found', 'The export link is unknown or has expired: ask for a new one.');
  requireOperator(deps.config, g.telegramUserId, 'exports.any_partner');
  const { partnerId, what, filters } = g.data as { partnerId: number; what: What; filters: Record<string, string> };
  return exportOf(deps, partnerId, what, filters);
}
