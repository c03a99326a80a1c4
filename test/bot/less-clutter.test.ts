import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, waitFor } from './fake-telegram.js';
import { settle, World, type Chat } from './harness.js';

/**
 * A whole 100-star order leaves three bot messages in a private chat: the steps before the confirmation
 * share one message (each shown in place of the one before, the answered question folded into one line),
 * the confirmation becomes the result in place, and the receipt (an answer to it) is the third. Back shows
 * the step before in the same message.
 */

let w: World;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

const sentTo = (chatId: number) => w.tg.callsOf('sendMessage').filter((c) => Number(c.payload.chat_id) === chatId);

async function wholeOrder(chat: Chat, words: { product: string; stars: string; recipient: string; check: string; accepted: string; completed: string }) {
  const before = sentTo(chat.chatId).length;
  await chat.say('/order');
  const steps = await chat.expectMenu(words.product);
  await chat.press(steps, button(steps, words.stars));
  await chat.expectMenu(/^(How many stars|Сколько звёзд)/);
  await chat.press(steps, button(steps, /^100$/));
  await chat.expect(words.recipient);
  await chat.say('@alice_user');
  const confirm = await chat.expectMenu(words.check);
  await chat.press(confirm, button(confirm, /Confirm|Подтвердить/));
  await chat.expect(words.accepted);
  const orderId = /PA-\d+/.exec(w.current(confirm).text)![0];
  for (let i = 0; i < 20 && !chat.all.some((m) => m.text.includes(words.completed)); i++) await w.t.advance(5);
  await chat.expect(words.completed);
  await settle(w);
  return { sent: sentTo(chat.chatId).slice(before), steps: w.current(steps), confirm: w.current(confirm), orderId };
}

