import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestPartner } from '../helpers.js';
import { button, waitFor, type BotMessage, type TgUser } from './fake-telegram.js';
import { newUser, OPERATOR, settle, World, type Chat } from './harness.js';

/**
 * Issue 16: the bot walked as its people found it (seven bugs), through the fake Bot API. After every test
 * the bot must not have made a single call the server refused (an edit of an unchanged message, a markup
 * on a message without one, …).
 */
const RU_OPERATOR: TgUser = { id: 900_002, first_name: 'Ольга', language_code: 'ru' };

let w: World;
beforeAll(async () => {
  w = await World.start({ ADMIN_CHAT_IDS: `${OPERATOR.id},${RU_OPERATOR.id}` });
});
afterAll(async () => {
  await w?.close();
});
afterEach(async () => {
  await settle(w, 50);
  expect(w.tg.refused.map((c) => `${c.method}: ${c.error}`)).toEqual([]);
});

async function linked(p: TestPartner, role: 'owner' | 'staff', language = 'en'): Promise<Chat> {
  const chat = w.chat(newUser(language));
  await w.link(chat.user, p.id, role);
  return chat;
}

const current = (m: BotMessage) => w.tg.messages.find((x) => x.message_id === m.message_id)!;
/** Every message the bot left in the chat, with buttons still on it. */
const withButtons = (chat: Chat) => chat.all.filter((m) => !m.deleted && m.buttons.length > 0);
const sessionRows = () => w.t.db.$client.prepare("select key, length(value) as n from bot_sessions where key like 'conversation:%'").all() as { key: string; n: number }[];

async function openGifts(chat: Chat, collection = 0): Promise<BotMessage> {
  await chat.say('/order');
  const products = await chat.expectMenu('What would you like to order?');
  await chat.press(products, button(products, 'Gift'));
  const cols = await chat.expectMenu('Choose a collection');
  await chat.press(cols, cols.buttons[collection][0].callback_data!);
  return chat.expectMenu('gifts from the cheapest (page 1 of 30)');
}

describe('bug 1: browsing a large gift collection', () => {
  it('when staff turn 29 pages to the last of 150 gifts and back, then the conversation stays small and the last gift can be ordered', async () => {
    const p = await w.t.newPartner({ ton: '50000.000' });
    const chat = await linked(p, 'staff');
    const page = await openGifts(chat);
    let stateAtPage2 = 0;
    for (let n = 2; n <= 30; n++) {
      await chat.press(current(page), button(current(page), 'Pricier'));
      await waitFor(() => current(page).text.includes(`(page ${n} of 30)`), `page ${n}`);
      if (n === 2) {
        await settle(w);
        stateAtPage2 = sessionRows().find((r) => r.key.endsWith(`:${chat.user.id}`))!.n;
      }
    }
    const last = current(page);
    expect(() => button(last, 'Pricier')).toThrow();
    // the most expensive gift of the collection is on it
    const col = (await p.call('GET', '/nft/collections')).body.items[0].collection;
    const desc = (await p.call('GET', `/nft/gifts?collection=${col}&sort=price_desc&limit=1`)).body.items[0];
    expect(last.text).toContain(`${desc.name} #${desc.num} — ${desc.partner_price} TON`);
    // page turns are not stored: the conversation state did not grow with them
    await settle(w);
    expect(sessionRows().find((r) => r.key.endsWith(`:${chat.user.id}`))!.n).toBe(stateAtPage2);
    // one more turn back and forth still works
    await chat.press(last, button(last, 'Cheaper'));
    await waitFor(() => current(page).text.includes('(page 29 of 30)'), 'page 29');
    await chat.press(current(page), button(current(page), 'Pricier'));
    await waitFor(() => current(page).text.includes('(page 30 of 30)'), 'page 30 again');
    const lastButton = current(page).buttons.at(-4)![0]; // the last gift, above paging, Back and Cancel
    expect(lastButton.text).toContain(desc.partner_price);
    await chat.press(current(page), lastButton.callback_data!);
    await chat.expect('Send the recipient');
    expect(current(page).text).toBe(`🎁 ${desc.name} #${desc.num}`);
    await chat.say('@pia_user');
    const confirm = await chat.expectMenu('Please check the order');
    expect(confirm.text).toContain(`Price: ${desc.partner_price} TON`);
    await chat.press(confirm, button(confirm, 'Confirm'));
    await chat.expect('accepted');
    expect(withButtons(chat)).toEqual([]);
  });

  it('when a conversation waits longer than 30 minutes of service clock, then it times out, says so, and its buttons go', async () => {
    const p = await w.t.newPartner();
    const chat = await linked(p, 'staff');
    const page = await openGifts(chat, 1);
    await w.t.advance(31 * 60);
    await chat.press(current(page), button(current(page), 'Pricier'));
    const m = await chat.expect('The unfinished order timed out after 30 minutes without an answer. Send /order to start again.');
    expect(m.buttons).toEqual([]);
    expect(withButtons(chat)).toEqual([]);
    await settle(w);
    expect(sessionRows().filter((r) => r.key.endsWith(`:${chat.user.id}`))).toEqual([]);
  });
});

