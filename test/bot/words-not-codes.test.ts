import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEPOSIT_ADDRESSES } from '../../src/config/deposit-addresses.js';
import { button } from './fake-telegram.js';
import { settle, World } from './harness.js';

/**
 * Words, not codes: operators read the partner's name (not "partner #1") and a deposit's reason once, in
 * words (not the service's note "TON is accepted only on ton, not on bep20"); owners read webhook events in
 * words (not `order.completed`).
 */

const RU_OPERATOR = { id: 900_077, first_name: 'Пётр', language_code: 'ru' };
let w: World;

beforeAll(async () => {
  w = await World.start({ ADMIN_CHAT_IDS: `900001,${RU_OPERATOR.id}:ru` });
});
afterAll(async () => {
  await w?.close();
});

describe('words, not codes', () => {
  it('a review alert names the partner by its name, in English and Russian', async () => {
    const p = await w.t.newPartner();
    const orderId = (await p.order('stars', { quantity: 50, recipient: 'unconfirmed_wendy' })).body.order_id as string;
    const en = w.chat({ id: 900_001, first_name: 'Olga', language_code: 'en' });
    const ru = w.chat(RU_OPERATOR);
    for (let i = 0; i < 40 && !ru.all.some((m) => m.text.includes(orderId)); i++) {
      await w.t.advance(5);
      await settle(w, 20);
    }
    const alertEn = en.all.find((m) => m.text.includes(`Manual review needed: order ${orderId}`))!;
    expect(alertEn.text.split('\n')[0]).toBe(`🔎 Manual review needed: order ${orderId} of partner “Test partner”.`);
    const alertRu = ru.all.find((m) => m.text.includes(orderId))!;
    expect(alertRu.text.split('\n')[0]).toBe(`🔎 Нужна ручная проверка: заказ ${orderId} партнёра «Test partner».`);
    for (const m of [alertEn, alertRu]) expect(m.text).not.toMatch(/#\d|№\d/);
  });

  it('a deposit on a network its asset is not accepted on says why once, in words, without network codes', async () => {
    const en = w.chat({ id: 900_001, first_name: 'Olga', language_code: 'en' });
    const ru = w.chat(RU_OPERATOR);
    const r = await w.t.admin('POST', '/sandbox/deposits', { network: 'bep20', asset: 'TON', amount: '12.000', to: SANDBOX_DEPOSIT_ADDRESSES.DEPOSIT_ADDRESS_TON, tx_hash: `tx-words-${process.pid}` });
    expect(r.status).toBeLessThan(300);
    await w.t.advance(120);
    await settle(w);
    await en.say('/deposits');
    const list = await en.expectMenu('Deposits not credited automatically');
    await en.press(list, list.buttons[0][0].callback_data!);
    await settle(w);
    const card = w.current(list);
    expect(card.text).toContain('Not credited automatically: it was sent on a network where this asset is not accepted.');
    expect(card.text).not.toMatch(/accepted only|\bton\b|\bbep20\b/);
    await ru.say('/deposits');
    const ruList = await ru.expectMenu('Поступлений, не зачисленных автоматически');
    await ru.press(ruList, ruList.buttons[0][0].callback_data!);
    await settle(w);
    const ruCard = w.current(ruList);
    expect(ruCard.text).toContain('Не зачислено автоматически: отправлено в сети, в которой этот актив не принимается.');
    expect(ruCard.text).not.toMatch(/accepted|\bton\b|\bbep20\b/);
  });

  it('the webhook screen names events in words, in Russian too', async () => {
    const p = await w.t.newPartner();
    const owner = await w.linkedChat(p.id, 'owner', 'ru');
    await w.t.admin('PUT', `/partners/${p.id}/webhook`, { url: 'https://hooks.example.com/ru' });
    await owner.say('/webhook');
    const menu = await owner.expectMenu('События: заказ выполнен, заказ не выполнен, деньги за заказ возвращены');
    expect(menu.text).not.toMatch(/order\.|balance\./);
    await owner.press(menu, button(menu, 'События'));
    const which = await owner.expectMenu('Какие события получать вашему серверу?');
    expect(which.text).not.toMatch(/balance\.low/);
  });
});
