import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, waitFor } from './fake-telegram.js';
import { settle, World, type Chat } from './harness.js';

/**
 * Reviews are told: the person who placed an order that goes to a manual check hears so, unasked, with its
 * number (owners too, by their /notices), and again at the outcome.
 */

let w: World;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

/** Staff order 50 stars for the recipient in the bot; answers the order's number. */
async function orderStars(chat: Chat, recipient: string): Promise<string> {
  await chat.say('/order');
  const products = await chat.expectMenu(/What would you like to order\?|Что заказать\?/);
  await chat.press(products, button(products, /Stars|Звёзды/));
  const amounts = await chat.expectMenu(/How many stars\?|Сколько звёзд\?/);
  await chat.press(amounts, button(amounts, /^50$/));
  await chat.expect(/Send the recipient|Отправьте имя пользователя получателя/);
  await chat.say(recipient);
  const confirm = await chat.expectMenu(/Please check the order|Проверьте заказ/);
  await chat.press(confirm, button(confirm, /Confirm|Подтвердить/));
  const accepted = await chat.expect(/accepted|принят/);
  return /PA-\d+/.exec(accepted.text)![0];
}

async function advanceUntil<T>(find: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 40; i++) {
    const found = find();
    if (found) return found;
    await w.t.advance(5);
    await settle(w, 30);
  }
  return waitFor(find, what);
}

describe('orders in a manual check', () => {
  it('when a staff member’s order goes to review, then they and the owners who hear of failures are told with its number, and again at the outcome', async () => {
    const p = await w.t.newPartner();
    const staff = await w.linkedChat(p.id, 'staff', 'en');
    const otherStaff = await w.linkedChat(p.id, 'staff', 'en');
    const owner = await w.linkedChat(p.id, 'owner', 'ru');
    const quietOwner = await w.linkedChat(p.id, 'owner', 'en');
    // the quiet owner does not follow the team's orders
    await quietOwner.say('/notices');
    const menu = await quietOwner.expectMenu('Notices in this chat');
    await quietOwner.press(menu, button(menu, 'Team members’ orders'));
    await settle(w);

    const number = await orderStars(staff, 'unconfirmed_rita');
    const told = await advanceUntil(() => staff.all.find((m) => m.text.startsWith(`⏳ Order ${number} is being checked by support`)), 'the review notice');
    expect(told.text).toBe(
      `⏳ Order ${number} is being checked by support: 50 stars for @unconfirmed_rita.\nIt did not go through automatically; the money is not refunded yet. You will hear the outcome here.`,
    );
    const ruTold = await waitFor(() => owner.all.find((m) => m.text.includes(number)), 'the owner’s review notice');
    expect(ruTold.text).toBe(`⏳ Заказ ${number} проверяет поддержка: 50 звёзд для @unconfirmed_rita.\nОн не прошёл автоматически; деньги пока не возвращены. Итог придёт сюда.`);
    await settle(w);
    expect(otherStaff.all.filter((m) => m.text.includes(number))).toEqual([]);
    expect(quietOwner.all.filter((m) => m.text.includes(number))).toEqual([]);
    // told once, however long the check takes
    await w.t.advance(600);
    await settle(w);
    expect(staff.all.filter((m) => m.text.includes(`${number} is being checked`))).toHaveLength(1);

    // support delivers it (the operator API): the same people hear it
    const orderId = (await p.call('GET', '/orders')).body.items[0].order_id as string;
    expect((await w.t.admin('POST', `/orders/${orderId}/resolve`, { outcome: 'delivered' })).status).toBe(200);
    // the receipt says support checked it
    await staff.expect(`✅ Order ${number} completed: support checked the delivery\n50 stars for @unconfirmed_rita\nPaid: 0.79 USD`);
    await owner.expect(`✅ Заказ ${number} выполнен: поддержка проверила доставку\n50 звёзд для @unconfirmed_rita\nОплачено: 0,79 USD`);
    await settle(w);
    expect(quietOwner.all.filter((m) => m.text.includes(number))).toEqual([]);
  });

  it('when the owner who was told switches failed orders off, then the outcome (a refund) still reaches them, once', async () => {
    const p = await w.t.newPartner();
    const owner = await w.linkedChat(p.id, 'owner', 'en');
    const number = await orderStars(owner, 'unconfirmed_sam');
    await advanceUntil(() => owner.all.find((m) => m.text.startsWith(`⏳ Order ${number} is being checked by support`)), 'the review notice');
    await owner.say('/notices');
    const menu = await owner.expectMenu('Notices in this chat');
    await owner.press(menu, button(menu, 'Failed orders'));
    await settle(w);
    const orderId = (await p.call('GET', '/orders')).body.items[0].order_id as string;
    expect((await w.t.admin('POST', `/orders/${orderId}/resolve`, { outcome: 'refunded' })).status).toBe(200);
    // a review that ends in a refund says support checked it, and the money back
    const refunded = await owner.expect(`❌ Order ${number}: support checked it and refunded it`);
    expect(refunded.text).toContain('Refunded: 0.79 USD · balance after: 1,000.00 USD');
    await settle(w);
    expect(owner.all.filter((m) => m.text.includes(`Order ${number}: support checked`))).toHaveLength(1);
  });
});
