import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEPOSIT_ADDRESSES } from '../../src/config/deposit-addresses.js';
import { depositNumber } from '../../bot/deposit-numbers.js';
import { button, waitFor, type BotMessage } from './fake-telegram.js';
import { OPERATOR, settle, shortNumber, World } from './harness.js';

/**
 * Operators read short numbers everywhere: a gift order (whose API id is `pa_<uuid>`) is PA-100… on its
 * alert, on the card opened from /reviews, in the "are you sure?" and on the handled card; a deposit is D-…
 * in its alert, in /deposits (its line and button) and in the credit flow. English in a private operator chat,
 * Russian in an operators' group, where a colleague pressing another's flow is told whose it is.
 */
const GROUP = -1_002_222;
const PAVEL = { id: 900_444, first_name: 'Pavel', language_code: 'ru' };
let w: World;

beforeAll(async () => {
  w = await World.start({ ADMIN_CHAT_IDS: `${OPERATOR.id},${GROUP}:ru` });
});
afterAll(async () => {
  await w?.close();
});

const noIds = (m: BotMessage) => {
  for (const text of m.history) expect(text).not.toMatch(/pa_[0-9a-f]{8}|dep_[0-9a-f]+/);
};

describe('short numbers for operators', () => {
  it('a gift order in review: its number on the alert, the card from /reviews, the question and the handled card (English and Russian)', async () => {
    const op = w.chat(OPERATOR);
    const olgaInGroup = w.chat(OPERATOR, GROUP);
    const p = await w.t.newPartner();
    const col = (await p.call('GET', '/nft/collections')).body.items[1].collection;
    const g = (await p.call('GET', `/nft/gifts?collection=${col}`)).body.items[0];
    const orderId = (await p.order('nft', { gift: g.gift, recipient: 'stuck_nils', max_price: g.partner_price })).body.order_id as string;
    expect(orderId).toMatch(/^pa_/);
    const number = shortNumber(w, orderId);
    for (let i = 0; i < 30 && !op.all.some((m) => m.text.includes(`Manual review needed: order ${number}`)); i++) await w.t.advance(5);
    const alert = await op.expect(`🔎 Manual review needed: order ${number}`);
    const ruAlert = await olgaInGroup.expect(`🔎 Нужна ручная проверка: заказ ${number}`);

    // the partner reads it as being checked, in /orders as in its notice
    const staff = await w.linkedChat(p.id, 'staff', 'en');
    await staff.say('/orders');
    const list = await staff.expectMenu('Recent orders');
    expect(list.text).toContain('being checked by support');

    await op.say('/reviews');
    const reviews = await op.expectMenu('Orders waiting for review');
    await op.press(reviews, button(reviews, number));
    const card = await waitFor(() => (w.current(reviews).text.startsWith('🔎 Manual review needed') ? w.current(reviews) : undefined), 'the card opened');
    expect(card.text).toContain(`order ${number} of partner “Test partner”`);
    await op.press(card, button(card, 'Refund'));
    const sure = await waitFor(() => (w.current(reviews).buttons.flat().some((b) => b.text.includes('Yes, refund')) ? w.current(reviews) : undefined), 'are you sure?');
    expect(sure.text).toContain(`order ${number}`);
    await op.press(sure, button(sure, 'Yes, refund'));
    await waitFor(() => w.current(ruAlert).buttons.length === 0, 'every card handled');
    expect(w.current(ruAlert).text).toMatch(new RegExp(`^🔎 Заказ ${number}`));
    expect(w.current(alert).text).toMatch(new RegExp(`^🔎 Order ${number}`));
    await settle(w);
    for (const m of [...op.all, ...olgaInGroup.all]) noIds(m);
  });

  it('a deposit: D-… in the alert, /deposits and the credit flow; in the operators’ group a colleague at Olga’s flow is told whose it is (Russian)', async () => {
    const olga = w.chat({ ...OPERATOR, language_code: 'ru' }, GROUP);
    const pavel = w.chat(PAVEL, GROUP);
    const partner = (await w.t.admin('POST', '/partners', { name: 'Нева' })).body.partner_id as number;
    const d = await w.t.admin('POST', '/sandbox/deposits', { network: 'trc20', asset: 'USDT', amount: '12.34', to: SANDBOX_DEPOSIT_ADDRESSES.DEPOSIT_ADDRESS_USDT_TRC20, tx_hash: `num-${process.pid}` });
    const num = depositNumber(w.t.deps, d.body.deposit_id);
    const alert = await olga.expectMenu(`Поступление ${num} на 12,34 USDT`);
    await olga.say('/deposits');
    const list = await olga.expectMenu('Поступлений, не зачисленных автоматически');
    expect(list.text).toContain(`${num}: 12,34 USDT`);
    expect(list.buttons.flat().map((b) => b.text)).toContain(`1. ${num} · 12,34 USDT`);
    await olga.press(alert, button(alert, 'Зачислить'));
    const ask = await olga.expect(`(поступление ${num})`);
    expect(ask.forceReply).toBeDefined();
    await olga.reply(ask, 'Нева');
    const matches = await olga.expectMenu('Партнёры по запросу «Нева»');
    expect(w.current(ask).deleted).toBe(true); // the question answered gives its place to the matches
    // Pavel presses Olga's button: told whose flow it is, nothing happens
    await pavel.press(matches, matches.buttons[0][0].callback_data!);
    await settle(w);
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload).toMatchObject({ text: 'Это действие (обработка поступления) пользователя Olga: нажимать его кнопки может только Olga.', show_alert: true });
    expect(w.current(matches).text).toContain('Партнёры по запросу');
    await olga.press(matches, matches.buttons[0][0].callback_data!);
    const sure = await olga.expectMenu(`Зачислить 12,34 USDT (поступление ${num})`);
    expect(sure.text).toContain('первое пополнение должно быть не меньше 10');
    await olga.press(sure, button(sure, 'Да, зачислить'));
    await waitFor(() => w.current(sure).text.startsWith(`✅ Поступление ${num} зачислено`), 'credited');
    expect((await w.t.admin('GET', `/partners/${partner}`)).body.balances.USD).toBe('12.34');
    await settle(w);
    for (const m of olga.all) noIds(m);
  });
});
