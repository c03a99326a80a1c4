/**
 * Deposit matching as the application does it (src/app/deposits/record.ts `recordDeposit`), called directly
 * on a real service's dependencies (SQLite in a temp folder): a confirmed transfer of the exact amount of an
 * open request (or, in TON, with its comment code) is credited once, in the same transaction, with one
 * ledger entry; a wrong network, an underpayment or an overpayment is left unmatched with its reason and
 * credits nothing; a repeated report and a transfer support already credited by hand never credit again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDeposit } from '../../src/app/deposits/record.js';
import { createTopupRequest } from '../../src/app/topup-requests.js';
import { TOPUP_REQUEST_TTL_MS, type ObservedTransfer } from '../../src/domain/deposit-matching.js';
import { formatAmount } from '../../src/domain/money.js';
import type { Alert } from '../../src/kernel/event-bus.js';
import { balanceOf } from '../../src/store/ledger-repo.js';
import { startService, stopService, type TestService } from '../helpers.js';

let t: TestService;
const alerts: Alert[] = [];
beforeAll(async () => {
  t = await startService();
  t.deps.bus.on('alert', (a) => alerts.push(a));
});
afterAll(() => stopService(t));

let n = 0;
const tx = () => `dep-tx-${++n}`;

/** A partner with an open request: its id, the exact amount to send (text and minor units), the addresses, the TON code. */
async function request(currency: 'USD' | 'TON', amount: string) {
  const p = await t.newPartner();
  const view = createTopupRequest(t.deps, p.id, { currency, amount }, 'test');
  const minor = Math.round(Number(view.amount_to_send) * (currency === 'USD' ? 100 : 1000));
  const address = (network: string) => view.addresses.find((a) => a.network === network)!.address;
  return { partnerId: p.id, requestId: view.request_id, send: view.amount_to_send, minor, address, code: view.comment_code ?? null };
}

const transfer = (over: Partial<ObservedTransfer> & Pick<ObservedTransfer, 'network' | 'asset' | 'amount' | 'to'>): ObservedTransfer => ({
  txHash: tx(),
  from: 'sender',
  comment: null,
  confirmations: 100,
  ...over,
});

const requestStatus = (requestId: string) => t.db.$client.prepare('select status, credited_deposit_id from topup_requests where request_id = ?').get(requestId) as { status: string; credited_deposit_id: string | null };
const ledgerCount = () => t.db.$client.prepare('select count(*) from ledger_entries').pluck().get() as number;
const entriesOfTopup = (topupId: string) => t.db.$client.prepare('select kind, currency, amount from ledger_entries where topup_id = ?').raw().all(topupId);

