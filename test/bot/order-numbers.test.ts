import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, waitFor } from './fake-telegram.js';
import { settle, World } from './harness.js';

/**
 * One short number for every order in chat: a gift order (API id `pa_<uuid>`) is called `PA-…` from the
 * same sequence as Stars and Premium orders, in lists, in /status, in the answers and notices, and can be
 * typed back into /status; the API keeps its ids.
 */

let w: World;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

const num = (id: string) => Number(/^PA-(\d+)$/.exec(id)![1]);

describe('short order numbers', () => {
  it('when a gift order sits between two Stars orders, then it reads as the number between theirs, in English and Russian, and /status takes it', async () => {
    const p = await w.t.newPartner();
    const en = await w.linkedChat(p.id, 'staff', 'en');
    const ru = await w.linkedChat(p.id, 'owner', 'ru');

    const a = (await p.order('stars', { quantity: 50, recipient: '@num_one' })).body.order_id as string;
    const g = (await p.call('GET', '/nft/gifts?collection=HomemadeCake&limit=1')).body.items[0];
    const gift = await p.order('nft', { gift: g.gift, recipient: '@num_gift', max_price: g.partner_price });
    expect(gift.status).toBe(200);
    const giftId = gift.body.order_id as string;
    expect(giftId).toMatch(/^pa_[0-9a-f-]{36}$/); // the API keeps its id
    const b = (await p.order('stars', { quantity: 50, recipient: '@num_two' })).body.order_id as string;
    // the sequence skips no number: the gift order has the one between
    expect(num(b)).toBe(num(a) + 2);
    const giftNumber = `PA-${num(a) + 1}`;

    await en.say('/orders');
    const list = await en.expect('Recent orders');
    expect(list.text).toContain(giftNumber);
    expect(list.text).not.toContain('pa_');
    expect(list.text.indexOf(b)).toBeLessThan(list.text.indexOf(giftNumber));
    expect(list.text.indexOf(giftNumber)).toBeLessThan(list.text.indexOf(a));

    await en.say(`/status ${giftNumber}`);
    const status = await en.expect(`Order ${giftNumber}`);
    expect(status.text).toContain(`gift ${g.name} #${g.num} for @num_gift`);
    expect(status.text).not.toContain('pa_');
    // typed without the prefix, in lower case, and the API id still works too
    await en.say(`/status ${num(a) + 1}`);
    await en.expect(`Order ${giftNumber}`);
    await en.say(`/status ${giftNumber.toLowerCase()}`);
    await en.expect(`Order ${giftNumber}`);
    await en.say(`/status ${giftId}`);
    await en.expect(`Order ${giftNumber}`);
    // a Stars order's number is its id
    await en.say(`/status ${a}`);
    await en.expect(`Order ${a}`);
    // an unknown number is just not found
    await en.say('/status PA-999999');
    await en.expect('No such order.');

    await ru.say(`/status ${giftNumber}`);
    const ruStatus = await ru.expect(`Заказ ${giftNumber}`);
    expect(ruStatus.text).toContain(`подарок ${g.name} #${g.num} для @num_gift`);
    expect(ruStatus.text).not.toContain('pa_');

    // the API answers with its own id, and the short number means nothing there
    expect((await p.call('GET', `/orders/${giftId}`)).body.order_id).toBe(giftId);
    expect((await p.call('GET', `/orders/${giftNumber}`)).status).toBe(404);
  });

  it('when staff order a gift in the bot, then the answer and the outcome name its short number', async () => {
    const p = await w.t.newPartner();
    const chat = await w.linkedChat(p.id, 'staff', 'en');
    await chat.say('/order');
    const products = await chat.expectMenu('What would you like to order?');
    await chat.press(products, button(products, 'Gift'));
    const cols = await chat.expectMenu('Choose a collection');
    await chat.press(cols, cols.buttons[0][0].callback_data!);
    const page = await chat.expectMenu('gifts from the cheapest');
    await chat.press(page, page.buttons[0][0].callback_data!);
    await chat.expect('Send the recipient');
    await chat.say('@num_bot_gift');
    const confirm = await chat.expectMenu('Please check the order');
    await chat.press(confirm, button(confirm, 'Confirm'));
    const accepted = await chat.expect('accepted');
    expect(accepted.text).toMatch(/^✅ Order PA-\d+ accepted: gift /);
    expect(accepted.text).not.toContain('pa_');
    const number = /PA-\d+/.exec(accepted.text)![0];
    const [order] = (await p.call('GET', '/orders')).body.items;
    expect(order.order_id).toMatch(/^pa_/);

    for (let i = 0; i < 20 && !chat.all.some((m) => m.text.includes(`Order ${number} completed`)); i++) {
      await w.t.advance(60);
      await settle(w, 50);
    }
    const done = await waitFor(() => chat.all.find((m) => m.text.includes(`Order ${number} completed`)), 'the completion notice');
    expect(done.text).not.toContain('pa_');
  });
});
