import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestPartner } from '../helpers.js';
import { button, waitFor } from './fake-telegram.js';
import { newUser, settle, World, type Chat } from './harness.js';

let w: World;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

async function staffOf(p: TestPartner, language = 'en'): Promise<Chat> {
  const chat = w.chat(newUser(language));
  await w.link(chat.user, p.id, 'staff');
  return chat;
}

/** /order → Stars → preset → recipient: returns the confirmation message. */
async function toStarsConfirmation(chat: Chat, quantity: number, recipient: string) {
  await chat.say('/order');
  const products = await chat.expectMenu('What would you like to order?');
  await chat.press(products, button(products, 'Stars'));
  const amounts = await chat.expectMenu('How many stars?');
  await chat.press(amounts, button(amounts, new RegExp(`^${quantity}$`)));
  await chat.expect('Send the recipient');
  await chat.say(recipient);
  return chat.expectMenu(/^(Please check the order|Not enough money for this order):/);
}

async function balanceUsd(p: TestPartner): Promise<string> {
  return (await p.call('GET', '/me')).body.balances.USD;
}

async function orders(p: TestPartner): Promise<any[]> {
  return (await p.call('GET', '/orders')).body.items;
}

describe('ordering Stars', () => {
  it('when staff order 100 stars and confirm, then a real order is made, debited, and the chat hears when it completes', async () => {
    const p = await w.t.newPartner();
    const chat = await staffOf(p);
    const confirm = await toStarsConfirmation(chat, 100, '@alice_user');
    expect(confirm.text).toContain('100 stars for @alice_user');
    expect(confirm.text).toContain('Price: 1.58 USD'); // 15.00 × 1.05 per 1000, rounded up to the cent
    expect(confirm.text).toContain('Balance: 1,000.00 USD → after the order: 998.42 USD');
    const data = button(confirm, 'Confirm');
    expect(data).toMatch(new RegExp(`^c:[0-9a-f]{8}:ok:bot-${chat.user.id}-[0-9a-f]{20}$`));

    await chat.press(confirm, data);
    const accepted = await chat.expect('accepted');
    const orderId = /PA-\d+/.exec(accepted.text)![0];
    expect(accepted.text).toContain('100 stars for @alice_user');
    expect(accepted.text).not.toMatch(/[а-яё«»№]/i); // one language: no Russian order label
    expect(accepted.text).toContain('Debited: 1.58 USD');
    expect(await balanceUsd(p)).toBe('998.42');
    const order = (await p.call('GET', `/orders/${orderId}`)).body;
    expect(order).toMatchObject({ type: 'stars', quantity: 100, recipient: '@alice_user', partner_price: '1.58', status: 'processing' });
    // audited with the person who confirmed it, as the Mini App's orders are
    const audit = w.t.db.$client.prepare("select actor, data from audit_log where action = 'order.create' and target = ?").all(orderId) as { actor: string; data: string }[];
    expect(audit.map((a) => [a.actor, JSON.parse(a.data)])).toEqual([[`telegram:${chat.user.id}`, { partner_id: p.id, type: 'stars', amount: '1.58', currency: 'USD' }]]);
    // the buttons are gone from the confirmation
    await waitFor(() => w.tg.messages.find((m) => m.message_id === confirm.message_id)!.buttons.length === 0, 'buttons removed');

    await w.t.advance(30);
    const done = await chat.expect(`Order ${orderId} completed`);
    expect(done.text).toContain('100 stars for @alice_user');
    expect((await p.call('GET', `/orders/${orderId}`)).body.status).toBe('completed');
  });

  it('when the confirmation is tapped twice, then exactly one order and one debit', async () => {
    const p = await w.t.newPartner();
    const chat = await staffOf(p);
    const confirm = await toStarsConfirmation(chat, 500, 'bob_user');
    const data = button(confirm, 'Confirm');
    await chat.press(confirm, data);
    w.tg.press(chat.user, confirm, data); // the second tap arrives before the bot answered the first
    await chat.expect('accepted');
    // the stale tap gets the toast only, not the same words again as a message
    await waitFor(() => w.tg.callsOf('answerCallbackQuery').some((c) => /already used/.test(c.payload.text ?? '')), 'the toast');
    await settle(w);
    expect(chat.all.filter((m) => m.text.includes('already used'))).toEqual([]);
    const list = await orders(p);
    expect(list).toHaveLength(1);
    expect(list[0].partner_price).toBe('7.88');
    expect(await balanceUsd(p)).toBe('992.12');
    const ledger = await w.t.admin('GET', `/partners/${p.id}/ledger?currency=USD`);
    expect(ledger.body.items.filter((e: any) => e.kind === 'order_debit')).toHaveLength(1);
  });

  it('when another amount is typed, then it must be within the limits', async () => {
    const p = await w.t.newPartner();
    const chat = await staffOf(p);
    await chat.say('/order');
    const products = await chat.expectMenu('What would you like to order?');
    await chat.press(products, button(products, 'Stars'));
    const amounts = await chat.expectMenu('How many stars?');
    await chat.press(amounts, button(amounts, 'Other amount'));
    await chat.expect('a whole number from 50 to 50,000');
    // wrong as often as they like: each is explained (a number out of range by its limit), none ends the order
    for (const [wrong, told] of [
      ['49', 'At least 50 stars can be ordered: send a number from 50 to 50,000, or /cancel.'],
      ['fifty', 'That is not a whole number from 50 to 50,000. Try again or send /cancel.'],
      ['50001', 'At most 50,000 stars can be ordered at once: send a number from 50 to 50,000, or /cancel.'],
      ['12.5', 'That is not a whole number from 50 to 50,000. Try again or send /cancel.'],
      ['-100', 'That is not a whole number from 50 to 50,000. Try again or send /cancel.'],
    ]) {
      await chat.say(wrong);
      await chat.expect(told);
    }
    w.tg.sendSticker(chat.user);
    await chat.expect('Please use the buttons above, or send /cancel to leave');
    await chat.say('12345');
    await chat.expect('Send the recipient');
    await chat.say('carol_user');
    const confirm = await chat.expectMenu('Please check the order');
    expect(confirm.text).toContain('12,345 stars for @carol_user');
    expect(confirm.text).toContain('Price: 194.44 USD');
  });

  it('when the recipient does not exist, then it is explained and another username is asked for', async () => {
    const p = await w.t.newPartner();
    const chat = await staffOf(p);
    await chat.say('/order');
    const products = await chat.expectMenu('What would you like to order?');
    await chat.press(products, button(products, 'Stars'));
    const amounts = await chat.expectMenu('How many stars?');
    await chat.press(amounts, button(amounts, /^50$/));
    await chat.expect('Send the recipient');
    await chat.say('@ghost_nobody');
    const m = await chat.expect('No such Telegram user');
    expect(m.text).toContain('Send another username');
    await chat.say('dave_user');
    await chat.expectMenu('Please check the order');
    expect(await orders(p)).toHaveLength(0);
  });

  it('when the balance is too low, then the refusal names the balance and nothing is debited', async () => {
    const p = await w.t.newPartner({ usd: '10.00' });
    const chat = await staffOf(p);
    const confirm = await toStarsConfirmation(chat, 5000, 'erin_user');
    expect(confirm.text.split('\n')[0]).toBe('Not enough money for this order:');
    expect(confirm.text).toContain('Price: 78.75 USD');
    // no ✅ that would be refused, and no negative "after the order": how short, and how to top up
    expect(confirm.text).toContain('The USD balance is 68.75 USD short of this order. Top up the balance (the account owner: /topup)');
    expect(confirm.text).not.toContain('-68.75');
    expect(() => button(confirm, 'Confirm')).toThrow();
    expect(confirm.buttons.flat().map((b) => b.text)).toEqual(['📣 Ask the owner to top up', '◀ Back', '✖ Cancel']);
    expect(await balanceUsd(p)).toBe('10.00');
    expect(await orders(p)).toHaveLength(0);
  });

  it('when the user speaks Russian, then the flow is in Russian', async () => {
    const p = await w.t.newPartner();
    const chat = await staffOf(p, 'ru');
    await chat.say('/order');
    const products = await chat.expectMenu('Что заказать?');
    await chat.press(products, button(products, 'Звёзды'));
    const amounts = await chat.expectMenu('Сколько звёзд?');
    await chat.press(amounts, button(amounts, /^100$/));
    await chat.expect('Отправьте имя пользователя');
    await chat.say('frank_user');
    const confirm = await chat.expectMenu('Проверьте заказ');
    expect(confirm.text).toContain('100 звёзд для @frank_user');
    await chat.press(confirm, button(confirm, 'Подтвердить'));
    await chat.expect('принят');
  });

  it('when Cancel is pressed, then the conversation ends without an order', async () => {
    const p = await w.t.newPartner();
    const chat = await staffOf(p);
    const confirm = await toStarsConfirmation(chat, 50, 'gina_user');
    await chat.press(confirm, button(confirm, 'Cancel'));
    await waitFor(() => w.tg.messages.find((m) => m.message_id === confirm.message_id)!.text === '✖ Cancelled.', 'cancelled');
    expect(await orders(p)).toHaveLength(0);
  });
});

