import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, type BotMessage } from './fake-telegram.js';
import { labels, newUser, settle, World, type Chat } from './harness.js';

/**
 * The bot in a group chat: owner secrets (the API key, the webhook secret, the dashboard sign-in link) never
 * reach the group, only a button opening the private chat whose deep link lands in the same flow; typed
 * answers are asked for with force_reply, since under privacy mode only replies reach the bot there.
 */

let w: World;
let nextGroup = -1_000_100;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

/** A linked person (linked in their private chat, as invites are) and their view of a group chat. */
async function inGroup(partnerId: number, role: 'owner' | 'staff', language = 'en', groupId = nextGroup--): Promise<{ dm: Chat; group: Chat }> {
  const user = newUser(language);
  await w.link(user, partnerId, role);
  return { dm: w.chat(user), group: w.chat(user, groupId) };
}

const SECRET = /pk_live_|whsec_|signin=/;
/** Everything a group ever got: texts (every version) and button links. */
const seenIn = (chatId: number) => w.tg.to(chatId).flatMap((m) => [...m.history, ...m.buttons.flat().map((b) => b.url ?? b.callback_data ?? '')]);

const privateButton = (m: BotMessage) => m.buttons.flat();

describe('owner secrets in a group chat', () => {
  it('/apikey in a group offers the private chat only; its deep link starts the key flow there and the key is shown there', async () => {
    const p = await w.t.newPartner();
    const { dm, group } = await inGroup(p.id, 'owner');
    await group.say('/apikey@partner_test_bot');
    const offer = await group.expect('shown only in a private chat');
    expect(offer.text).toBe('An API key is shown only in a private chat with the owner. Tap the button to continue there.');
    expect(privateButton(offer)).toEqual([{ text: '🔒 Continue in a private chat', url: 'https://t.me/partner_test_bot?start=apikey' }]);
    await settle(w);
    expect(group.fresh).toHaveLength(1);
    // nothing was issued: the partner's key still works
    expect((await p.call('GET', '/me')).status).toBe(200);

    // the deep link: Telegram sends /start apikey in the private chat
    await dm.say('/start apikey');
    const menu = await dm.expectMenu('Issue a new API key');
    await dm.press(menu, button(menu, 'without IP limit'));
    const sure = await dm.expectMenu('Replace the API key?');
    await dm.press(sure, button(sure, 'Yes, replace'));
    const shown = await dm.expect('New API key');
    const key = /pk_live_[A-Za-z0-9_-]+/.exec(shown.text)![0];
    expect((await w.t.partnerCall(key, 'GET', '/me')).status).toBe(200);
    expect(seenIn(group.chatId).some((s) => SECRET.test(s))).toBe(false);
  });

  it('/webhook in a group offers the private chat; /start webhook opens the webhook menu there, and a new secret is shown there only', async () => {
    const p = await w.t.newPartner();
    const { dm, group } = await inGroup(p.id, 'owner');
    await group.say('/webhook');
    const offer = await group.expect('webhook settings show its secret');
    expect(privateButton(offer)).toEqual([{ text: '🔒 Continue in a private chat', url: 'https://t.me/partner_test_bot?start=webhook' }]);
    await dm.say('/start webhook');
    const menu = await dm.expectMenu('Webhook (order outcome notifications');
    await dm.press(menu, button(menu, 'Set address'));
    await dm.expect('Send the webhook address');
    await dm.say('https://hooks.example.com/pos');
    const saved = await dm.expect('Saved. Address: https://hooks.example.com/pos');
    expect(saved.text).toMatch(/whsec_[0-9a-f]+/);
    await settle(w);
    expect(seenIn(group.chatId).some((s) => SECRET.test(s))).toBe(false);
  });

  it('/app in a group makes no sign-in link; /start app in the private chat gives it', async () => {
    const p = await w.t.newPartner();
    const { dm, group } = await inGroup(p.id, 'staff');
    const links = () => (w.t.db.$client.prepare("select count(*) as n from audit_log where action = 'app.signin_link' and actor = ?").get(`telegram:${dm.user.id}`) as { n: number }).n;
    await group.say('/app');
    const offer = await group.expect('sign-in link is personal');
    expect(privateButton(offer)).toEqual([{ text: '🔒 Continue in a private chat', url: 'https://t.me/partner_test_bot?start=app' }]);
    await settle(w);
    expect(links()).toBe(0);
    await dm.say('/start app');
    const m = await dm.expect('/app/#signin=');
    expect(m.text).toContain('The partner dashboard');
    expect(links()).toBe(1);
    expect(seenIn(group.chatId).some((s) => SECRET.test(s))).toBe(false);
  });

  it('in Russian: the same offer in Russian words', async () => {
    const p = await w.t.newPartner();
    const { group } = await inGroup(p.id, 'owner', 'ru');
    await group.say('/apikey');
    const offer = await group.expect('API-ключ показывается только в личном чате с владельцем');
    expect(privateButton(offer)).toEqual([{ text: '🔒 Продолжить в личном чате', url: 'https://t.me/partner_test_bot?start=apikey' }]);
    await group.say('/app');
    const app = await group.expect('Ссылка для входа в кабинет личная');
    expect(labels(app)).toEqual(['🔒 Продолжить в личном чате']);
  });

  it('staff get the owners-only refusal in a group and from the deep link; strangers get the explanation', async () => {
    const p = await w.t.newPartner();
    const { dm, group } = await inGroup(p.id, 'staff');
    await group.say('/apikey');
    const refused = await group.expect('Only the account owner');
    expect(refused.buttons).toEqual([]);
    await dm.say('/start webhook');
    await dm.expect('Only the account owner');
    const stranger = w.chat(newUser());
    await stranger.say('/start apikey');
    await stranger.expect('open the invite link');
    await settle(w);
    expect((await p.call('GET', '/me')).status).toBe(200);
  });

  it('/apikey typed in a group during an order there does not end the order', async () => {
    const p = await w.t.newPartner();
    const { group } = await inGroup(p.id, 'owner');
    await group.say('/order');
    const products = await group.expectMenu('What would you like to order?');
    await group.say('/apikey');
    await group.expect('shown only in a private chat');
    await group.press(products, button(products, 'Stars'));
    await group.expectMenu('How many stars?');
  });
});