describe('bug 2: every text in the user’s language', () => {
  it('when a Russian owner types a wrong amount, a wrong IP and a wrong URL, then every answer is Russian', async () => {
    const p = await w.t.newPartner();
    const owner = await linked(p, 'owner', 'ru');
    await owner.say('/topup');
    const topup = await owner.expectMenu('Как пополнить');
    await owner.press(topup, button(topup, 'USD'));
    await owner.expect('Сколько USD?');
    await owner.say('12.345');
    const bad = await owner.expect('Это не сумма');
    await owner.say('1');
    const below = await owner.expect('Сумма меньше минимального пополнения: не меньше 5.00 USD');
    await owner.say('/cancel');
    await owner.expect('Отменено.');

    await owner.say('/apikey');
    const key = await owner.expectMenu('Выпустить новый API-ключ?');
    await owner.press(key, button(key, 'списком IP'));
    await owner.expect('Отправьте разрешённые IP-адреса');
    await owner.say('10.0.0.1 nonsense');
    const ip = await owner.expect('«nonsense» — не IP-адрес');
    await owner.say('/cancel');

    await owner.say('/webhook');
    const hook = await owner.expectMenu('Вебхук');
    await owner.press(hook, button(hook, 'адрес'));
    await owner.say('ftp://example.com');
    const url = await owner.expect('Этот адрес нельзя использовать');
    await owner.say('/cancel');
    await owner.expect('Отменено.');
    for (const m of [bad, below, ip, url]) expect(m.text).not.toMatch(/must|amount|ip_whitelist|is not an|body|decimals/);
    for (const m of owner.all) expect(m.text).not.toMatch(/\b(the|is|must|not|and)\b/);
  });
});

describe('bug 3 and bug 6: operator alerts', () => {
  it('when two operators read one alert, then each reads it in their language; resolving rewrites it in that language; a stale press makes no failing call', async () => {
    const ru = w.chat(RU_OPERATOR);
    await ru.say('/help');
    await ru.expect('/reviews');
    const en = w.chat(OPERATOR);
    const p = await w.t.newPartner();
    const orderId = (await p.order('stars', { quantity: 50, recipient: 'unconfirmed_ivan' })).body.order_id as string;
    let alertRu: BotMessage | undefined;
    for (let i = 0; i < 40 && !alertRu; i++) {
      await w.t.advance(5);
      alertRu = ru.fresh.find((m) => m.text.includes(orderId));
    }
    const alertEn = await en.expect(`Manual review needed: order ${orderId}`);
    expect(alertRu!.text).toContain(`Нужна ручная проверка: заказ ${orderId}`);
    expect(alertRu!.text).not.toMatch(/Manual|review needed/);

    await ru.press(alertRu!, button(alertRu, 'Доставлен'));
    await waitFor(() => current(alertRu!).text.includes('отмечен доставленным'), 'the Russian alert resolved');
    expect(current(alertRu!).text).not.toMatch(/[A-Za-z]{4,} [a-z]{3,}/); // no English sentence in it
    expect(current(alertRu!).buttons).toEqual([]);

    // the English operator presses the stale alert: told, and the alert shows what happened
    await en.press(alertEn, button(alertEn, 'Refund'));
    await waitFor(() => current(alertEn).text.includes('Already resolved: status completed'), 'the English alert updated');
    expect(current(alertEn).buttons).toEqual([]);
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload.text).toBe('This order is no longer waiting for review.');
    // and once more on the message that has no buttons now: answered, no edit at all
    const edits = w.tg.callsOf('editMessageText').length + w.tg.callsOf('editMessageReplyMarkup').length;
    w.tg.press(OPERATOR, current(alertEn), `rv:r:${orderId}`);
    await settle(w);
    expect(w.tg.callsOf('editMessageText').length + w.tg.callsOf('editMessageReplyMarkup').length).toBe(edits);
    expect((await w.t.admin('GET', `/orders/${orderId}`)).body.status).toBe('completed');
  });
});