describe('ordering Premium', () => {
  it('when the recipient already has Premium, then the confirmation warns that the order will wait', async () => {
    const p = await w.t.newPartner();
    const chat = await staffOf(p);
    await chat.say('/order');
    const products = await chat.expectMenu('What would you like to order?');
    await chat.press(products, button(products, 'Premium'));
    const terms = await chat.expectMenu('Premium for how long?');
    await chat.press(terms, button(terms, '6 months'));
    await chat.expect('Send the recipient');
    await chat.say('@premium_holder');
    const confirm = await chat.expectMenu('Please check the order');
    expect(confirm.text).toContain('Premium for 6 months for @premium_holder');
    expect(confirm.text).toContain('Price: 16.79 USD');
    expect(confirm.text).toContain('already has an active Premium subscription');
    expect(confirm.text).toContain('wait until the current subscription ends');
    await chat.press(confirm, button(confirm, 'Confirm'));
    const accepted = await chat.expect('accepted');
    expect(accepted.text).toContain('Telegram Premium for 6 months for @premium_holder');
    expect(await balanceUsd(p)).toBe('983.21');

    // a second Premium order for the same account is stopped at the recipient step, naming the first
    const number = /PA-\d+/.exec(accepted.text)![0];
    await chat.say('/order');
    const again = await chat.expectMenu('What would you like to order?');
    await chat.press(again, button(again, 'Premium'));
    const terms2 = await chat.expectMenu('Premium for how long?');
    await chat.press(terms2, button(terms2, '3 months'));
    await chat.expect('Send the recipient');
    await chat.say('premium_holder');
    const stop = await chat.expectMenu('already has an unfinished Premium order');
    expect(stop.text).toBe(
      `⏳ @premium_holder already has an unfinished Premium order, ${number}: a second one can be placed only after it finishes. /status ${number} shows it. Go back to choose another recipient, or cancel.`,
    );
    expect(stop.buttons.flat().map((b) => b.text)).toEqual(['◀ Back', '✖ Cancel']);
    // Back: another recipient, who is fine
    await chat.press(stop, button(stop, 'Back'));
    await chat.expect('Send the recipient');
    await chat.say('premium_other');
    const confirm2 = await chat.expectMenu('Please check the order');
    expect(confirm2.text).toContain('Premium for 3 months for @premium_other');
    expect(await orders(p)).toHaveLength(1);

    // another partner's staff (Russian) are told of it without its number, and Cancel ends the order
    const q = await w.t.newPartner();
    const ru = await staffOf(q, 'ru');
    await ru.say('/order');
    const ruProducts = await ru.expectMenu('Что заказать?');
    await ru.press(ruProducts, button(ruProducts, 'Premium'));
    const ruTerms = await ru.expectMenu('На какой срок Premium?');
    await ru.press(ruTerms, ruTerms.buttons[0][0].callback_data!);
    await ru.expect('Отправьте имя пользователя получателя');
    await ru.say('@premium_holder');
    const ruStop = await ru.expectMenu('уже есть незавершённый заказ Premium');
    expect(ruStop.text).toBe(
      '⏳ У @premium_holder уже есть незавершённый заказ Premium (оформлен не вами): следующий можно оформить только после него. Вернитесь назад, чтобы выбрать другого получателя, или отмените.',
    );
    expect(ruStop.buttons.flat().map((b) => b.text)).toEqual(['◀ Назад', '✖ Отмена']);
    await ru.press(ruStop, button(ruStop, 'Отмена'));
    await waitFor(() => w.current(ruStop).text === '✖ Отменено.', 'the menu says it was cancelled');
    expect(await orders(q)).toHaveLength(0);
  });
});

