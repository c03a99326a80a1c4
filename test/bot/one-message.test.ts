import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEPOSIT_ADDRESSES } from '../../src/config/deposit-addresses.js';
import { button, waitFor, type BotMessage } from './fake-telegram.js';
import { newUser, OPERATOR, settle, World, type Chat } from './harness.js';

/**
 * One message per task: the bot's messages counted for a whole gift order (at most three: the steps, the
 * confirmation that becomes the result, the receipt), in English, Russian and a group; a /topup and a
 * deposit credit; /alerts; a typed /cancel edits the task's message instead of adding "Cancelled.".
 */
let w: World;
let n = 0;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

/** The bot's messages in a chat from `first` on that are still there (deleted ones are gone from the chat). */
const kept = (chat: Chat, first: BotMessage) => chat.all.filter((m) => m.message_id >= first.message_id && !m.deleted);
const sentTo = (chatId: number) => w.tg.callsOf('sendMessage').filter((c) => Number(c.payload.chat_id) === chatId).length;

async function giftOrder(chat: Chat, words: { gift: string; collections: string; page: RegExp; recipient: string; check: string; confirm: RegExp; done: string }, group = false) {
  const start = sentTo(chat.chatId);
  await chat.say('/order');
  const first = await chat.expectMenu(/What would you like|Что заказать/);
  await chat.press(first, button(first, words.gift));
  const cols = await chat.expectMenu(words.collections);
  expect(cols.message_id).toBe(first.message_id);
  await chat.press(cols, cols.buttons[0][0].callback_data!);
  const page = await chat.expectMenu(words.page);
  expect(page.message_id).toBe(first.message_id);
  await chat.press(page, page.buttons[0][0].callback_data!);
  const ask = await chat.expect(words.recipient);
  if (group) await chat.reply(ask, '@gina_user');
  else {
    expect(ask.message_id).toBe(first.message_id);
    await chat.say('@gina_user');
  }
  const confirm = await chat.expectMenu(words.check);
  const confirmText = confirm.text;
  await chat.press(confirm, button(confirm, words.confirm));
  const orderId = await waitFor(() => /PA-\d+/.exec(w.current(confirm).text)?.[0], 'accepted');
  for (let i = 0; i < 30 && !chat.all.some((m) => m.text.includes(`${orderId} ${words.done}`)); i++) await w.t.advance(5);
  await chat.expect(`${orderId} ${words.done}`);
  await settle(w);
  return { first, sent: sentTo(chat.chatId) - start, left: kept(chat, first), confirmText };
}

