import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { zonedTime } from '../../bot/views/format.js';
import { START, startService, stopService, type TestService } from '../helpers.js';

/**
 * The service's local time is UTC whatever the host's time zone: the whole service runs here under
 * TZ=Asia/Tokyo (+09:00), and `created_at` (no offset), the `from`/`to` filters and the bot's rendering
 * still read as UTC.
 */
const ORIGINAL_TZ = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  if (ORIGINAL_TZ === undefined) delete process.env.TZ;
  else process.env.TZ = ORIGINAL_TZ;
});

let t: TestService | undefined;
afterEach(async () => {
  await stopService(t);
  t = undefined;
});

describe('UTC under TZ=Asia/Tokyo', () => {
  it('created_at is UTC wall-clock time, filters without an offset are UTC, the bot marks times as UTC', async () => {
    expect(new Date(START).getHours()).toBe(21); // the zone is in effect: 12:00 UTC is 21:00 in Tokyo
    t = await startService();
    const p = await t.newPartner();
    const o = await p.order('stars', { quantity: 100, recipient: '@tokyo_user' });
    expect(o.status, o.raw).toBe(200);
    expect(START).toBe(Date.parse('2026-03-01T12:00:00Z'));
    expect(o.body.created_at).toBe('2026-03-01T12:00:00.000000');
    await t.advance(60);
    const done = await p.call('GET', `/orders/${o.body.order_id}`);
    expect(done.body.status).toBe('completed');
    expect(done.body.created_at).toBe('2026-03-01T12:00:00.000000');
    expect(done.body.completed_at).toMatch(/^2026-03-01T12:0\d:\d\d\.\d{6}\+00:00$/);
    // a filter without an offset is UTC: the order is inside 11:59–12:01 and outside 20:59–21:01 (Tokyo's wall clock)
    const ids = async (q: string) => ((await p.call('GET', `/orders?${q}`)).body.items as { order_id: string }[]).map((x) => x.order_id);
    expect(await ids('from=2026-03-01T11:59:00&to=2026-03-01T12:01:00')).toEqual([o.body.order_id]);
    expect(await ids('from=2026-03-01T20:59:00&to=2026-03-01T21:01:00')).toEqual([]);
    expect(await ids('from=2026-03-01')).toEqual([o.body.order_id]);
    expect(await ids('from=2026-03-02')).toEqual([]);
    // the ledger and the operator's view agree
    const ledger = (await t.admin('GET', `/partners/${p.id}/ledger?currency=USD`)).body.items as { order_id?: string; created_at: string }[];
    expect(ledger.find((e) => e.order_id === o.body.order_id)!.created_at).toMatch(/^2026-03-01T12:00:00/);
    // the bot shows the contract's timestamps with their zone
    expect(zonedTime(o.body.created_at)).toBe('2026-03-01 12:00 UTC');
    expect(zonedTime(done.body.completed_at)).toMatch(/^2026-03-01 12:0\d UTC$/);
  });
});