describe('typed answers in a group chat', () => {
  it('an order in a group: each question comes with force_reply naming the person, only replies reach the bot, a wrong answer asks again the same way', async () => {
    const p = await w.t.newPartner();
    const { group } = await inGroup(p.id, 'staff');
    await group.say('/order');
    const products = await group.expectMenu('What would you like to order?');
    await group.press(products, button(products, 'Stars'));
    const amounts = await group.expectMenu('How many stars?');
    await group.press(amounts, button(amounts, 'Other amount'));
    const ask = await group.expect('send the number of stars');
    expect(ask.forceReply).toEqual({ force_reply: true, selective: true });
    expect(ask.buttons).toEqual([]);
    expect(ask.parse_mode).toBe('HTML');
    expect(ask.text).toBe(
      `<a href="tg://user?id=${group.user.id}">${group.user.first_name}</a>, send the number of stars, a whole number from 50 to 50,000.\n\n↩️ Reply to this message with your answer (/cancel to stop).`,
    );
    // a plain message never reaches the bot (privacy mode): nothing happens
    await group.say('150');
    await settle(w);
    expect(w.tg.withheld).toContainEqual({ chatId: group.chatId, text: '150' });
    expect(group.fresh).toEqual([]);
    // a reply does; a wrong one is explained with force_reply again
    await group.reply(ask, '10');
    const again = await group.expect('At least 50 stars can be ordered: send a number from 50 to 50,000');
    expect(again.forceReply).toEqual({ force_reply: true, selective: true });
    await group.reply(again, '150');
    const who = await group.expect('Send the recipient’s Telegram username');
    expect(who.forceReply).toEqual({ force_reply: true, selective: true });
    await group.reply(who, '@alice_user');
    const confirm = await group.expectMenu('Please check the order');
    expect(confirm.text).toContain('150 stars for @alice_user');
    await group.press(confirm, button(confirm, 'Confirm'));
    await group.expect('accepted');
    expect((await p.call('GET', '/orders')).body.items).toHaveLength(1);
    // fewer messages in a group too: the amounts in the message of the products, each question in place of
    // the step before (which it repeats), the last one folded, the confirmation turned into the result
    expect(amounts.message_id).toBe(products.message_id);
    expect(who.history[0]).toContain('⭐ Stars: 150\n\nSend the recipient’s Telegram username');
    expect(w.current(who).text).toBe('⭐ Stars: 150 → @alice_user');
    expect(w.current(confirm).text).toMatch(/^✅ Order PA-\d+ accepted: 150 stars for @alice_user/);
    const left = group.all.filter((m) => m.message_id >= products.message_id && !m.deleted).map((m) => m.message_id);
    expect(left).toEqual([who.message_id, confirm.message_id]);
    expect(w.tg.refused).toEqual([]);
  });

  for (const lang of ['en', 'ru'] as const) {
    it(`an amount chosen by a button in a group (${lang}): the question takes the place of its message and says what was chosen`, async () => {
      const words = lang === 'en'
        ? { products: 'What would you like to order?', stars: 'Stars', amounts: 'How many stars?', chosen: '⭐ Stars: 100', ask: 'Send the recipient’s Telegram username (for example @username).', hint: '↩️ Reply to this message with your answer (/cancel to stop).' }
        : { products: 'Что заказать?', stars: 'Звёзды', amounts: 'Сколько звёзд?', chosen: '⭐ Звёзды: 100', ask: 'Отправьте имя пользователя получателя в Telegram (например, @username).', hint: '↩️ Ответьте на это сообщение (/cancel — отменить).' };
      const p = await w.t.newPartner();
      const { group } = await inGroup(p.id, 'staff', lang);
      await group.say('/order');
      const products = await group.expectMenu(words.products);
      await group.press(products, button(products, words.stars));
      const amounts = await group.expectMenu(words.amounts);
      expect(amounts.message_id).toBe(products.message_id);
      await group.press(amounts, button(amounts, /^100$/));
      const who = await group.expect(words.ask);
      expect(who.forceReply).toEqual({ force_reply: true, selective: true });
      expect(who.text).toBe(`<a href="tg://user?id=${group.user.id}">${group.user.first_name}</a>, ${words.chosen}\n\n${words.ask}\n\n${words.hint}`);
      // the amounts' message goes: the question says what was chosen
      expect(w.current(products).deleted).toBe(true);
      await group.reply(who, '@alice_user');
      await group.expectMenu(lang === 'en' ? 'Please check the order' : 'Проверьте заказ');
      expect(w.current(who).text).toBe(`${words.chosen} → @alice_user`);
    });
  }

  it('a top-up amount in a group, in Russian: the question and the hint in Russian, answered by a reply', async () => {
    const p = await w.t.newPartner();
    const { group } = await inGroup(p.id, 'owner', 'ru');
    await group.say('/topup');
    const m = await group.expectMenu('Какой баланс пополнить');
    await group.press(m, button(m, 'USD (оплата в USDT)'));
    const nets = await group.expectMenu('В какой сети');
    await group.press(nets, button(nets, 'TRC-20'));
    const ask = await group.expect('Сколько USD?');
    expect(ask.forceReply).toEqual({ force_reply: true, selective: true });
    expect(ask.text).toContain('↩️ Ответьте на это сообщение (/cancel — отменить).');
    await group.reply(ask, '25');
    await group.expect('Отправьте ровно');
  });

  it('in a private chat the questions keep their Back and Cancel buttons and no force_reply', async () => {
    const p = await w.t.newPartner();
    const { dm } = await inGroup(p.id, 'staff');
    await dm.say('/order');
    const products = await dm.expectMenu('What would you like to order?');
    await dm.press(products, button(products, 'Stars'));
    const amounts = await dm.expectMenu('How many stars?');
    await dm.press(amounts, button(amounts, 'Other amount'));
    const ask = await dm.expectMenu('Send the number of stars');
    expect(ask.forceReply).toBeUndefined();
    expect(ask.text).toBe('Send the number of stars, a whole number from 50 to 50,000.');
    expect(labels(ask)).toEqual(['◀ Back', '✖ Cancel']);
  });
});
