import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEPOSIT_ADDRESSES } from '../../src/config/deposit-addresses.js';
import { depositNumber } from '../../bot/deposit-numbers.js';
import { button, waitFor } from './fake-telegram.js';
import { OPERATOR, settle, World } from './harness.js';

/**
 * An operator case still waiting after BOT_CASE_REMINDER_HOURS (here 3) is reminded once in every operator
 * chat, in its language, as a card of the case with its buttons; handled, every card says so.
 */
const RU_OPERATOR = { id: 900_333, first_name: 'Павел', language_code: 'ru' };
let w: World;

beforeAll(async () => {
  w = await World.start({ BOT_CASE_REMINDER_HOURS: '3', ADMIN_CHAT_IDS: `${OPERATOR.id},${RU_OPERATOR.id}:ru` });
});
afterAll(async () => {
  await w?.close();
});

describe('reminders of cases that wait', () => {
  it('an order in review and an unmatched deposit: one reminder each after 3 h, in each operator’s language, whose buttons work', async () => {
    const op = w.chat(OPERATOR);
    const ru = w.chat(RU_OPERATOR);
    const p = await w.t.newPartner();
    const orderId = (await p.order('stars', { quantity: 50, recipient: 'unconfirmed_remi' })).body.order_id as string;
    for (let i = 0; i < 20 && !op.all.some((m) => m.text.includes(`Manual review needed: order ${orderId}`)); i++) await w.t.advance(5);
    const d = await w.t.admin('POST', '/sandbox/deposits', { network: 'trc20', asset: 'USDT', amount: '17.17', to: SANDBOX_DEPOSIT_ADDRESSES.DEPOSIT_ADDRESS_USDT_TRC20, tx_hash: `remind-${process.pid}` });
    await op.expect(`Deposit ${depositNumber(w.t.deps, d.body.deposit_id)} of 17.17 USDT`);
    await settle(w);
    const before = op.all.length;
    await w.t.advance(2 * 3600);
    await settle(w);
    expect(op.all.length).toBe(before); // not yet

    await w.t.advance(3600);
    const review = await op.expect(`⏰ Still waiting after 3 h`);
    expect(review.text).toMatch(new RegExp(`^⏰ Still waiting after 3 h( \\d+ min)?:\\n\\n🔎 Manual review needed: order ${orderId} of partner “Test partner”\\.`));
    expect(review.buttons.flat().map((b) => b.text)).toEqual(['✅ Deliver', '↩️ Refund']);
    const deposit = await waitFor(() => op.all.find((m) => m.text.startsWith('⏰') && m.text.includes('17.17 USDT')), 'the deposit reminder');
    expect(deposit.buttons.flat().map((b) => b.text)).toEqual(['💰 Credit to partner…', '✖ Close', '± Correct a partner’s balance…']);
    const ruReview = await ru.expect('⏰ Ждёт уже 3 ч');
    expect(ruReview.text).toContain(`🔎 Нужна ручная проверка: заказ ${orderId}`);

    // once: no second reminder however long it waits
    await settle(w);
    const after = op.all.length;
    await w.t.advance(6 * 3600);
    await settle(w);
    expect(op.all.length).toBe(after);

    // the reminder is a card of the case: Deliver there settles every card
    await op.press(review, button(review, 'Deliver'));
    const sure = await waitFor(() => (w.current(review).buttons.flat().some((b) => b.text.includes('Yes, delivered')) ? w.current(review) : undefined), 'are you sure?');
    await op.press(sure, button(sure, 'Yes, delivered'));
    await waitFor(() => w.current(ruReview).buttons.length === 0, 'every card settled');
    expect(w.current(ruReview).text).toMatch(/Отмечен доставленным — Olga/);
    expect((await p.call('GET', `/orders/${orderId}`)).body.status).toBe('completed');
  });
});
