import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button } from './fake-telegram.js';
import { newUser, settle, World } from './harness.js';

/**
 * Issue 16 bug 7: the service log repeated "job failed; will retry … handler for order.process left its
 * job unchanged" for every gift order, although the orders finished. A gift ordered through the bot, from
 * the first tap to the completion notice, must leave no warning and no error in the log.
 */

const entries: { level: string; msg?: string; obj: unknown }[] = [];
const log = {
  info: () => {},
  warn: (obj: unknown, msg?: string) => void entries.push({ level: 'warn', msg, obj }),
  error: (obj: unknown, msg?: string) => void entries.push({ level: 'error', msg, obj }),
};

let w: World;
beforeAll(async () => {
  w = await World.start({}, { log });
});
afterAll(async () => {
  await w?.close();
});

describe('the service log while a gift is ordered in the bot', () => {
  it('when staff order a gift and it is delivered stage by stage, then nothing is logged as a fault', async () => {
    const p = await w.t.newPartner();
    const chat = w.chat(newUser());
    await w.link(chat.user, p.id, 'staff');
    await chat.say('/order');
    const products = await chat.expectMenu('What would you like to order?');
    await chat.press(products, button(products, 'Gift'));
    const cols = await chat.expectMenu('Choose a collection');
    await chat.press(cols, cols.buttons[4][0].callback_data!);
    const page = await chat.expectMenu('gifts from the cheapest');
    await chat.press(page, page.buttons[0][0].callback_data!);
    await chat.expect('Send the recipient');
    await chat.say('yuri_user');
    const confirm = await chat.expectMenu('Please check the order');
    await chat.press(confirm, button(confirm, 'Confirm'));
    const accepted = await chat.expect('accepted');
    const number = /PA-\d+/.exec(accepted.text)![0]; // chat's short number; the API id is pa_<uuid>
    const orderId = (await p.call('GET', '/orders')).body.items[0].order_id as string;
    // the purchase goes through its stages (a few seconds of service clock each), waiting in between
    for (let i = 0; i < 40 && !chat.all.some((m) => m.text.includes(`Order ${number} completed`)); i++) {
      await w.t.advance(2);
      await settle(w, 20);
    }
    expect(chat.all.some((m) => m.text.includes(`Order ${number} completed`))).toBe(true);
    expect((await p.call('GET', `/orders/${orderId}`)).body.status).toBe('completed');
    expect(entries).toEqual([]);
  });
});