describe('bug 4: the first webhook save', () => {
  it('when the first address is saved, then the secret is shown without a word about a previous one; a regenerated one says the old stopped', async () => {
    const p = await w.t.newPartner();
    const owner = await linked(p, 'owner');
    await owner.say('/webhook');
    const menu = await owner.expectMenu('never saved');
    await owner.press(menu, button(menu, 'Set address'));
    await owner.say('https://hooks.example.com/first');
    const first = await owner.expect('Webhook secret');
    expect(first.text).not.toContain('previous secret');
    await owner.say('/webhook');
    const again = await owner.expectMenu('Webhook');
    await owner.press(again, button(again, 'New secret'));
    const second = await owner.expect('Webhook secret');
    expect(second.text).toContain('The previous secret no longer works.');
  });
});

describe('bug 5: no button outlives its conversation', () => {
  it('when top-up text is typed at the menu, then its buttons still work, and after the request none are left', async () => {
    const p = await w.t.newPartner();
    const owner = await linked(p, 'owner');
    await owner.say('/topup');
    const menu = await owner.expectMenu('How to top up');
    await owner.say('how long does it take?');
    await owner.expect('Please use the buttons above, or send /cancel to leave.');
    await owner.press(menu, button(menu, 'USD'));
    await owner.expect('How much USD?');
    await owner.say('25');
    await owner.expect('Send exactly');
    expect(withButtons(owner)).toEqual([]);
  });

  it('when a gift page is cancelled, or the order is left for another command, then no buttons are left', async () => {
    const p = await w.t.newPartner();
    const chat = await linked(p, 'owner');
    const page = await openGifts(chat, 2);
    await chat.press(page, button(page, 'Cancel'));
    await waitFor(() => current(page).text === 'Cancelled.', 'cancelled');
    expect(withButtons(chat)).toEqual([]);

    await chat.say('/order');
    await chat.expectMenu('What would you like to order?');
    await chat.say('/topup');
    await chat.expect('The unfinished order was left. Send /order to start again.');
    await chat.expectMenu('How to top up');
    expect(withButtons(chat).map((m) => m.text.slice(0, 12))).toEqual(['Balances: US']);
  });

  it('when a username is accepted, then the Cancel under its prompt goes; a finished order leaves no buttons', async () => {
    const p = await w.t.newPartner();
    const chat = await linked(p, 'staff');
    await chat.say('/order');
    const products = await chat.expectMenu('What would you like to order?');
    await chat.press(products, button(products, 'Premium'));
    const terms = await chat.expectMenu('Premium for how long?');
    await chat.press(terms, button(terms, '3 months'));
    const prompt = await chat.expectMenu('Send the recipient');
    await chat.say('rita_user');
    const confirm = await chat.expectMenu('Please check the order');
    expect(current(prompt).buttons).toEqual([]);
    await chat.press(confirm, button(confirm, 'Confirm'));
    await chat.expect('accepted');
    expect(withButtons(chat)).toEqual([]);
  });
});
