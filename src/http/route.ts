import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { RequestReader } from '../app/requests/parse.js';
import type { ErrorCode } from '../domain/errors.js';

/**
 * The route helper of every door (the partner API, the operator API, the Mini App): a route reads its query
 * string with its zod reader before the handler, which gets it typed; a partner route's documentation entry
 * (Endpoint) sits beside it and makes the OpenAPI document (./openapi/document.ts).
 */

/** What the OpenAPI document says of one partner endpoint. Error codes beyond authentication and the key limit. */
export interface Endpoint<Q = unknown> {
  method: 'get' | 'post';
  /** OpenAPI path template (`/orders/{order_id}`), relative to /api/partner/v1. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** Path parameters (the query string's come from `query`). */
  parameters?: Record<string, unknown>[];
  /** The query string's reader: the route parses with it, the document lists its schema's fields. */
  query?: RequestReader<Q>;
  body?: string;
  bodyExamples?: Record<string, unknown>;
  /** The component schema of the JSON answer (absent for a CSV answer). */
  response?: string;
  /** A CSV answer (text/csv; charset=utf-8, streamed, with a Content-Disposition filename) in place of JSON. */
  csv?: { example: string };
  okDescription: string;
  responseExample?: unknown;
  errors: ErrorCode[];
  /** The webhook events documented as callbacks of this operation. */
  callbacks?: string[];
}

/** A query parameter of an endpoint. */
export const q = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }, required = false) => ({ name, in: 'query', required, description, schema });

/** A path parameter of an endpoint. */
export const pathParam = (name: string, example?: string) => ({ name, in: 'path', required: true, schema: { type: 'string' }, ...(example ? { example } : {}) });

/**
 * A query string before a route reads it: what Fastify's parser makes of it, text or, for a name given
 * more than once, a list of texts.
 */
export type RawQuery = Readonly<Record<string, string | string[] | undefined>>;

/** The request a handler gets: its path parameters (text), and its query string as the route's reader gave it. */
export type TypedRequest<Q> = FastifyRequest<{ Params: Record<string, string>; Querystring: Q }>;
export type Handler<Q> = (req: TypedRequest<Q>, reply: FastifyReply) => unknown;

/** What a route reads before its handler runs, in this order. */
export interface Reading<Q> {
  /**
   * The checks that come before the request is read in the contract's order of checks (who asks, their
   * rate limit): a bad query string from a caller refused here is still refused for who they are.
   */
  first?: (req: TypedRequest<unknown>) => void;
  /** The query string's reader (src/app/requests/queries.ts): the handler gets its parsed value. */
  query?: RequestReader<Q>;
}

/**
 * Registers a route that reads its query string with the reader's zod schema before the handler, so the
 * handler gets it parsed and typed (`req.query`) and the contract's error for a bad one comes from the
 * schema's rules; without a reader `req.query` is the raw query string. Not async: a handler that answers
 * at once is not made to wait a microtask.
 */
export function route<Q = RawQuery>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  reading: Reading<Q>,
  handler: Handler<Q>,
): void {
  const { first, query } = reading;
  app.route<{ Params: Record<string, string>; Querystring: Q }>({
    method,
    url,
    handler:
      first || query
        ? (req, reply) => {
            first?.(req);
            if (query) req.query = query.read(req.query);
            return handler(req, reply);
          }
        : handler,
  });
}

/**
 * Registers a partner route whose method, URL and query string come from its documentation entry, so
 * that the route and the document cannot disagree; the entry sits next to the route in each route file
 * (test/http/routes-documented.test.ts checks that no partner route is registered without one).
 */
export function documented<Q>(app: FastifyInstance, doc: Endpoint<Q>, handler: Handler<Q>, first?: Reading<Q>['first']): void {
  route(app, doc.method === 'get' ? 'GET' : 'POST', doc.path.replace(/\{(\w+)\}/g, ':$1'), { first, query: doc.query }, handler);
}

/** The parameters the document lists for an endpoint: its path parameters, then its query string's fields. */
export function endpointParameters(e: Endpoint): Record<string, unknown>[] {
  return [...(e.parameters ?? []), ...(e.query ? queryParameters(e.query.schema) : [])];
}

/** The order of a parameter schema's keywords in the document (the rest follow in their own order). */
const KEYWORDS = ['type', 'enum', 'minLength', 'maxLength', 'minimum', 'maximum', 'default'];

/**
 * The query parameters of an endpoint, read from the zod schema its use case parses the query with
 * (src/app/requests/queries.ts): one per field, in the schema's order, its description from the field's
 * meta, required unless the field may be absent. The JSON schema is what the parsed value is (a bounded
 * integer, an enumeration); a value that a transform decodes (a time, a cursor) is documented as text.
 */
export function queryParameters(schema: z.ZodObject, descriptions: Record<string, string> = {}): Record<string, unknown>[] {
  return Object.entries<z.ZodType>(schema.shape).map(([name, field]) => {
    const { description, ...rest } = z.toJSONSchema(field, { target: 'openapi-3.0', io: 'output', unrepresentable: 'any' });
    if (rest.type === undefined) rest.type = 'string';
    const ordered = Object.fromEntries([...KEYWORDS.filter((k) => k in rest).map((k) => [k, rest[k]]), ...Object.entries(rest).filter(([k]) => !KEYWORDS.includes(k))]);
    const required = !field.safeParse(undefined).success;
    return { name, in: 'query', required, description: descriptions[name] ?? description, schema: ordered };
  });
}