describe('recordDeposit: matching and crediting', () => {
  it('USDT on trc20 of the exact amount: pending below 19 confirmations, credited once it has them: one topup entry of the amount, the request paid', async () => {
    const q = await request('USD', '50.00');
    const before = balanceOf(t.db, q.partnerId, 'USD');
    const sent = transfer({ network: 'trc20', asset: 'USDT', amount: q.send, to: q.address('trc20'), confirmations: 5 });

    const early = recordDeposit(t.deps, sent, 'watcher');
    expect([early.created, early.deposit.status, early.deposit.partner_id, early.deposit.confirmations]).toEqual([true, 'pending', null, 5]);
    expect(balanceOf(t.db, q.partnerId, 'USD')).toBe(before);
    expect(requestStatus(q.requestId).status).toBe('open');

    const done = recordDeposit(t.deps, { ...sent, confirmations: 19 }, 'watcher');
    expect(done.created).toBe(false);
    expect(done.deposit).toMatchObject({ deposit_id: early.deposit.deposit_id, status: 'credited', partner_id: q.partnerId, request_id: q.requestId, reason: null, confirmations: 19 });
    expect(done.deposit.note).toBe(`Paid request ${q.requestId} (matched by the exact amount).`);
    expect(balanceOf(t.db, q.partnerId, 'USD')).toBe(before + q.minor);
    expect(entriesOfTopup(done.deposit.topup_id!)).toEqual([['topup', 'USD', q.minor]]);
    expect(requestStatus(q.requestId)).toEqual({ status: 'credited', credited_deposit_id: early.deposit.deposit_id });
  });

  it('a repeated report of a credited transfer answers the same deposit and credits nothing more', async () => {
    const q = await request('USD', '60.00');
    const sent = transfer({ network: 'bep20', asset: 'USDT', amount: q.send, to: q.address('bep20') });
    const first = recordDeposit(t.deps, sent, 'watcher');
    expect(first.deposit.status).toBe('credited');
    const balance = balanceOf(t.db, q.partnerId, 'USD');
    const entries = ledgerCount();

    const again = recordDeposit(t.deps, sent, 'watcher');
    expect([again.created, again.deposit.deposit_id, again.deposit.status, again.deposit.topup_id]).toEqual([false, first.deposit.deposit_id, 'credited', first.deposit.topup_id]);
    expect(balanceOf(t.db, q.partnerId, 'USD')).toBe(balance);
    expect(ledgerCount()).toBe(entries);
  });

  it('TON with the request code in the comment: credited by the code', async () => {
    const q = await request('TON', '25');
    expect(q.code).toMatch(/^[A-Z2-9]{6}$/);
    const before = balanceOf(t.db, q.partnerId, 'TON');
    const r = recordDeposit(t.deps, transfer({ network: 'ton', asset: 'TON', amount: q.send, to: q.address('ton'), comment: `pay ${q.code}` }), 'watcher');
    expect([r.deposit.status, r.deposit.partner_id, r.deposit.request_id]).toEqual(['credited', q.partnerId, q.requestId]);
    expect(r.deposit.note).toBe(`Paid request ${q.requestId} (matched by the comment code).`);
    expect(balanceOf(t.db, q.partnerId, 'TON')).toBe(before + q.minor);
    expect(entriesOfTopup(r.deposit.topup_id!)).toEqual([['topup', 'TON', q.minor]]);
  });

  it('TON sent on trc20: unmatched wrong_network, nothing credited, the request still open, the operators alerted', async () => {
    const q = await request('TON', '35');
    const before = balanceOf(t.db, q.partnerId, 'TON');
    const entries = ledgerCount();
    const r = recordDeposit(t.deps, transfer({ network: 'trc20', asset: 'TON', amount: q.send, to: q.address('ton'), comment: q.code }), 'watcher');
    expect([r.deposit.status, r.deposit.reason, r.deposit.partner_id, r.deposit.topup_id, r.deposit.request_id]).toEqual(['unmatched', 'wrong_network', null, null, null]);
    expect(r.deposit.note).toBe('TON is accepted only on ton, not on trc20.');
    expect(balanceOf(t.db, q.partnerId, 'TON')).toBe(before);
    expect(ledgerCount()).toBe(entries);
    expect(requestStatus(q.requestId).status).toBe('open');
    expect(alerts.filter((a) => a.kind === 'unmatched_deposit' && a.depositId === r.deposit.deposit_id)).toEqual([
      expect.objectContaining({ kind: 'unmatched_deposit', network: 'trc20', asset: 'TON', reason: 'wrong_network' }),
    ]);
  });

  it('an underpayment and an overpayment of a request: unmatched wrong_amount naming the request, nothing credited', async () => {
    const q = await request('USD', '80.00');
    const before = balanceOf(t.db, q.partnerId, 'USD');
    const entries = ledgerCount();
    for (const minor of [q.minor - 100, q.minor + 50]) {
      const amount = formatAmount(minor, 'USD');
      const r = recordDeposit(t.deps, transfer({ network: 'ton', asset: 'USDT', amount, to: q.address('ton') }), 'watcher');
      expect([r.deposit.status, r.deposit.reason, r.deposit.request_id, r.deposit.partner_id], amount).toEqual(['unmatched', 'wrong_amount', q.requestId, null]);
      expect(r.deposit.note).toBe(`${amount} USDT matches no open request; the closest, ${q.requestId}, asks for ${q.send} USDT.`);
    }
    expect(balanceOf(t.db, q.partnerId, 'USD')).toBe(before);
    expect(ledgerCount()).toBe(entries);
    expect(requestStatus(q.requestId).status).toBe('open');

    // the exact amount still pays it
    const paid = recordDeposit(t.deps, transfer({ network: 'ton', asset: 'USDT', amount: q.send, to: q.address('ton') }), 'watcher');
    expect([paid.deposit.status, paid.deposit.request_id]).toEqual(['credited', q.requestId]);
    expect(balanceOf(t.db, q.partnerId, 'USD')).toBe(before + q.minor);
  });

  it('the exact amount of a request that expired before the transfer: unmatched expired_request naming it, nothing credited', async () => {
    const q = await request('USD', '70.00');
    const before = balanceOf(t.db, q.partnerId, 'USD');
    const entries = ledgerCount();
    t.deps.clock.moveTo(t.deps.clock.now() + TOPUP_REQUEST_TTL_MS);
    const r = recordDeposit(t.deps, transfer({ network: 'trc20', asset: 'USDT', amount: q.send, to: q.address('trc20') }), 'watcher');
    expect([r.deposit.status, r.deposit.reason, r.deposit.request_id, r.deposit.partner_id]).toEqual(['unmatched', 'expired_request', q.requestId, q.partnerId]);
    expect(r.deposit.note).toBe(`${q.send} USDT pays request ${q.requestId}, which expired before the transfer.`);
    expect(balanceOf(t.db, q.partnerId, 'USD')).toBe(before);
    expect(ledgerCount()).toBe(entries);
    expect(requestStatus(q.requestId).status).toBe('expired');
  });

  it('a transfer support already credited by hand (the same transaction hash): recorded as credited to that top-up, no second credit', async () => {
    const q = await request('USD', '90.00');
    const hash = tx();
    const manual = await t.admin('POST', `/partners/${q.partnerId}/topups`, { currency: 'USD', amount: q.send, network: 'trc20', tx_hash: hash });
    expect(manual.status, manual.raw).toBe(201);
    const after = balanceOf(t.db, q.partnerId, 'USD');
    const entries = ledgerCount();

    const r = recordDeposit(t.deps, transfer({ network: 'trc20', asset: 'USDT', amount: q.send, to: q.address('trc20'), txHash: hash, confirmations: 19 }), 'watcher');
    expect([r.deposit.status, r.deposit.partner_id, r.deposit.topup_id, r.deposit.request_id]).toEqual(['credited', q.partnerId, manual.body.topup_id, null]);
    expect(r.deposit.note).toBe(`Already credited as top-up ${manual.body.topup_id}.`);
    expect(balanceOf(t.db, q.partnerId, 'USD')).toBe(after);
    expect(ledgerCount()).toBe(entries);
    // the request itself was not paid by this transfer
    expect(requestStatus(q.requestId).status).toBe('open');
  });
});
