import { afterEach, describe, expect, it } from 'vitest';
import { startService, stopService, type TestService } from '../helpers.js';

/**
 * GET /orders filtered by type and status at once walks one index (partner, type, status, seq) newest
 * first: it never scans every order of the partner, nor every order of one status looking for a type.
 * Checked on the service's real SQLite file with the statement the route actually prepared.
 */
let t: TestService | undefined;
afterEach(async () => {
  await stopService(t);
  t = undefined;
});

describe('GET /orders?type=…&status=…', () => {
  it('uses the partner/type/status/seq index, with no scan and no sort', async () => {
    t = await startService();
    const p = await t.newPartner();
    for (let i = 0; i < 3; i++) expect((await p.order('stars', { quantity: 100, recipient: `@failstars_${i}x` })).status).toBe(200);
    expect((await p.order('premium', { months: 3, recipient: '@plain_user' })).status).toBe(200);
    await t.advance(120);

    const client = t.db.$client;
    const seen: string[] = [];
    const prepare = client.prepare.bind(client);
    client.prepare = ((sql: string) => {
      seen.push(sql);
      return prepare(sql);
    }) as typeof client.prepare;
    let r;
    try {
      r = await p.call('GET', '/orders?type=stars&status=failed');
    } finally {
      client.prepare = prepare;
    }
    expect(r.status, r.raw).toBe(200);
    expect(r.body.items).toHaveLength(3);
    expect(r.body.items.every((o: any) => o.type === 'stars' && o.status === 'failed')).toBe(true);

    const listing = seen.filter((s) => /from "orders"/.test(s) && /"type" = \?/.test(s) && /"status" = \?/.test(s) && /order by/i.test(s));
    expect(listing, seen.join('\n')).toHaveLength(1);
    const params = (listing[0].match(/\?/g) ?? []).map(() => 1);
    const plan = (client.prepare(`EXPLAIN QUERY PLAN ${listing[0]}`).all(...params) as { detail: string }[]).map((x) => x.detail);
    expect(plan.join('\n')).toMatch(/SEARCH orders USING (COVERING )?INDEX orders_partner_type_status_seq \(partner_id=\? AND type=\? AND status=\?\)/);
    expect(plan.join('\n')).not.toMatch(/SCAN|TEMP B-TREE/);
  });
});
