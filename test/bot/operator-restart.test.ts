import { depositNumber } from '../../bot/deposit-numbers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, waitFor } from './fake-telegram.js';
import { newUser, OPERATOR, settle, shortNumber, World } from './harness.js';

let w: World;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

/** Advances the service clock in steps until `probe` holds (orders need a few seconds each step). */
async function advanceUntil<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, what: string, stepSeconds = 5, maxSteps = 40): Promise<T> {
  for (let i = 0; i < maxSteps; i++) {
    const v = await probe();
    if (v) return v;
    await w.t.advance(stepSeconds);
    await new Promise((r) => setTimeout(r, 10));
  }
  return waitFor(probe, what, 2000);
}

describe('operators', () => {
  it('when a stars delivery is not confirmed, then operators get an alert whose Deliver button completes the order', async () => {
    const p = await w.t.newPartner();
    const staff = w.chat(newUser());
    await w.link(staff.user, p.id, 'staff');
    const op = w.chat(OPERATOR);
    const created = await p.order('stars', { quantity: 50, recipient: 'unconfirmed_zoe' });
    const orderId = created.body.order_id as string;

    const alert = await advanceUntil(() => op.fresh.find((m) => m.text.includes(`Manual review needed: order ${orderId}`)), 'the review alert');
    expect(alert.text).toContain('of partner “Test partner”.');
    expect(alert.text).toContain('50 stars for @unconfirmed_zoe'); // in the operator's language
    expect((await p.call('GET', `/orders/${orderId}`)).body).toMatchObject({ status: 'failed', refunded: false });
    // no completion message to the partner yet
    expect(staff.fresh.some((m) => m.text.includes(orderId))).toBe(false);

    await op.press(alert, button(alert, 'Deliver'));
    // are you sure? (it moves money)
    const sure = await waitFor(() => {
      const m = w.tg.messages.find((x) => x.message_id === alert.message_id)!;
      return m.text.includes('Mark this order delivered') && m;
    }, 'the confirmation');
    await op.press(sure, button(sure, 'Yes, delivered'));
    await waitFor(() => w.tg.messages.find((m) => m.message_id === alert.message_id)!.text.includes(`Marked delivered by ${OPERATOR.first_name}`), 'the alert to show the outcome');
    expect(w.tg.messages.find((m) => m.message_id === alert.message_id)!.buttons).toEqual([]);
    const view = await w.t.admin('GET', `/orders/${orderId}`);
    expect(view.body).toMatchObject({ status: 'completed', review: null });
    await staff.expect(`Order ${orderId} completed`);

    // a second press is answered, nothing changes
    w.tg.press(OPERATOR, alert, button({ ...alert, buttons: [[{ text: 'Refund', callback_data: `rv:r:${orderId}` }]] } as any, 'Refund'));
    await settle(w);
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload.text).toContain('Nothing changed: this was already handled. ✅ Marked delivered by');
    expect((await w.t.admin('GET', `/orders/${orderId}`)).body.status).toBe('completed');
  });

  it('/reviews lists what waits, and Refund returns the money', async () => {
    const p = await w.t.newPartner();
    const created = await p.order('stars', { quantity: 100, recipient: 'unconfirmed_yan' });
    const orderId = created.body.order_id as string;
    await advanceUntil(async () => (await w.t.admin('GET', '/reviews')).body.items.some((o: any) => o.order_id === orderId), 'the order to wait for review');
    const op = w.chat(OPERATOR);
    await op.say('/reviews');
    const list = await op.expectMenu(/Orders waiting for review: \d+/);
    await op.press(list, button(list, orderId));
    const item = await waitFor(() => {
      const m = w.tg.messages.find((x) => x.message_id === list.message_id)!;
      return m.text.includes(`order ${orderId}`) && m;
    }, 'the case opened');
    await op.press(item, button(item, 'Refund'));
    const sure = await waitFor(() => {
      const m = w.tg.messages.find((x) => x.message_id === item.message_id)!;
      return m.text.includes('Refund this order: 1.58 USD back') && m;
    }, 'the confirmation');
    await op.press(sure, button(sure, 'Yes, refund'));
    await waitFor(() => w.tg.messages.find((m) => m.message_id === item.message_id)!.text.includes('Refunded by'), 'refund shown');
    expect((await p.call('GET', '/me')).body.balances.USD).toBe('1000.00');
    expect((await p.call('GET', `/orders/${orderId}`)).body.refunded).toBe(true);
  });

  it('when a gift purchase fails for lack of purchase funds, then operators get a failure alert and the partner hears of the refund', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser());
    await w.link(owner.user, p.id, 'owner');
    const op = w.chat(OPERATOR);
    await w.t.admin('PUT', '/sandbox/faults', { purchase_funds_low: true });
    try {
      const cols = await p.call('GET', '/nft/collections');
      const list = await p.call('GET', `/nft/gifts?collection=${cols.body.items[0].collection}`);
      const g = list.body.items[0];
      const r = await p.order('nft', { gift: g.gift, recipient: 'lena_user', max_price: g.partner_price });
      expect(r.status).toBe(200);
      const orderId = shortNumber(w, r.body.order_id as string);
      const alert = await advanceUntil(() => op.fresh.find((m) => m.text.includes(`Order ${orderId}`)), 'the failure alert');
      expect(alert.text).toContain('failed: the purchase wallet lacks funds (top it up; the partner was refunded)');
      expect(alert.buttons).toEqual([]);
      await owner.expect(`Order ${orderId} failed`);
    } finally {
      await w.t.admin('PUT', '/sandbox/faults', { purchase_funds_low: false });
    }
  });

  it('webhook give-ups and unmatched deposits reach the operators too', async () => {
    const op = w.chat(OPERATOR);
    w.t.deps.bus.emit('alert', { kind: 'webhook_gave_up', webhookId: 'abc', orderId: 'PA-1', partnerId: 7, event: 'order.completed', reason: 'timeout' });
    await op.expect('Delivery of the “order completed” event for order PA-1 of partner #7 was given up after its last attempt: the server did not answer in time.');
    w.t.deps.bus.emit('alert', { kind: 'unmatched_deposit', depositId: 'dep_1', network: 'trc20', asset: 'USDT', amount: '12.34', reason: 'wrong_amount' });
    await op.expect(`Deposit ${depositNumber(w.t.deps, 'dep_1')} of 12.34 USDT on TRC-20 (TRON) was not credited automatically: its amount matches no open top-up request.`);
  });

  it('non-operators cannot use the review buttons or /reviews', async () => {
    const p = await w.t.newPartner();
    const staff = w.chat(newUser());
    await w.link(staff.user, p.id, 'staff');
    await staff.say('/reviews');
    await staff.expect('Commands:');
    w.tg.press(staff.user, staff.all[0], 'rv:d:PA-100001');
    await settle(w);
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload.text).toBe('Only operators can do this.');
  });

  it('when a stars delivery fails, then the partner chat hears that it failed and was refunded', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser('ru'));
    await w.link(owner.user, p.id, 'owner');
    const orderId = (await p.order('stars', { quantity: 50, recipient: 'failstars_kim' })).body.order_id;
    await advanceUntil(() => owner.fresh.find((m) => m.text.includes(`Заказ ${orderId} не выполнен`)), 'the failure message');
    // one message for the outcome: why, and that the money is back
    const m = owner.fresh.find((x) => x.text.includes(`Заказ ${orderId} не выполнен`))!;
    expect(m.text).toContain('Причина: звёзды не удалось доставить');
    expect(m.text).toContain('Возвращено: 0,79 USD · баланс после: 1\u00a0000,00 USD');
    await settle(w);
    expect(owner.fresh.filter((x) => x.text.includes(orderId))).toHaveLength(1);
  });
});

