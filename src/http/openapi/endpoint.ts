import type { FastifyInstance, FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';
import type { ErrorCode } from '../../domain/errors.js';

/** What the OpenAPI document says of one partner endpoint. Error codes beyond authentication and the key limit. */
export interface Endpoint {
  method: 'get' | 'post';
  /** OpenAPI path template (`/orders/{order_id}`), relative to /api/partner/v1. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  parameters?: Record<string, unknown>[];
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
 * Registers a route whose method and URL come from its documentation entry, so that the two cannot
 * disagree; the entry sits next to the route in each route file (test/http/routes-documented.test.ts
 * checks that no partner route is registered without one).
 */
export function documented<G extends RouteGenericInterface = RouteGenericInterface>(
  app: FastifyInstance,
  doc: Endpoint,
  handler: (req: FastifyRequest<G>, reply: FastifyReply) => unknown,
): void {
  app.route<G>({
    method: doc.method === 'get' ? 'GET' : 'POST',
    url: doc.path.replace(/\{(\w+)\}/g, ':$1'),
    handler: handler as never,
  });
}