describe('one message per task', () => {
  it('a gift order in English: three messages (steps, confirmation → result, receipt)', async () => {
    const p = await w.t.newPartner();
    const chat = await w.linkedChat(p.id, 'staff', 'en');
    const r = await giftOrder(chat, { gift: 'Gift', collections: 'Choose a collection', page: /page 1 of/, recipient: 'Send the recipient', check: 'Please check the order', confirm: /Confirm/, done: 'completed' });
    expect(r.sent).toBe(3);
    expect(r.left).toHaveLength(3);
    // the confirmation says what happens to the money: debited now, back if the gift costs more
    expect(r.confirmText).toMatch(/as the maximum price: it is debited now, and if the gift costs more when it is bought, it is not bought and the whole [\d.]+ TON comes back\./);
    expect(r.confirmText).not.toMatch(/nothing is debited/i);
    expect(r.left[0].text).toMatch(/^🎁 .+ #\d+ → @gina_user$/);
    expect(r.left[2].text).toMatch(/^✅ Order PA-\d+ completed\ngift .+ #\d+ for @gina_user\nPaid: [\d,.]+ TON · balance after: [\d,.]+ TON\n🕒 .+ UTC\nGift page: https:\/\/t\.me\/nft\//);
    expect(w.tg.refused).toEqual([]);
  });

  it('a gift order in Russian: three messages', async () => {
    const p = await w.t.newPartner();
    const chat = await w.linkedChat(p.id, 'staff', 'ru');
    const r = await giftOrder(chat, { gift: 'Подарок', collections: 'Выберите коллекцию', page: /страница 1 из/, recipient: 'Отправьте имя пользователя', check: 'Проверьте заказ', confirm: /Подтвердить/, done: 'выполнен' });
    expect(r.sent).toBe(3);
    expect(r.confirmText).toContain('как максимальную цену: она списывается сейчас');
    expect(r.confirmText).not.toMatch(/ничего не спис/i);
    expect(r.left[2].text).toMatch(/^✅ Заказ PA-\d+ выполнен\nподарок .+ #\d+ для @gina_user\nОплачено: [\d\u00a0,]+ TON · баланс после: [\d\u00a0,]+ TON/);
  });

  it('a gift order in a group: three messages left there (the question takes the menu’s place), the receipt answering the result', async () => {
    const p = await w.t.newPartner();
    const user = newUser('en');
    await w.link(user, p.id, 'staff');
    const group = w.chat(user, -1_001_100);
    const r = await giftOrder(group, { gift: 'Gift', collections: 'Choose a collection', page: /page 1 of/, recipient: 'Send the recipient', check: 'Please check the order', confirm: /Confirm/, done: 'completed' }, true);
    expect(r.left).toHaveLength(3);
    expect(r.left[0].forceReply).toBeDefined();
    expect(r.left[2].replyTo).toBe(r.left[1].message_id);
  });

  it('/alerts: one message, a wrong threshold written in it; a typed /cancel edits the task’s message', async () => {
    const p = await w.t.newPartner();
    const owner = await w.linkedChat(p.id, 'owner', 'en');
    await owner.say('/alerts');
    const m = await owner.expectMenu('Low-balance alerts');
    await owner.press(m, button(m, 'Set USD'));
    await owner.expect('Send the USD threshold');
    await owner.say('1.234');
    await owner.expect('“1.234”: That is not a threshold');
    await owner.say('100');
    await waitFor(() => w.current(m).text.startsWith('Saved:'), 'saved');
    expect(kept(owner, m)).toHaveLength(1);

    await owner.say('/order');
    const o = await owner.expectMenu('What would you like');
    await owner.say('/cancel');
    await waitFor(() => w.current(o).text === '✖ Cancelled.', 'the order’s message says it');
    await settle(w);
    expect(kept(owner, m).map((x) => x.message_id)).toEqual([m.message_id, o.message_id]);

    // in Russian, and a command that leaves the task says so in its message too
    const ru = await w.linkedChat(p.id, 'owner', 'ru');
    await ru.say('/order');
    const ro = await ru.expectMenu('Что заказать');
    await ru.say('/alerts');
    await ru.expectMenu('Оповещения о низком балансе');
    expect(w.current(ro).text).toBe('Незавершённое действие (заказ) прервано. Чтобы начать заново, отправьте /order.');
    expect(kept(ru, ro)).toHaveLength(2);
  });

  it('a deposit credit: the operator’s card and one message for the whole credit; the owner one message, the request’s own message marked paid', async () => {
    const p = await w.t.newPartner();
    const owner = await w.linkedChat(p.id, 'owner', 'en');
    await owner.say('/topup');
    const list = await owner.expectMenu('Which balance');
    await owner.press(list, button(list, 'USD (pay in USDT)'));
    const nets = await owner.expectMenu('On which network');
    await owner.press(nets, button(nets, 'TRC-20'));
    await owner.expect('How much USD?');
    await owner.say('30');
    const toSend = /Send exactly <code>(\d+\.\d\d)<\/code>/.exec((await owner.expect('Send exactly')).text)![1];
    // one /topup: one message
    expect(kept(owner, list)).toHaveLength(1);

    // a transfer of another amount reaches support; the operator credits it to the partner, which settles
    // the request it was meant for
    const op = w.chat(OPERATOR);
    await op.say('/help');
    await op.expect('Operator:');
    await settle(w);
    const ownerBefore = owner.all.length;
    const d = await w.t.admin('POST', '/sandbox/deposits', { network: 'trc20', asset: 'USDT', amount: '31.00', to: SANDBOX_DEPOSIT_ADDRESSES.DEPOSIT_ADDRESS_USDT_TRC20, tx_hash: `one-${process.pid}-${++n}` });
    expect(d.body.status).toBe('unmatched');
    const card = await op.expectMenu('31.00 USDT');
    await op.press(card, button(card, 'Credit to partner'));
    const ask = await op.expect('to which partner?');
    await op.say(String(p.id));
    const matches = await op.expectMenu('Partners matching');
    await op.press(matches, matches.buttons[0][0].callback_data!);
    const sure = await op.expectMenu('Credit 31.00 USDT');
    await op.press(sure, button(sure, 'Yes, credit'));
    await waitFor(() => w.current(ask).text.startsWith('✅ Deposit'), 'credited');
    await settle(w);
    // the operator: the card and the one message of the credit
    expect(kept(op, card).map((x) => x.message_id)).toEqual([card.message_id, ask.message_id]);
    // the owner: the request's message reads paid, and one notice answers it
    await waitFor(() => w.current(list).text.startsWith('✅ Paid'), 'paid');
    expect(w.current(list).text).toBe(`✅ Paid: the top-up request for ${toSend} USDT was credited, +31.00 USD on the balance.`);
    const notice = await owner.expect('Top-up credited: 31.00 USD');
    expect(notice.replyTo).toBe(list.message_id);
    expect(owner.all.length - ownerBefore).toBe(1);
  });
});