describe('resilience', () => {
  it('when one update fails inside, then the user gets an apology and the bot keeps working', async () => {
    const p = await w.t.newPartner();
    const staff = w.chat(newUser());
    await w.link(staff.user, p.id, 'staff');
    const settings = w.t.deps.settings;
    const original = settings.get;
    settings.get = () => {
      throw new Error('boom');
    };
    try {
      await staff.say('/order');
      await staff.expect('Something went wrong');
    } finally {
      settings.get = original;
    }
    await staff.say('/balance');
    await staff.expect('Balances:');
  });

  it('when a service call fails unexpectedly inside a conversation, then it ends with an apology and leaves no state', async () => {
    const p = await w.t.newPartner();
    const staff = w.chat(newUser());
    await w.link(staff.user, p.id, 'staff');
    await staff.say('/order');
    const products = await staff.expectMenu('What would you like to order?');
    await staff.press(products, button(products, 'Stars'));
    const amounts = await staff.expectMenu('How many stars?');
    await staff.press(amounts, button(amounts, /^50$/));
    await staff.expect('Send the recipient');
    const resolver = w.t.deps.suppliers.resolver;
    const original = resolver.resolve;
    resolver.resolve = async () => {
      throw new Error('resolver exploded');
    };
    try {
      await staff.say('jack_user');
      await staff.expect('Something went wrong');
    } finally {
      resolver.resolve = original;
    }
    await staff.say('jack_user');
    await staff.expect('I answer commands: /order for a new order, /help for all of them.'); // the conversation is gone: plain text gets the one-line hint
    const key = `conversation:${staff.chatId}:${staff.user.id}`;
    const row = w.t.db.$client.prepare('select value from bot_sessions where key = ?').get(key) as { value: string } | undefined;
    expect(row === undefined || !row.value.includes('order')).toBe(true);
    await staff.say('/order');
    await staff.expectMenu('What would you like to order?');
  });

  it('when the bot and the service restart in the middle of an order, then the conversation resumes', async () => {
    const p = await w.t.newPartner();
    const staff = w.chat(newUser());
    await w.link(staff.user, p.id, 'staff');
    await staff.say('/order');
    const products = await staff.expectMenu('What would you like to order?');
    await staff.press(products, button(products, 'Stars'));
    const amounts = await staff.expectMenu('How many stars?');
    await staff.press(amounts, button(amounts, /^1000$/));
    await staff.expect('Send the recipient');
    await settle(w);

    await w.restart();
    await waitFor(() => w.tg.callsOf('setMyCommands').length >= 4, 'the bot to start again');

    await staff.say('ivan_user');
    const confirm = await staff.expectMenu('Please check the order');
    expect(confirm.text).toContain('1,000 stars for @ivan_user');
    expect(confirm.text).toContain('Price: 15.75 USD');
    await staff.press(confirm, button(confirm, 'Confirm'));
    const accepted = await staff.expect('accepted');
    const orderId = /PA-\d+/.exec(accepted.text)![0];
    // the service was replaced: call it with the partner's key
    expect((await w.t.partnerCall(p.key, 'GET', '/me')).body.balances.USD).toBe('984.25');

    // notifications are wired to the new service's bus
    await advanceUntil(() => staff.fresh.find((m) => m.text.includes(`Order ${orderId} completed`)), 'completion after restart');
  });
});
