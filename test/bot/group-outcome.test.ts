import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, waitFor } from './fake-telegram.js';
import { settle, World, type Chat } from './harness.js';

/**
 * An order placed in a group is reported in that group: its outcome (a receipt, or the failure and refund)
 * answers the "accepted" message there, in the language of whoever placed it; private notices follow each
 * person's /notices settings as before.
 */
let w: World;
let nextGroup = -1_001_500;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

async function orderInGroup(group: Chat, recipient: string, words: { products: RegExp; stars: RegExp; amounts: RegExp; ask: RegExp; check: RegExp; confirm: RegExp }) {
  await group.say('/order');
  const products = await group.expectMenu(words.products);
  await group.press(products, button(products, words.stars));
  const amounts = await group.expectMenu(words.amounts);
  await group.press(amounts, button(amounts, /^50$/));
  const ask = await group.expect(words.ask);
  await group.reply(ask, recipient);
  const confirm = await group.expectMenu(words.check);
  await group.press(confirm, button(confirm, words.confirm));
  const number = await waitFor(() => /PA-\d+/.exec(w.current(confirm).text)?.[0], 'accepted');
  return { confirm, number };
}

async function until(chat: Chat, text: string) {
  for (let i = 0; i < 30 && !chat.all.some((m) => m.text.includes(text)); i++) await w.t.advance(5);
  return chat.expect(text);
}

const EN = { products: /What would you like/, stars: /Stars/, amounts: /How many stars/, ask: /Send the recipient/, check: /Please check the order/, confirm: /Confirm/ };
const RU = { products: /Что заказать/, stars: /Звёзды/, amounts: /Сколько звёзд/, ask: /Отправьте имя пользователя/, check: /Проверьте заказ/, confirm: /Подтвердить/ };

describe('an order placed in a group', () => {
  it('English: the receipt is posted in the group as an answer to the accepted message; the orderer’s private chat hears it by its settings', async () => {
    const p = await w.t.newPartner();
    const sam = await w.linkedChat(p.id, 'staff', 'en');
    const group = w.chat(sam.user, nextGroup--);
    const { confirm, number } = await orderInGroup(group, '@gwen_user', EN);
    const receipt = await until(group, `✅ Order ${number} completed`);
    expect(receipt.replyTo).toBe(confirm.message_id);
    expect(receipt.text).toContain('50 stars for @gwen_user');
    expect(receipt.text.split('\n').at(-1)).toBe(`Ordered by ${sam.user.first_name}.`);
    expect(receipt.buttons.flat().map((b) => b.text)).toEqual(['🔁 Order again', 'ℹ️ Details']);
    // his private chat hears it too (completed orders are on there), without "Ordered by"
    const mine = await sam.expect(`✅ Order ${number} completed`);
    expect(mine.text).not.toContain('Ordered by');

    // with completed orders switched off in his chat, the group alone hears the next one
    await sam.say('/notices');
    const menu = await sam.expectMenu('Notices in this chat');
    await sam.press(menu, button(menu, 'Completed orders'));
    await waitFor(() => w.current(menu).buttons.flat().some((b) => b.text === '🔕 Completed orders'), 'off');
    const second = await orderInGroup(group, '@hugh_user', EN);
    await until(group, `✅ Order ${second.number} completed`);
    await settle(w);
    expect(sam.all.some((m) => m.text.includes(second.number))).toBe(false);

    // a teammate opens the details of the group's receipt in place, and goes back
    const mate = await w.linkedChat(p.id, 'staff', 'en');
    const inGroup = w.chat(mate.user, group.chatId);
    await inGroup.press(receipt, button(receipt, 'Details'));
    await waitFor(() => w.current(receipt).text.startsWith(`Order ${number}\n`), 'details in place');
    await inGroup.press(w.current(receipt), button(w.current(receipt), 'Back'));
    await waitFor(() => w.current(receipt).text.startsWith(`✅ Order ${number} completed`), 'the receipt again');
    // "Order again" starts the same order for whoever presses it: straight to a new confirmation, no Back
    await inGroup.press(w.current(receipt), button(w.current(receipt), 'Order again'));
    const again = await inGroup.expectMenu('Please check the order');
    expect(again.text).toContain('50 stars for @gwen_user');
    expect(again.buttons.flat().map((b) => b.text)).toEqual(['✅ Confirm', '✖ Cancel']);
    await inGroup.press(again, button(again, 'Confirm'));
    await waitFor(() => /accepted/.test(w.current(again).text), 'ordered again');
    expect((await p.call('GET', '/orders')).body.items).toHaveLength(3);
  });

  it('Russian: a failed order is told in the group, refunded, as an answer to the accepted message', async () => {
    const p = await w.t.newPartner();
    const vera = await w.linkedChat(p.id, 'staff', 'ru');
    const group = w.chat(vera.user, nextGroup--);
    const { confirm, number } = await orderInGroup(group, 'failstars_ivan', RU);
    const failed = await until(group, `❌ Заказ ${number} не выполнен, деньги возвращены`);
    expect(failed.replyTo).toBe(confirm.message_id);
    expect(failed.text).toContain('Возвращено: 0,79 USD · баланс после: 1\u00a0000,00 USD');
    expect(failed.text).toContain(`Кто оформил: ${vera.user.first_name}.`);
  });
});
