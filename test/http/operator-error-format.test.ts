import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startService, stopService, type TestService } from '../helpers.js';

/**
 * The operator API answers its errors in the flat format `{code, detail}` (operator-api.md section 2), the
 * body parser's too (invalid JSON, another media type, an unknown URL under its base path); only 401
 * `unauthorized` stays nested. The partner API keeps the format its contract gives each code.
 */
let t: TestService;
beforeAll(async () => {
  t = await startService();
});
afterAll(() => stopService(t));

async function call(url: string, payload: string, headers: Record<string, string> = {}) {
  const r = await t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...headers } });
  return { status: r.statusCode, body: JSON.parse(r.body) };
}
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('operator API error bodies', () => {
  it('invalid JSON: 400 bad_json, flat', async () => {
    expect(await call('/api/admin/v1/partners', '{', admin)).toEqual({ status: 400, body: { code: 'bad_json', detail: 'The request body is not valid JSON.' } });
  });
  it('another media type: 415 unsupported_media_type, flat', async () => {
    expect(await call('/api/admin/v1/partners', 'name=x', { ...admin, 'content-type': 'application/x-www-form-urlencoded' })).toEqual({
      status: 415,
      body: { code: 'unsupported_media_type', detail: 'Send the body as application/json.' },
    });
  });
  it('a body of the wrong shape: 400 validation_error, flat', async () => {
    expect(await call('/api/admin/v1/sandbox/clock/advance', '{"seconds":"x"}', admin)).toEqual({
      status: 400,
      body: { code: 'validation_error', detail: 'seconds: Invalid input: expected number, received string' },
    });
  });
  it('an unknown URL under the base path: 404 route_not_found, flat', async () => {
    expect(await call('/api/admin/v1/no-such-thing', '{}', admin)).toEqual({ status: 404, body: { code: 'route_not_found', detail: 'No endpoint POST /api/admin/v1/no-such-thing.' } });
  });
  it('no token: 401 unauthorized stays nested, as the contract says', async () => {
    expect(await call('/api/admin/v1/partners', '{')).toEqual({ status: 401, body: { detail: { code: 'unauthorized', detail: 'Missing or invalid operator token.' } } });
  });
  it('the partner API keeps its nested bad_json', async () => {
    expect(await call('/api/partner/v1/orders', '{', { authorization: 'Bearer nope' })).toMatchObject({ status: 401 });
    const p = await t.newPartner();
    expect(await call('/api/partner/v1/orders', '{', { authorization: `Bearer ${p.key}` })).toEqual({ status: 400, body: { detail: { code: 'bad_json', detail: 'The request body is not valid JSON.' } } });
  });
});
