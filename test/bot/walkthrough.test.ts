import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestPartner } from '../helpers.js';
import { button, waitFor, type BotMessage, type TgUser } from './fake-telegram.js';
import { newUser, OPERATOR, settle, shortNumber, World, type Chat } from './harness.js';

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

const linked = (p: TestPartner, role: 'owner' | 'staff', language = 'en'): Promise<Chat> => w.linkedChat(p.id, role, language);
const current = (m: BotMessage) => w.current(m);
/** Every message the bot left in the chat, with buttons still on it. */
// buttons that act in the bot (links and copy buttons under a top-up are not a conversation's)
const withButtons = (chat: Chat) => chat.all.filter((m) => !m.deleted && m.buttons.flat().some((b) => b.callback_data !== undefined));
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
    const shown = Number(desc.partner_price).toLocaleString('en-US', { minimumFractionDigits: 3 }); // with thousands separators
    expect(last.text).toContain(`${desc.name} #${desc.num} — ${shown} TON`);
    // page turns are not stored: the conversation state did not grow with them
    await settle(w);
    expect(sessionRows().find((r) => r.key.endsWith(`:${chat.user.id}`))!.n).toBe(stateAtPage2);
    // one more turn back and forth still works
    await chat.press(last, button(last, 'Cheaper'));
    await waitFor(() => current(page).text.includes('(page 29 of 30)'), 'page 29');
    await chat.press(current(page), button(current(page), 'Pricier'));
    await waitFor(() => current(page).text.includes('(page 30 of 30)'), 'page 30 again');
    const lastButton = current(page).buttons.at(-5)![0]; // the last gift, above paging, the filter row, Back and Cancel
    expect(lastButton.text).toContain(shown);
    await chat.press(current(page), lastButton.callback_data!);
    await chat.expect('Send the recipient');
    expect(current(page).text).toBe(`🎁 ${desc.name} #${desc.num}\n\nSend the recipient’s Telegram username (for example @username).`);
    await chat.say('@pia_user');
    const confirm = await chat.expectMenu('Please check the order');
    expect(current(page).text).toBe(`🎁 ${desc.name} #${desc.num} → @pia_user`);
    expect(confirm.text).toContain(`Price: ${shown} TON`);
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
    // the tapped menu says it, and the toast: no second message with the same words
    expect(m.message_id).toBe(page.message_id);
    expect(chat.fresh).toEqual([]);
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload.text).toBe('The unfinished order timed out after 30 minutes without an answer. Send /order to start again.');
    expect(sessionRows().filter((r) => r.key.endsWith(`:${chat.user.id}`))).toEqual([]);
  });
});

describe('bug 2: every text in the user’s language', () => {
  it('when a Russian owner types a wrong amount, a wrong IP and a wrong URL, then every answer is Russian', async () => {
    const p = await w.t.newPartner();
    const owner = await linked(p, 'owner', 'ru');
    await owner.say('/topup');
    const topup = await owner.expectMenu('Какой баланс пополнить');
    await owner.press(topup, button(topup, 'USD'));
    const nets = await owner.expectMenu('В какой сети');
    await owner.press(nets, button(nets, 'TRC-20'));
    const much = await owner.expect('Сколько USD?');
    expect(much.text).toContain('не меньше 5,00');
    await owner.say('12.345');
    const bad = await owner.expect('Это не сумма');
    expect(bad.text).toContain('25 или 25,50 (не больше 2 знаков после запятой)');
    await owner.say('1');
    const below = await owner.expect('Сумма меньше минимального пополнения: не меньше 5,00 USD');
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

    expect(alertRu!.text).toContain('партнёра «Test partner».'); // its name, no number
    expect(alertEn.text).toContain('of partner “Test partner”.');
    expect(alertEn.text).toContain('Where it stopped: the stars were sent, the delivery was never confirmed.');
    // Deliver asks first; No brings the alert back as it was
    await en.press(alertEn, button(alertEn, 'Deliver'));
    await waitFor(() => current(alertEn).text.includes('Mark this order delivered'), `are you sure: ${JSON.stringify(current(alertEn))} ${JSON.stringify(w.tg.refused)}`);
    await en.press(current(alertEn), button(current(alertEn), 'No'));
    await waitFor(() => current(alertEn).text === alertEn.text && current(alertEn).buttons.length === 1, 'the alert back');
    expect((await w.t.admin('GET', `/orders/${orderId}`)).body.review).not.toBeNull();
    await ru.press(alertRu!, button(alertRu, 'Доставлен'));
    await waitFor(() => current(alertRu!).text.includes('Отметить заказ доставленным'), 'уверены?');
    await ru.press(current(alertRu!), button(current(alertRu!), 'Да, доставлен'));
    await waitFor(() => current(alertRu!).text.includes('Отмечен доставленным'), 'the Russian alert resolved');
    const who = RU_OPERATOR.first_name;
    expect(current(alertRu!).text.replace('Test partner', '').replace(who, '')).not.toMatch(/[A-Za-z]{4,} [a-z]{3,}/); // no English sentence in it (names are data)
    expect(current(alertRu!).buttons).toEqual([]);

    // the English operator's alert says it too, in English, without buttons
    await waitFor(() => current(alertEn).buttons.length === 0, 'the English alert settled');
    expect(current(alertEn).text).toMatch(new RegExp(`✅ Marked delivered by ${who}, .+ UTC\\.$`));
    // a stale press (a client that had not refreshed) is told by whom; no edit at all, nothing changes
    const edits = w.tg.callsOf('editMessageText').length + w.tg.callsOf('editMessageReplyMarkup').length;
    w.tg.press(OPERATOR, current(alertEn), `rv:r:${orderId}`);
    await settle(w);
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload.text).toMatch(new RegExp(`^Nothing changed: this was already handled\\. ✅ Marked delivered by ${who}`));
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
    const sure = await owner.expectMenu('Replace the webhook secret?');
    await owner.press(sure, button(sure, 'Yes, replace'));
    const second = await owner.expect('Webhook secret');
    expect(second.text).toContain('The previous secret no longer works.');
  });
});

