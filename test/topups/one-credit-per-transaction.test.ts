import { describe, expect, it } from 'vitest';
import { codeOf } from '../helpers.js';
import { appWorld, asUser } from '../app-api/app-helpers.js';

/**
 * A chain transaction credited through one path and then through another, in another spelling of its
 * hash: the sandbox's deposits (the watchers' path), support's POST /partners/{id}/topups, a deposit's
 * resolve in the operator API and in the console. The second answers as for the first (200, the first
 * top-up) or 409 tx_already_credited, and never credits twice.
 */
const w = appWorld();
const OPERATOR = 778_001;
const HEX = '7d'.repeat(32);

async function world() {
  const x = await w.start({ ADMIN_CHAT_IDS: String(OPERATOR), APP_RATE_LIMIT: '100000' });
  const b = await x.t.admin('POST', '/partners', { name: 'Other partner' });
  return { ...x, other: b.body.partner_id as number, op: asUser(x.t, OPERATOR) };
}

describe('one credit per chain transaction across the paths', () => {
  it('a deposit support already credited by hand: resolving it to another partner is 409 in the API and the console; to the same partner it links the first top-up', async () => {
    const { t, p, other, op } = await world();
    const addr = (await t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'USD', amount: '20.00' })).body.addresses.find((a: { network: string }) => a.network === 'bep20').address;
    // a transfer no request asks for: unmatched, in the watcher's spelling
    const dep = await t.admin('POST', '/sandbox/deposits', { network: 'bep20', asset: 'USDT', amount: '33.00', to: addr, tx_hash: `0X${HEX.toUpperCase()}` });
    expect(dep.status, dep.raw).toBe(201);
    expect(dep.body).toMatchObject({ status: 'unmatched', tx_hash: `0x${HEX}` });
    // the same transfer reported again in another spelling is the same deposit
    const again = await t.admin('POST', '/sandbox/deposits', { network: 'bep20', asset: 'USDT', amount: '33.00', to: addr, tx_hash: HEX });
    expect(again.status).toBe(200);
    expect(again.body.deposit_id).toBe(dep.body.deposit_id);
    // support credits it by hand to p, bare hash without 0x
    const manual = await t.admin('POST', `/partners/${p.id}/topups`, { currency: 'USD', amount: '33.00', network: 'bep20', tx_hash: HEX });
    expect(manual.status, manual.raw).toBe(201);
    const entries = () => t.db.$client.prepare("select count(*) from ledger_entries where kind = 'topup'").pluck().get() as number;
    const n = entries();

    // to another partner: 409 from the operator API and from the console (its own error format), nothing written
    const api = await t.admin('POST', `/deposits/${dep.body.deposit_id}/resolve`, { action: 'credit', partner_id: other });
    expect(api.status).toBe(409);
    expect(api.body).toMatchObject({ code: 'tx_already_credited', topup_id: manual.body.topup_id, partner_id: p.id });
    const console = await op.call('POST', `/operator/deposits/${dep.body.deposit_id}/resolve`, { action: 'credit', partner_id: other });
    expect([console.status, codeOf(console)]).toEqual([409, 'tx_already_credited']);
    expect(entries()).toBe(n);
    expect((await t.admin('GET', `/partners/${other}`)).body).toMatchObject({ status: 'inactive', balances: { USD: '0.00' } });
    expect((await t.admin('GET', '/deposits?status=unmatched')).body.items.map((d: { deposit_id: string }) => d.deposit_id)).toEqual([dep.body.deposit_id]);

    // to the partner it was credited to: the deposit is settled by that top-up, no second credit
    const linked = await op.call('POST', `/operator/deposits/${dep.body.deposit_id}/resolve`, { action: 'credit', partner_id: p.id });
    expect(linked.status, linked.raw).toBe(200);
    expect(linked.body).toMatchObject({ status: 'credited', partner_id: p.id, topup_id: manual.body.topup_id });
    expect(entries()).toBe(n);
    expect((await t.admin('GET', `/partners/${p.id}`)).body.balances.USD).toBe('1033.00');
    expect((await t.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
  });

  it('a deposit credited by its watcher: support’s credit of the same transaction to another partner, or in another amount, is 409', async () => {
    const { t, p, other } = await world();
    const req = (await t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'USD', amount: '20.00' })).body;
    const to = req.addresses.find((a: { network: string }) => a.network === 'trc20').address;
    const dep = await t.admin('POST', '/sandbox/deposits', { network: 'trc20', asset: 'USDT', amount: req.amount_to_send, to, tx_hash: HEX });
    expect(dep.body).toMatchObject({ status: 'credited', partner_id: p.id });
    for (const [pid, amount] of [[other, req.amount_to_send], [p.id, '20.00']] as const) {
      const r = await t.admin('POST', `/partners/${pid}/topups`, { currency: 'USD', amount, network: 'trc20', tx_hash: `0x${HEX.toUpperCase()}` });
      expect(r.status, r.raw).toBe(409);
      expect(r.body).toMatchObject({ code: 'tx_already_credited', topup_id: dep.body.topup_id, partner_id: p.id, network: 'trc20', currency: 'USD', amount: req.amount_to_send });
    }
    const same = await t.admin('POST', `/partners/${p.id}/topups`, { currency: 'USD', amount: req.amount_to_send, network: 'trc20', tx_hash: HEX.toUpperCase() });
    expect(same.status).toBe(200);
    expect(same.body.topup_id).toBe(dep.body.topup_id);
    expect(t.db.$client.prepare("select count(*) from ledger_entries where kind = 'topup' and partner_id in (?, ?)").pluck().get(p.id, other)).toBe(3); // p's two from newPartner, and this one
  });
});
