import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '../src/http/openapi/document.js';

/**
 * Every answer of the partner API in the test traffic is checked against the OpenAPI document, so the
 * document cannot drift from the service: startService (helpers.ts) installs `conformanceHook` on the
 * test app, and a response that the document does not describe fails the test that caused it.
 *
 * Checked for a documented path and method: the status is documented; a JSON body matches the schema of
 * that status; a `Retry-After` header is declared there. Paths the document does not have (an unknown
 * route, the document itself) are not the document's business and are skipped.
 */
const PREFIX = '/api/partner/v1';
export const DOC = buildOpenApiDocument(`http://conformance.test${PREFIX}`) as any;

// `nullable` is ajv's own OpenAPI keyword; `discriminator` is left to `oneOf` (its branches differ by `type`),
// since ajv's discriminator support refuses `mapping`, which OpenAPI tools need.
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'doc', components: DOC.components });

// literal paths first: `/orders/export.csv` is its own operation, not an `/orders/{order_id}` (the router prefers it too)
const routes = Object.keys(DOC.paths)
  .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
  .map((p) => ({ path: p, re: new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
const compiled = new Map<string, ValidateFunction>();

/** The document's path template of a request URL, or undefined when the document does not have it. */
export function documentedPath(url: string): string | undefined {
  const bare = url.split('?')[0];
  if (!bare.startsWith(`${PREFIX}/`)) return undefined;
  const rest = bare.slice(PREFIX.length);
  return routes.find((r) => r.re.test(rest))?.path;
}

/** Rewrites the document's local refs so the schema compiles against the components added as `doc`. */
function rebase(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(rebase);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = k === '$ref' && typeof x === 'string' && x.startsWith('#/') ? `doc${x}` : rebase(x);
    return out;
  }
  return v;
}

/** The problems of one answer against the document ([] when it conforms). */
export function conformanceProblems(method: string, url: string, status: number, headers: Record<string, unknown>, body: string): string[] {
  const path = documentedPath(url);
  const m = method.toLowerCase();
  if (!path || !DOC.paths[path][m]) return [];
  const what = `${method} ${path} ${status}`;
  const documented = DOC.paths[path][m].responses[String(status)];
  if (!documented) return [`${what}: status ${status} is not documented (${body.slice(0, 300)})`];
  const problems: string[] = [];
  if (headers['retry-after'] !== undefined && !documented.headers?.['Retry-After']) problems.push(`${what}: sends Retry-After, which is not declared`);
  const type = String(headers['content-type'] ?? '');
  const content = documented.content?.['application/json'];
  if (!content) return problems;
  if (!type.startsWith('application/json')) return [...problems, `${what}: content type ${type}, documented application/json`];
  const key = `${m} ${path} ${status}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(rebase(content.schema) as object);
    compiled.set(key, validate);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [...problems, `${what}: the body is not JSON`];
  }
  if (!validate(parsed)) problems.push(`${what}: ${ajv.errorsText(validate.errors, { separator: '; ' })}; body=${body.slice(0, 400)}`);
  return problems;
}

/** The callback that documents `event`, on whichever operation it is. */
function callbackOf(event: string): any {
  for (const item of Object.values(DOC.paths) as any[])
    for (const op of Object.values(item) as any[]) {
      const cb = op?.callbacks?.[event];
      if (cb) return (Object.values(cb)[0] as any).post;
    }
  return undefined;
}

/** The problems of one webhook body (an `events` row) against the documented callback of its event. */
export function webhookProblems(event: string, body: string): string[] {
  const cb = callbackOf(event);
  if (!cb) return [`webhook ${event}: no callback documents it`];
  const key = `callback ${event}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(rebase(cb.requestBody.content['application/json'].schema) as object);
    compiled.set(key, validate);
  }
  return validate(JSON.parse(body)) ? [] : [`webhook ${event}: ${ajv.errorsText(validate.errors, { separator: '; ' })}; body=${body.slice(0, 400)}`];
}

/** Installs the check on a Fastify app (before it is ready); problems are pushed to `violations`. */
export function conformanceHook(violations: string[]) {
  return (app: FastifyInstance): void => {
    app.addHook('onSend', async (req, reply, payload) => {
      if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
        const headers = reply.getHeaders() as Record<string, unknown>;
        violations.push(...conformanceProblems(req.method, req.url, reply.statusCode, headers, payload.toString()));
      }
      return payload;
    });
  };
}