describe('bug 5: no button outlives its conversation', () => {
  it('when top-up text is typed at the menu, then its buttons still work, and after the request none are left', async () => {
    const p = await w.t.newPartner();
    const owner = await linked(p, 'owner');
    await owner.say('/topup');
    const menu = await owner.expectMenu('Which balance');
    await owner.say('how long does it take?');
    await owner.expect('Please use the buttons above, or send /cancel to leave.');
    await owner.press(menu, button(menu, 'USD'));
    const nets = await owner.expectMenu('On which network');
    await owner.press(nets, button(nets, 'on TON'));
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
    await waitFor(() => current(page).text === '✖ Cancelled.', 'cancelled');
    expect(withButtons(chat)).toEqual([]);

    await chat.say('/order');
    await chat.expectMenu('What would you like to order?');
    await chat.say('/topup');
    await chat.expect('The unfinished order was left. Send /order to start again.');
    await chat.expectMenu('Which balance');
    expect(withButtons(chat).map((m) => m.text.split('\n')[0])).toEqual(['💰 Top up']);
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

describe('clumsy steps of /order and /topup', () => {
  it('when a username is wrong again and again, then it may be corrected as often as needed; Back returns to the previous step', async () => {
    const p = await w.t.newPartner();
    const chat = await linked(p, 'staff');
    await chat.say('/order');
    const products = await chat.expectMenu('What would you like to order?');
    expect(() => button(products, 'Back')).toThrow(); // the first step has none
    await chat.press(products, button(products, 'Stars'));
    const amounts = await chat.expectMenu('How many stars?');
    await chat.press(amounts, button(amounts, /^100$/));
    const prompt = await chat.expectMenu('Send the recipient');
    for (let i = 0; i < 5; i++) {
      await chat.say(`@ghost_${i}abc`);
      await chat.expect('No such Telegram user');
    }
    // Back from the recipient goes to the amount, Back from there to the product
    await chat.press(current(prompt), button(current(prompt), 'Back'));
    const amounts2 = await chat.expectMenu('How many stars?');
    expect(amounts2.message_id).toBe(prompt.message_id); // in the same message
    await chat.press(amounts2, button(amounts2, 'Back'));
    const products2 = await chat.expectMenu('What would you like to order?');
    await chat.press(products2, button(products2, 'Premium'));
    const terms = await chat.expectMenu('Premium for how long?');
    await chat.press(terms, button(terms, '12 months'));
    await chat.expect('Send the recipient');
    await chat.say('sam_user');
    const confirm = await chat.expectMenu('Please check the order');
    expect(confirm.text).toContain('Premium for 12 months for @sam_user');
    // Back from the confirmation asks for the recipient again
    await chat.press(confirm, button(confirm, 'Back'));
    await chat.expectMenu('Send the recipient');
    await chat.say('tom_user');
    const confirm2 = await chat.expectMenu('Please check the order');
    expect(confirm2.text).toContain('for @tom_user');
    await chat.press(confirm2, button(confirm2, 'Confirm'));
    await chat.expect('accepted');
    expect((await p.call('GET', '/orders')).body.items).toHaveLength(1);
    expect(withButtons(chat)).toEqual([]);
  });

  it('a command in the middle is answered and the order goes on; one the user may not use leaves nothing; /order again starts over', async () => {
    const p = await w.t.newPartner();
    const chat = await linked(p, 'staff');
    await chat.say('/order');
    const products = await chat.expectMenu('What would you like to order?');
    await chat.say('how long does delivery take?');
    await chat.expect('Please use the buttons above, or send /cancel to leave.');
    await chat.press(products, button(products, 'Stars'));
    const amounts = await chat.expectMenu('How many stars?');
    await chat.press(amounts, button(amounts, /^50$/));
    await chat.expect('Send the recipient');
    // staff may not top up: refused, and the order is not lost
    await chat.say('/topup');
    await chat.expect('Only the account owner can do this.');
    await chat.say('/balance');
    await chat.expect('Balances:');
    await chat.say('xena_user');
    await chat.expectMenu('Please check the order');
    // /order again: the unfinished one is left and a new one starts at once
    await chat.say('/order');
    await chat.expect('The unfinished order was left; starting again.');
    await chat.expectMenu('What would you like to order?');
    expect(withButtons(chat).map((m) => m.text)).toEqual(['What would you like to order?']);
    await chat.say('/cancel');
    await chat.expect('Cancelled.');
    expect(withButtons(chat)).toEqual([]);
  });

  it('gift pages: Back to the collections; what the balance cannot pay is marked', async () => {
    const p = await w.t.newPartner({ ton: '600.000' });
    const chat = await linked(p, 'staff');
    const page = await openGifts(chat, 0); // Plush Pepe: from about 580 TON
    expect(page.text).toMatch(/— 5\d\d\.\d{3} TON\n/);
    expect(page.text).toMatch(/— 6\d\d\.\d{3} TON 🔒/);
    expect(page.text).toContain('🔒 above your TON balance (600.000 TON)');
    // a gift out of reach answers with a toast naming both amounts, and walks on to nothing
    const locked = page.buttons.flat().find((b) => b.text.includes('🔒'))!;
    const lockedPrice = /· (\d+\.\d{3}) TON 🔒/.exec(locked.text)![1];
    await chat.press(page, locked.callback_data!);
    await settle(w);
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload.text).toBe(
      `🔒 Not enough TON: 600.000 of ${lockedPrice}. Top up the TON balance (the account owner: /topup), or choose a cheaper gift.`,
    );
    expect(chat.fresh).toEqual([]);
    // one it can pay goes on to the recipient and the confirmation
    const open = page.buttons.flat().find((b) => / TON$/.test(b.text))!;
    await chat.press(page, open.callback_data!);
    await chat.expect('Send the recipient');
    await chat.say('zora_user');
    const short = await chat.expectMenu('Please check the order');
    // Back twice: the recipient, then the same gift page
    await chat.press(short, button(short, 'Back'));
    const again = await chat.expectMenu('Send the recipient');
    await chat.press(again, button(again, 'Back'));
    await chat.expectMenu('Plush Pepe: gifts from the cheapest (page 1 of 30)');
    const pageAgain = withButtons(chat).at(-1)!;
    await chat.press(pageAgain, button(pageAgain, 'Back'));
    const cols = await chat.expectMenu('Choose a collection');
    await chat.press(cols, cols.buttons[4][0].callback_data!);
    const cakes = await chat.expectMenu('Homemade Cake: gifts from the cheapest');
    expect(cakes.text).not.toContain('🔒');
    await chat.say('/cancel');
    await chat.expect('Cancelled.');
  });

  it('when the gift price moves up before ✅, then buying at the new price is offered', async () => {
    const p = await w.t.newPartner();
    const chat = await linked(p, 'staff');
    const page = await openGifts(chat, 4);
    const first = page.buttons[0][0];
    // the cheapest gift of the collection is the first button
    const col = (await p.call('GET', '/nft/collections')).body.items[4].collection;
    const gift = (await p.call('GET', `/nft/gifts?collection=${col}&limit=1`)).body.items[0].gift as string;
    await chat.press(page, first.callback_data!);
    await chat.expect('Send the recipient');
    await chat.say('uma_user');
    const confirm = await chat.expectMenu('Please check the order');
    const was = /Price: (\d+\.\d{3}) TON/.exec(confirm.text)![1];
    expect((await w.t.admin('PUT', `/sandbox/gifts/${gift}`, { price_ton: '9.000' })).status).toBe(200);
    await chat.press(confirm, button(confirm, 'Confirm'));
    const offer = await chat.expectMenu('went up from');
    expect(offer.text).toContain(`The price of this gift went up from ${was} to`);
    expect(offer.text).toContain('Nothing was debited.');
    const now = /Price: (\d+\.\d{3}) TON/.exec(offer.text)![1];
    expect(Number(now)).toBeGreaterThan(Number(was));
    await chat.press(offer, button(offer, 'Buy at today’s price'));
    await chat.expect('accepted');
    const orders = (await p.call('GET', '/orders')).body.items;
    expect(orders).toHaveLength(1);
    expect(orders[0].partner_price).toBe(now);
    expect(withButtons(chat)).toEqual([]);
  });

  it('when the operator switches a product off, then /order does not offer it', async () => {
    const p = await w.t.newPartner();
    const chat = await linked(p, 'staff');
    expect((await w.t.admin('PUT', '/settings', { products: { premium: { enabled: false } } })).status).toBe(200);
    try {
      await chat.say('/order');
      const products = await chat.expectMenu('What would you like to order?');
      expect(products.buttons[0].map((b) => b.text)).toEqual(['⭐ Stars', '🎁 Gift']);
      await chat.say('/cancel');
      await chat.expect('Cancelled.');
    } finally {
      await w.t.admin('PUT', '/settings', { products: { premium: { enabled: true } } });
    }
  });

  it('/topup: Back from the amount returns to the currencies', async () => {
    const p = await w.t.newPartner();
    const owner = await linked(p, 'owner');
    await owner.say('/topup');
    const menu = await owner.expectMenu('Which balance');
    await owner.press(menu, button(menu, 'TON'));
    const ask = await owner.expectMenu('How much TON?');
    await owner.press(ask, button(ask, 'Back'));
    const again = await owner.expectMenu('Which balance');
    await owner.press(again, button(again, 'USD'));
    const nets = await owner.expectMenu('On which network');
    await owner.press(nets, button(nets, 'BEP-20'));
    await owner.expect('How much USD?');
    await owner.say('30');
    await owner.expect('Send exactly');
    expect(withButtons(owner)).toEqual([]);
  });
});

describe('command menus per scope', () => {
  const scoped = (chatId: number) => w.tg.callsOf('setMyCommands').filter((c) => c.payload.scope?.chat_id === chatId);
  const names = (c: { payload: Record<string, any> }) => (c.payload.commands as { command: string }[]).map((x) => x.command);

  it('strangers, staff, owners and operators each see only their commands, in their language', async () => {
    const defaults = w.tg.callsOf('setMyCommands').filter((c) => !c.payload.scope);
    expect(defaults.map(names)).toEqual([
      ['start', 'help'],
      ['start', 'help'],
    ]);
    expect(defaults[1].payload.language_code).toBe('ru');
    expect(defaults[1].payload.commands[0].description).toBe('Привязать аккаунт по коду приглашения');
    // the operators' chats got theirs at start-up
    expect(names(scoped(OPERATOR.id)[0])).toEqual(['reviews', 'deposits', 'cancel', 'help']);

    const p = await w.t.newPartner();
    const staff = await linked(p, 'staff', 'ru');
    const owner = await linked(p, 'owner');
    await settle(w);
    const staffMenu = scoped(staff.user.id).at(-1)!;
    expect(staffMenu.payload.scope).toEqual({ type: 'chat', chat_id: staff.user.id });
    expect(names(staffMenu)).toEqual(['order', 'orders', 'balance', 'status', 'app', 'notices', 'cancel', 'help']);
    expect(staffMenu.payload.commands[0].description).toBe('Новый заказ: звёзды, Premium или подарок');
    expect(names(scoped(owner.user.id).at(-1)!)).toEqual(['order', 'orders', 'balance', 'status', 'app', 'notices', 'topup', 'apikey', 'webhook', 'alerts', 'team', 'cancel', 'help']);
    // set once: more messages do not set it again
    await owner.say('/balance');
    await owner.expect('Balances:');
    await settle(w);
    expect(scoped(owner.user.id)).toHaveLength(1);

    // the operator's /help has no empty first line
    const op = w.chat(OPERATOR);
    await op.say('/help');
    const help = await op.expect('/reviews');
    expect(help.text).toBe('Operator:\n/reviews — orders waiting for manual review\n/deposits — deposits not credited automatically\n/cancel — cancel the current action');
  });
});

describe('/start and /help', () => {
  it('start with their first line, for every role and language', async () => {
    const p = await w.t.newPartner();
    const ownerRu = w.chat(newUser('ru'));
    const inv = await w.t.admin('POST', `/partners/${p.id}/invites`, { role: 'owner' });
    await ownerRu.say(`/start ${inv.body.code}`);
    const linkedMsg = await ownerRu.expect('Готово');
    expect(linkedMsg.text.split('\n')[0]).toBe('Готово: аккаунт привязан к партнёру «Test partner», роль — владелец.');
    const staff = await linked(p, 'staff');
    // the owner hears who joined (before the commands below, so that it is not taken for their answer)
    await ownerRu.expect(`👋 ${staff.user.first_name} теперь в команде «Test partner»: сотрудник.`);
    const stranger = w.chat(newUser());
    const cases: [Chat, string, string][] = [
      [ownerRu, '/help', 'Ваша роль — владелец. Команды:'],
      [ownerRu, '/start', 'Ваша роль — владелец. Команды:'],
      [staff, '/help', 'You are linked as staff. Commands:'],
      [staff, '/start', 'You are linked as staff. Commands:'],
      [stranger, '/start', 'This bot serves partners of the ordering service.'],
      [w.chat(RU_OPERATOR), '/start', 'Оператор:'],
    ];
    for (const [chat, cmd, first] of cases) {
      await chat.say(cmd);
      const m = await waitFor(() => chat.fresh[0], `${cmd} answered`);
      expect(m.text.startsWith(first), m.text).toBe(true);
      expect(m.text.split('\n')[0].trim()).not.toBe('');
    }
    const help = ownerRu.fresh[0].text;
    expect(help).toContain('/notices — какие уведомления получать в этом чате');
    expect(help).toContain('/app — кабинет');
  });
});

describe('what orders tell their people', () => {
  it('a refunded failure is one message with the reason in words and the next step; /orders lists each order once (product, recipient, time) with a numbered button; a delivered gift links its page', async () => {
    const p = await w.t.newPartner();
    const owner = await linked(p, 'owner');
    const failed = (await p.order('stars', { quantity: 50, recipient: 'failstars_ann' })).body.order_id as string;
    for (let i = 0; i < 20 && !owner.all.some((m) => m.text.includes(failed)); i++) await w.t.advance(5);
    await settle(w);
    const about = owner.all.filter((m) => m.text.includes(failed));
    expect(about).toHaveLength(1);
    // in English words only, with the refund and the balance after it
    expect(about[0].text).toContain(`❌ Order ${failed} failed and was refunded\n50 stars for @failstars_ann\n`);
    expect(about[0].text).not.toMatch(/[а-яё]/i);
    expect(about[0].text).toContain('Why: the stars could not be delivered');
    expect(about[0].text).toContain('Refunded: 0.79 USD · balance after: 1,000.00 USD\nYou can try again with /order');

    const col = (await p.call('GET', '/nft/collections')).body.items[4].collection;
    const g = (await p.call('GET', `/nft/gifts?collection=${col}`)).body.items[0];
    const giftOrder = shortNumber(w, (await p.order('nft', { gift: g.gift, recipient: 'vera_user', max_price: g.partner_price })).body.order_id as string);
    for (let i = 0; i < 30 && !owner.all.some((m) => m.text.includes(`Order ${giftOrder} completed`)); i++) await w.t.advance(5);
    const done = owner.all.find((m) => m.text.includes(`Order ${giftOrder} completed`))!;
    expect(done.text).toContain(`Gift page: https://t.me/nft/${g.gift}`);

    await owner.say('/orders');
    const list = await owner.expectMenu('Recent orders, page 1 of 1');
    expect(list.text).toMatch(new RegExp(`^1\\. 🎁 ${g.name} #${g.num} → @vera_user · completed ✅\n[\\d.]+ TON · \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC · ${giftOrder}$`, 'm'));
    expect(list.text).toMatch(/^2\. ⭐ 50 → @failstars_ann · /m);
    expect(list.text).not.toContain('pa_');
    expect(list.buttons.flat().map((b) => b.text)).toEqual(['1', '2']);
    await owner.press(list, button(list, '1'));
    const details = await owner.expect(`Order ${giftOrder}`);
    expect(details.text).toContain(`Gift page: https://t.me/nft/${g.gift}`);
  });
});

describe('gift failures in words', () => {
  it('when a gift order fails (sold meanwhile, price above the confirmed cap), then the chat hears why, that the money is back, and what to do', async () => {
    const p = await w.t.newPartner();
    const owner = await linked(p, 'owner', 'ru');
    const staff = await linked(p, 'staff');
    const col = (await p.call('GET', '/nft/collections')).body.items[3].collection;
    const [a, b] = (await p.call('GET', `/nft/gifts?collection=${col}&limit=2`)).body.items;
    expect((await w.t.admin('PUT', `/sandbox/gifts/${a.gift}`, { outcome: 'gift_not_for_sale' })).status).toBe(200);
    expect((await w.t.admin('PUT', `/sandbox/gifts/${b.gift}`, { outcome: 'price_above_cap' })).status).toBe(200);
    const sold = shortNumber(w, (await p.order('nft', { gift: a.gift, recipient: 'abel_user', max_price: a.partner_price })).body.order_id as string);
    const capped = shortNumber(w, (await p.order('nft', { gift: b.gift, recipient: 'abel_user', max_price: b.partner_price })).body.order_id as string);
    for (let i = 0; i < 30 && !(staff.all.some((m) => m.text.includes(sold)) && staff.all.some((m) => m.text.includes(capped))); i++) await w.t.advance(5);
    await settle(w);
    const [soldMsg] = staff.all.filter((m) => m.text.includes(sold));
    expect(soldMsg.text).toContain(`❌ Order ${sold} failed and was refunded\ngift ${a.name} #${a.num} for @abel_user`);
    expect(soldMsg.text).toContain('Why: the gift was sold to someone else before the purchase');
    expect(soldMsg.text).toContain(`Refunded: ${Number(a.partner_price).toLocaleString('en-US', { minimumFractionDigits: 3 })} TON · balance after: `);
    expect(soldMsg.text).toContain('Choose another gift with /order.');
    const [cappedMsg] = staff.all.filter((m) => m.text.includes(capped));
    expect(cappedMsg.text).toContain('Why: the gift became more expensive than the price you confirmed; it is never bought above it');
    expect(cappedMsg.text).toContain('You can order it again at today’s price with /order.');
    const [ruMsg] = owner.all.filter((m) => m.text.includes(capped));
    expect(ruMsg.text).toContain('Причина: подарок подорожал выше подтверждённой вами цены; дороже он не покупается');
    expect(ruMsg.text).toContain('Можно заказать его снова по сегодняшней цене через /order.');
    expect(owner.all.filter((m) => m.text.includes(sold))).toHaveLength(1);
  });
});

describe('owners and failing webhooks', () => {
  it('when a webhook delivery gives up, then the partner’s owners hear it in their language, not only the operators', async () => {
    const p = await w.t.newPartner();
    const owner = await linked(p, 'owner', 'ru');
    const staff = await linked(p, 'staff');
    const op = w.chat(OPERATOR);
    w.t.deps.bus.emit('alert', { kind: 'webhook_gave_up', webhookId: 'wh1', orderId: 'PA-424242', partnerId: p.id, event: 'order.completed', reason: 'HTTP 500' });
    const m = await owner.expect('Ваш сервер вебхуков не принял событие «заказ выполнен» по заказу PA-424242');
    expect(m.text).toContain('повторные попытки закончились: сервер ответил HTTP 500.');
    // words, not codes: no event name, no HTTP route
    expect(m.text).not.toMatch(/order\.completed|GET \/orders/);
    expect(m.text).toContain('/status PA-424242');
    await op.expect(
      `📭 Delivery of the “order completed” event for order PA-424242 of partner “Test partner” was given up after its last attempt: the server answered HTTP 500. The partner’s owners linked in the bot are told too (at most once a day).`,
    );
    await settle(w);
    expect(staff.fresh.some((x) => x.text.includes('PA-424242'))).toBe(false);
  });
});