describe('ordering a gift', () => {
  it('when staff browse a collection by price and confirm a gift, then the order carries the confirmed price as max_price', async () => {
    const p = await w.t.newPartner();
    const chat = await staffOf(p);
    await chat.say('/order');
    const products = await chat.expectMenu('What would you like to order?');
    await chat.press(products, button(products, 'Gift'));
    const cols = await chat.expectMenu('Choose a collection');
    expect(cols.buttons.length).toBeGreaterThanOrEqual(5); // 4+ collections and Cancel
    await chat.press(cols, cols.buttons[0][0].callback_data!);
    const page = await chat.expectMenu('gifts from the cheapest (page 1 of 30)');
    const prices = [...page.text.matchAll(/— (\d+\.\d{3}) TON/g)].map((m) => Number(m[1]));
    expect(prices).toHaveLength(5);
    expect([...prices].sort((a, b) => a - b)).toEqual(prices);
    await chat.press(page, button(page, 'Pricier'));
    await waitFor(() => w.tg.messages.find((m) => m.message_id === page.message_id)!.text.includes('(page 2 of 30)'), 'page 2');
    const page2 = w.tg.messages.find((m) => m.message_id === page.message_id)!;
    const prices2 = [...page2.text.matchAll(/— (\d+\.\d{3}) TON/g)].map((m) => Number(m[1]));
    expect(prices2[0]).toBeGreaterThanOrEqual(prices[4]);
    await chat.press(page2, button(page2, 'Cheaper'));
    await waitFor(() => w.tg.messages.find((m) => m.message_id === page.message_id)!.text.includes('(page 1 of 30)'), 'page 1 again');
    const again = w.tg.messages.find((m) => m.message_id === page.message_id)!;
    const first = /1\. (.+) #(\d+) — (\d+\.\d{3}) TON/.exec(again.text)!;
    await chat.press(again, again.buttons[0][0].callback_data!);
    await chat.expect('Send the recipient');
    await chat.say('nogift_olga');
    await chat.expect('cannot receive gifts');
    await chat.say('@nora_user');
    const confirm = await chat.expectMenu('Please check the order');
    expect(confirm.text).toContain(`Gift ${first[1]} #${first[2]}`);
    expect(confirm.text).toContain(`Price: ${first[3]} TON`);
    expect(confirm.text).toContain(`accepts ${first[3]} TON as the maximum price`);
    await chat.press(confirm, button(confirm, 'Confirm'));
    const accepted = await chat.expect('accepted');
    expect(accepted.text).toMatch(/Order PA-\d+ accepted/); // its short number, not its API id
    const orderId = (await orders(p))[0].order_id as string;
    expect(orderId).toMatch(/^pa_/);
    expect(accepted.text).toContain(`gift ${first[1]} #${first[2]} for @nora_user`);
    const order = (await p.call('GET', `/orders/${orderId}`)).body;
    expect(order).toMatchObject({ type: 'nft', partner_price: first[3], currency: 'TON', recipient: '@nora_user' });
    const ton = (await p.call('GET', '/me')).body.balances.TON;
    expect(Number(ton)).toBeCloseTo(1000 - Number(first[3]), 3);
  });
});