describe('less clutter', () => {
  it('a 100-star order in English: three bot messages; the steps share one message and fold into one line; the confirmation becomes the result', async () => {
    const p = await w.t.newPartner();
    const chat = await w.linkedChat(p.id, 'staff', 'en');
    const { sent, steps, confirm, orderId } = await wholeOrder(chat, {
      product: 'What would you like to order?',
      stars: 'Stars',
      recipient: 'Send the recipient',
      check: 'Please check the order:',
      accepted: 'accepted',
      completed: 'completed\n',
    });
    expect(sent).toHaveLength(3);
    expect(sent.map((c) => Number(c.payload.chat_id))).toEqual([chat.chatId, chat.chatId, chat.chatId]);
    // the first message went through every step before the confirmation and ends as the one line of what was asked
    expect(steps.history).toEqual([
      'What would you like to order?',
      'How many stars? (50 to 50,000)',
      '⭐ Stars: 100\n\nSend the recipient’s Telegram username (for example @username).',
      '⭐ Stars: 100 → @alice_user',
    ]);
    expect(steps.buttons).toEqual([]);
    // the confirmation, edited into the result: no second message for "accepted"
    expect(confirm.history).toHaveLength(2);
    expect(confirm.history[0]).toMatch(/^Please check the order:\n100 stars for @alice_user\nPrice: 1\.58 USD/);
    expect(confirm.history[1]).toBe(`✅ Order ${orderId} accepted: 100 stars for @alice_user.\nDebited: 1.58 USD. Status: in progress ⏳.\nI will write when it is done.`);
    expect(confirm.buttons).toEqual([]);
    // the receipt answers the confirmation: what, for whom, the price and the balance after, when; with its buttons
    expect(sent[2].payload.text).toMatch(
      new RegExp(`^✅ Order ${orderId} completed\\n100 stars for @alice_user\\nPaid: 1\\.58 USD · balance after: 998\\.42 USD\\n🕒 \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`),
    );
    expect(sent[2].payload.reply_parameters?.message_id).toBe(confirm.message_id);
    expect(sent[2].payload.reply_markup.inline_keyboard.flat().map((b: { text: string }) => b.text)).toEqual(['🔁 Order again', 'ℹ️ Details']);
    expect(w.tg.refused).toEqual([]);
  });

  it('the same order in Russian: three bot messages, the same edits in Russian words', async () => {
    const p = await w.t.newPartner();
    const chat = await w.linkedChat(p.id, 'staff', 'ru');
    const { sent, steps, confirm, orderId } = await wholeOrder(chat, {
      product: 'Что заказать?',
      stars: 'Звёзды',
      recipient: 'Отправьте имя пользователя получателя',
      check: 'Проверьте заказ:',
      accepted: 'принят',
      completed: 'выполнен\n',
    });
    expect(sent).toHaveLength(3);
    expect(steps.history).toEqual([
      'Что заказать?',
      'Сколько звёзд? (от 50 до 50\u00a0000)',
      '⭐ Звёзды: 100\n\nОтправьте имя пользователя получателя в Telegram (например, @username).',
      '⭐ Звёзды: 100 → @alice_user',
    ]);
    expect(confirm.history).toHaveLength(2);
    expect(confirm.history[0]).toMatch(/^Проверьте заказ:\n100 звёзд для @alice_user\nЦена: 1,58 USD/);
    expect(confirm.history[1]).toMatch(new RegExp(`^✅ Заказ ${orderId} принят: 100 звёзд для @alice_user\\.\\nСписано: 1,58 USD\\.`));
    expect(sent[2].payload.text).toMatch(new RegExp(`^✅ Заказ ${orderId} выполнен\\n100 звёзд для @alice_user\\nОплачено: 1,58 USD · баланс после: 998,42 USD\\n🕒 `));
    expect(sent[2].payload.reply_markup.inline_keyboard.flat().map((b: { text: string }) => b.text)).toEqual(['🔁 Заказать снова', 'ℹ️ Подробнее']);
    expect(w.tg.refused).toEqual([]);
  });

  it('a typed number of stars folds into the same one line; a tap that crossed the edit answers nothing', async () => {
    const p = await w.t.newPartner();
    const chat = await w.linkedChat(p.id, 'staff', 'en');
    await chat.say('/order');
    const steps = await chat.expectMenu('What would you like to order?');
    const stars = button(steps, 'Stars');
    await chat.press(steps, stars);
    await chat.expectMenu('How many stars?');
    // the product button pressed again, as if the edit had not reached the client yet
    w.tg.press(chat.user, { ...steps, text: 'What would you like to order?' }, stars);
    await settle(w);
    expect(w.current(steps).text).toBe('How many stars? (50 to 50,000)');
    await chat.press(steps, button(w.current(steps), 'Other amount'));
    await chat.expect('Send the number of stars');
    await chat.say('1 500');
    await chat.expect('⭐ Stars: 1,500\n\nSend the recipient');
    await chat.say('bob_user');
    const confirm = await chat.expectMenu('Please check the order:');
    expect(confirm.text).toContain('1,500 stars for @bob_user');
    expect(w.current(steps).text).toBe('⭐ Stars: 1,500 → @bob_user');
    // every bot message so far: the shared steps and the confirmation
    expect(chat.all.filter((m) => m.message_id >= steps.message_id).map((m) => m.message_id)).toEqual([steps.message_id, confirm.message_id]);
  });

  it('Back from the recipient shows the amounts again in the same message; a refusal after Confirm is shown in the confirmation', async () => {
    const p = await w.t.newPartner();
    const chat = await w.linkedChat(p.id, 'staff', 'en');
    await chat.say('/order');
    const steps = await chat.expectMenu('What would you like to order?');
    await chat.press(steps, button(steps, 'Stars'));
    await chat.expectMenu('How many stars?');
    await chat.press(steps, button(steps, /^100$/));
    await chat.expectMenu('Send the recipient');
    await chat.press(steps, button(w.current(steps), 'Back'));
    const amounts = await chat.expectMenu('How many stars?');
    expect(amounts.message_id).toBe(steps.message_id);
    await chat.press(amounts, button(amounts, /^50$/));
    await chat.expect('⭐ Stars: 50\n\nSend the recipient');
    await chat.say('carol_user');
    const confirm = await chat.expectMenu('Please check the order:');
    // the operator switches Stars off before Confirm: the refusal is written into the confirmation
    expect((await w.t.admin('PUT', '/settings', { products: { stars: { enabled: false } } })).status).toBe(200);
    try {
      await chat.press(confirm, button(confirm, 'Confirm'));
      await waitFor(() => w.current(confirm).history.length === 2, 'the confirmation edited');
    } finally {
      expect((await w.t.admin('PUT', '/settings', { products: { stars: { enabled: true } } })).status).toBe(200);
    }
    expect(w.current(confirm).text).toBe(`${confirm.history[0]}\n\nThis product is switched off for now; retrying will not help.`);
    expect(w.current(confirm).buttons).toEqual([]);
    expect((await p.call('GET', '/orders')).body.items).toEqual([]);
    expect(w.tg.refused).toEqual([]);
  });

  it('a stale tap on a used confirmation gets the toast only, in Russian too', async () => {
    const p = await w.t.newPartner();
    const chat = await w.linkedChat(p.id, 'staff', 'ru');
    await chat.say('/order');
    const steps = await chat.expectMenu('Что заказать?');
    await chat.press(steps, button(steps, 'Звёзды'));
    await chat.expectMenu('Сколько звёзд?');
    await chat.press(steps, button(steps, /^100$/));
    await chat.expect('Отправьте имя пользователя');
    await chat.say('dave_user');
    const confirm = await chat.expectMenu('Проверьте заказ:');
    const ok = button(confirm, 'Подтвердить');
    await chat.press(confirm, ok);
    await chat.expect('принят');
    const toasts = w.tg.callsOf('answerCallbackQuery').length;
    w.tg.press(chat.user, { ...confirm, text: confirm.history[0] }, ok);
    await waitFor(() => w.tg.callsOf('answerCallbackQuery').length > toasts, 'the toast');
    await settle(w);
    const toast = w.tg.callsOf('answerCallbackQuery').slice(toasts);
    expect(toast.map((c) => typeof c.payload.text)).toEqual(['string']);
    expect(chat.all.filter((m) => m.message_id > confirm.message_id)).toEqual([]);
    expect((await p.call('GET', '/orders')).body.items).toHaveLength(1);
  });

  it('after Back and a restart of the bot, the step shown again goes on to an order', async () => {
    const p = await w.t.newPartner();
    const chat = await w.linkedChat(p.id, 'staff', 'en');
    await chat.say('/order');
    const steps = await chat.expectMenu('What would you like to order?');
    await chat.press(steps, button(steps, 'Stars'));
    await chat.expectMenu('How many stars?');
    await chat.press(steps, button(steps, /^100$/));
    await chat.expectMenu('Send the recipient');
    await chat.press(steps, button(w.current(steps), 'Back'));
    const amounts = await chat.expectMenu('How many stars?');
    expect(amounts.message_id).toBe(steps.message_id);
    await settle(w);
    const started = w.tg.callsOf('setMyCommands').length;
    await w.restart();
    await waitFor(() => w.tg.callsOf('setMyCommands').length >= started + 2, 'the bot to start again');
    await chat.press(amounts, button(amounts, /^500$/));
    await chat.expect('⭐ Stars: 500\n\nSend the recipient');
    expect(w.current(amounts).text).toContain('⭐ Stars: 500');
    await chat.say('erin_user');
    const confirm = await chat.expectMenu('Please check the order:');
    await chat.press(confirm, button(confirm, 'Confirm'));
    await chat.expect('accepted');
    // the service was replaced: called with the partner's key
    expect((await w.t.partnerCall(p.key, 'GET', '/orders')).body.items.map((o: { quantity: number }) => o.quantity)).toEqual([500]);
  });
});
