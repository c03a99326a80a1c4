/**
 * Issue 15 point 7 in the bot, through the fake Bot API: owners set low-balance thresholds with /alerts
 * (en/ru), the owners' chats get one message in their language when an order takes a balance below its
 * threshold and not again until it was back at or above it; /webhook's Events button opts in to balance.low.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestPartner } from '../helpers.js';
import { button, waitFor } from './fake-telegram.js';
import { newUser, settle, World } from './harness.js';

let w: World;
let txn = 0;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

async function stars(p: TestPartner, quantity: number): Promise<void> {
  const r = await p.order('stars', { quantity, recipient: '@alerts_user' });
  expect(r.status, r.raw).toBe(200);
}

describe('/alerts', () => {
  it('an owner sets a threshold (too many decimals explained), the owners hear once in their language, again only after the balance was back, and can switch it off', async () => {
    const p = await w.t.newPartner({ usd: '10.00', ton: null });
    const owner = w.chat(newUser('en'));
    const ownerRu = w.chat(newUser('ru'));
    const staff = w.chat(newUser('en'));
    await w.link(owner.user, p.id, 'owner');
    await w.link(ownerRu.user, p.id, 'owner');
    await w.link(staff.user, p.id, 'staff');

    await staff.say('/alerts');
    await staff.expect('Only the account owner can do this.');

    await owner.say('/alerts');
    const menu = await owner.expectMenu('Low-balance alerts');
    expect(menu.text).toContain('USD: off');
    expect(menu.text).toContain('TON: off');
    await owner.press(menu, button(menu, 'Set USD'));
    await owner.expect('Send the USD threshold');
    await owner.say('8.001');
    await owner.expect('That is not a threshold: send a positive number with at most 2 decimals');
    await owner.say('0');
    await owner.expect('That is not a threshold');
    await owner.say('8');
    await owner.expect('Saved: you will be told when an order takes the USD balance below 8.00 USD.');
    expect((await w.t.admin('GET', `/partners/${p.id}/alerts`)).body).toEqual({ USD: '8.00', TON: null });

    const lowTexts = () => [...owner.all, ...ownerRu.all, ...staff.all].filter((m) => /Low balance|Низкий баланс/.test(m.text));
    await stars(p, 100); // 8.42: above
    await stars(p, 50); // 7.63: below
    const en = await owner.expect('Low balance');
    expect(en.text).toBe(
      '🔻 Low balance: the USD balance is 7.63 USD, below your alert threshold of 8.00 USD. Top it up (/topup) so that orders are not refused. You will hear this again only after the balance has been back at or above 8.00 USD.',
    );
    const ru = await ownerRu.expect('Низкий баланс');
    expect(ru.text).toContain('на балансе USD осталось 7,63 USD — меньше порога оповещения 8,00 USD');
    await stars(p, 50); // 6.84: still below
    await settle(w);
    expect(lowTexts()).toHaveLength(2); // one each for the two owners, nothing for staff
    expect(staff.all.some((m) => /Low balance/.test(m.text))).toBe(false);

    const tx = await w.t.admin('POST', `/partners/${p.id}/topups`, { currency: 'USD', amount: '5.00', network: 'ton', tx_hash: `bot-alert-${process.pid}-${++txn}` });
    expect(tx.status).toBe(201); // 11.84
    await stars(p, 300); // 7.11: below again after being back above
    await waitFor(() => lowTexts().length >= 4, 'the second alert in both owners\' chats');
    await settle(w);
    expect(lowTexts()).toHaveLength(4);
    expect(lowTexts().filter((m) => m.chat_id === owner.chatId).map((m) => /is (\S+) USD/.exec(m.text)![1])).toEqual(['7.63', '7.11']);

    // switched off: no message any more
    await owner.say('/alerts');
    const menu2 = await owner.expectMenu('Low-balance alerts');
    expect(menu2.text).toContain('USD: below 8.00 USD');
    await owner.press(menu2, button(menu2, 'Set USD'));
    await owner.expect('Send the USD threshold');
    await owner.say('-');
    await owner.expect('The USD low-balance alert is off.');
    expect((await w.t.admin('GET', `/partners/${p.id}/alerts`)).body).toEqual({ USD: null, TON: null });
  });

  it('in Russian: the menu and the TON threshold with three decimals', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser('ru'));
    await w.link(owner.user, p.id, 'owner');
    await owner.say('/alerts');
    const menu = await owner.expectMenu('Оповещения о низком балансе');
    expect(menu.text).toContain('TON: выключено');
    await owner.press(menu, button(menu, 'Порог TON'));
    const ask = await owner.expect('Отправьте порог для TON');
    expect(ask.text).toContain('50 или 50,125');
    await owner.say('50,1255');
    const bad = await owner.expect('Это не порог');
    expect(bad.text).toContain('не больше 3 знаков после запятой, например 50,125');
    await owner.say('50,125');
    await owner.expect('Сохранено: сообщу, когда заказ опустит баланс TON ниже 50,125 TON.');
    expect((await w.t.admin('GET', `/partners/${p.id}/alerts`)).body).toEqual({ USD: null, TON: '50.125' });
  });
});

describe('/webhook events', () => {
  it('the Events button opts in to balance.low and back to the order events only', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser('en'));
    await w.link(owner.user, p.id, 'owner');
    await w.t.admin('PUT', `/partners/${p.id}/webhook`, { url: 'https://hooks.example.com/ev' });
    await owner.say('/webhook');
    const menu = await owner.expectMenu('Events: order completed, order failed, order refunded');
    await owner.press(menu, button(menu, 'Events'));
    const which = await owner.expectMenu('Which events should your server receive?');
    await owner.press(which, button(which, 'Order outcomes + low balance'));
    await owner.expect('Saved. Events: order completed, order failed, order refunded, low balance.');
    const view = (await w.t.admin('GET', `/partners/${p.id}`)).body.webhook;
    expect(view).toEqual({ url: 'https://hooks.example.com/ev', has_secret: true, events: ['order.completed', 'order.failed', 'order.refunded', 'balance.low'] });

    await owner.say('/webhook');
    const menu2 = await owner.expectMenu('low balance');
    await owner.press(menu2, button(menu2, 'Events'));
    const which2 = await owner.expectMenu('Which events');
    await owner.press(which2, button(which2, 'Order outcomes only'));
    await owner.expect('Saved. Events: order completed, order failed, order refunded.');
    expect((await w.t.admin('GET', `/partners/${p.id}`)).body.webhook.events).toEqual(['order.completed', 'order.failed', 'order.refunded']);
  });
});