describe('orders list', () => {
  it('/orders pages through recent orders and shows one order on request', async () => {
    const p = await w.t.newPartner();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await p.order('stars', { quantity: 50 + i, recipient: `user_${i}x` })).body.order_id);
    const chat = await staffOf(p);
    await chat.say('/orders');
    const page1 = await chat.expectMenu('Recent orders, page 1 of 2 (a number below opens its order):');
    expect(page1.text).toContain(ids[6]);
    expect(page1.text).toMatch(/^1\. ⭐ 56 → @user_6x · in progress ⏳\n0\.89 USD · \d{4}-\d\d-\d\d \d\d:\d\d UTC · PA-\d+$/m);
    // each order once: five numbered lines, one row of their numbers and one of paging, none empty
    for (const id of ids.slice(2)) expect(page1.text.split(id)).toHaveLength(2);
    expect(page1.buttons.map((r) => r.map((b) => b.text))).toEqual([['1', '2', '3', '4', '5'], ['Older ▶']]);
    expect(page1.text).not.toContain(ids[1]);
    await chat.press(page1, button(page1, 'Older'));
    const page2 = await waitFor(() => {
      const m = w.tg.messages.find((x) => x.message_id === page1.message_id)!;
      return m.text.includes('page 2 of 2') && m;
    }, 'page 2');
    expect(page2.text).toMatch(/^2\. ⭐ 50 → @user_0x · /m);
    expect(page2.text).toContain(ids[1]);
    expect(page2.buttons.map((r) => r.map((b) => b.text))).toEqual([['1', '2'], ['◀ Newer']]);
    await chat.press(page2, button(page2, /^2$/));
    // the order opens in place of the list, with the way back to its page
    const details = await chat.expect(`Order ${ids[0]}`);
    expect(details.message_id).toBe(page1.message_id);
    expect(details.text).toContain('Status: in progress');
    expect(details.text).toContain('50 stars for @user_0x');
    expect(details.text).not.toContain('звёзд');
    expect(details.text).toMatch(/Created: \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(details.buttons.flat().map((b) => b.text)).toEqual(['🔁 Order again', '◀ Back']);
    await chat.press(details, button(details, 'Back'));
    await waitFor(() => w.current(page1).text.includes('page 2 of 2'), 'page 2 again');

    // the same message is edited in place: back to the newest page
    await chat.press(w.current(page1), button(w.current(page1), 'Newer'));
    await waitFor(() => w.tg.messages.find((x) => x.message_id === page1.message_id)!.text.includes('page 1 of 2'), 'page 1 again');
    await chat.say(`/status ${ids[1]}`);
    await chat.expect(`Order ${ids[1]}`);
    await chat.say('/status PA-999999');
    await chat.expect('No such order');
  });
});

describe('less clutter', () => {
  it('free text gets a one-line hint, not the whole help (English and Russian); an unknown command still gets the help', async () => {
    const p = await w.t.newPartner();
    const en = await staffOf(p);
    await en.say('hello, can I order stars?');
    const hint = await en.expect('I answer commands');
    expect(hint.text).toBe('I answer commands: /order for a new order, /help for all of them.');
    const ru = await staffOf(p, 'ru');
    await ru.say('привет');
    const hintRu = await ru.expect('Я отвечаю на команды');
    expect(hintRu.text).toBe('Я отвечаю на команды: /order — новый заказ, /help — все команды.');
    await en.say('/nonsense');
    await en.expect('You are linked as staff. Commands:');
  });
});
