import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEPOSIT_ADDRESSES } from '../../src/config/deposit-addresses.js';
import { button, waitFor } from './fake-telegram.js';
import { newUser, OPERATOR, settle, World } from './harness.js';

/**
 * Unmatched deposits in the bot: the operators' alert with Credit / Close buttons, /deposits, and the
 * owner's message when a deposit pays a top-up request. Deposits come in through POST /sandbox/deposits.
 */

let w: World;
let n = 0;
const txh = () => `tx-bot-${process.pid}-${++n}`;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

/** A USDT transfer on TRC-20 to the sandbox USD address, as a watcher would report it. */
async function usdt(amount: string): Promise<{ deposit_id: string; status: string }> {
  const r = await w.t.admin('POST', '/sandbox/deposits', { network: 'trc20', asset: 'USDT', amount, to: SANDBOX_DEPOSIT_ADDRESSES.DEPOSIT_ADDRESS_USDT_TRC20, tx_hash: txh() });
  expect(r.status, r.raw).toBe(201);
  return r.body;
}

async function depositsWith(status: string): Promise<string[]> {
  return (await w.t.admin('GET', `/deposits?status=${status}`)).body.items.map((d: { deposit_id: string }) => d.deposit_id);
}

const current = (id: number) => w.tg.messages.find((m) => m.message_id === id)!;

describe('unmatched deposits', () => {
  it('the alert has Credit / Close buttons; Credit asks for the partner id, explains mistakes and credits the partner', async () => {
    const p = await w.t.newPartner();
    const op = w.chat(OPERATOR);
    const d = await usdt('39.99');
    expect(d.status).toBe('unmatched');
    const alert = await op.expectMenu(`Deposit ${d.deposit_id} of 39.99 USDT on trc20`);

    const credit = button(alert, 'Credit to partner');
    expect(credit).toBe(`dp:c:${d.deposit_id}`);
    await op.press(alert, credit);
    await op.expect('to which partner? Send the partner id');
    await op.say('acme');
    await op.expect('That is not a partner id');
    await op.say('999999');
    await op.expect('There is no partner #999999');
    await op.say(String(p.id));
    await op.expect(`Deposit ${d.deposit_id} credited to partner #${p.id}: 39.99 USDT`);

    expect((await w.t.admin('GET', `/partners/${p.id}`)).body.balances.USD).toBe('1039.99');
    expect(await depositsWith('credited')).toContain(d.deposit_id);
    await waitFor(() => current(alert.message_id).buttons.length === 0, 'the alert to lose its buttons');
    expect(current(alert.message_id).text).toContain(`credited to partner #${p.id}`);

    // the same button again (a stale copy of the alert): nothing changes, the operator is told why
    await op.press(alert, credit);
    await op.expect(`Deposit ${d.deposit_id} is no longer waiting (it is credited)`);
    expect((await w.t.admin('GET', `/partners/${p.id}`)).body.balances.USD).toBe('1039.99');
  });

  it('below the partner minimum is explained; Close asks for a note and closes the deposit', async () => {
    const fresh = (await w.t.admin('POST', '/partners', { name: 'New' })).body.partner_id as number;
    const op = w.chat(OPERATOR);
    const d = await usdt('7.77');
    const alert = await op.expectMenu(`Deposit ${d.deposit_id}`);

    await op.press(alert, button(alert, 'Credit to partner'));
    await op.expect('Send the partner id');
    await op.say(String(fresh));
    await op.expect(`for partner #${fresh} the top-up must be at least 10.00 USD`);
    expect((await w.t.admin('GET', `/partners/${fresh}`)).body).toMatchObject({ status: 'inactive', balances: { USD: '0.00' } });
    await op.say('/cancel');
    await op.expect('Cancelled.');

    await op.press(alert, button(alert, 'Close'));
    await op.expect('Send a short note why');
    await op.say('returned to the sender');
    await op.expect(`Deposit ${d.deposit_id} closed: returned to the sender`);
    const closed = (await w.t.admin('GET', '/deposits?status=closed')).body.items.find((x: { deposit_id: string }) => x.deposit_id === d.deposit_id);
    expect(closed).toMatchObject({ status: 'closed', note: 'returned to the sender' });
    await waitFor(() => current(alert.message_id).buttons.length === 0, 'the alert to lose its buttons');
  });

  it('/deposits lists what remains, with the same buttons', async () => {
    const d = await usdt('777.00');
    const op = w.chat(OPERATOR);
    await op.expectMenu(`Deposit ${d.deposit_id}`);
    const waiting = await depositsWith('unmatched');
    expect(waiting).toContain(d.deposit_id);

    await op.say('/deposits');
    await op.expect(`Deposits not credited automatically: ${waiting.length}`);
    await waitFor(() => op.fresh.filter((m) => m.buttons.length > 0).length === waiting.length, 'every waiting deposit to be listed');
    const items = op.fresh.filter((m) => m.buttons.length > 0);
    expect(items.map((m) => /Deposit (dep_\w+)/.exec(m.text)![1]).sort()).toEqual([...waiting].sort());
    const item = items.find((m) => m.text.includes(d.deposit_id))!;
    expect(item.text).toContain('777.00 USDT on trc20');
    expect(button(item, 'Close')).toBe(`dp:x:${d.deposit_id}`);

    // closed from the list, the list is then empty
    await op.press(item, button(item, 'Close'));
    await op.expect('Send a short note why');
    await op.say('test transfer');
    await op.expect('closed: test transfer');
    if (waiting.length === 1) {
      await op.say('/deposits');
      await op.expect('No deposits are waiting');
    }
  });

  it('staff and other non-operators cannot use /deposits or the deposit buttons', async () => {
    const p = await w.t.newPartner();
    const staff = w.chat(newUser());
    await w.link(staff.user, p.id, 'staff');
    const d = await usdt('55.55');
    await staff.say('/deposits');
    await staff.expect('Commands:');
    expect(staff.fresh.some((m) => m.text.includes('Deposit'))).toBe(false);
    w.tg.press(staff.user, staff.all[0], `dp:c:${d.deposit_id}`);
    await settle(w);
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload.text).toBe('Only operators can do this.');
    expect(await depositsWith('unmatched')).toContain(d.deposit_id);
  });

  it('when a deposit pays a top-up request, then the owner hears it was credited, and operators get no alert', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser());
    await w.link(owner.user, p.id, 'owner');
    const op = w.chat(OPERATOR);
    const rq = await w.t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'USD', amount: '25' });
    expect(rq.status, rq.raw).toBe(201);
    const d = await usdt(rq.body.amount_to_send);
    expect(d.status).toBe('credited');
    await owner.expect(`Top-up credited: ${rq.body.amount_to_send} USD`);
    expect((await w.t.admin('GET', `/partners/${p.id}`)).body.balances.USD).toBe((1000 + Number(rq.body.amount_to_send)).toFixed(2));
    await settle(w);
    expect(op.fresh.some((m) => m.text.includes(d.deposit_id))).toBe(false);
  });

  it('in Russian for a Russian operator client', async () => {
    const ruOp = { ...OPERATOR, language_code: 'ru' };
    const op = w.chat(ruOp);
    const d = await usdt('12.34');
    const alert = await op.expectMenu(`Deposit ${d.deposit_id}`); // the alert goes by the chat's stored language
    await op.press(alert, button(alert, /Close|Закрыть/));
    await op.expect('Отправьте короткую пометку');
    await op.say('/cancel');
    await op.expect('Отменено');
  });
});
