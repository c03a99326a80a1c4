import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestPartner } from '../helpers.js';
import { button, waitFor, type BotMessage } from './fake-telegram.js';
import { labels, settle, World, type Chat } from './harness.js';

/**
 * Issue 16: which notices a chat receives. By default what the bot always did (every linked chat hears of
 * every order's outcome, owners of top-ups and a failing webhook); /notices switches each per chat, stored
 * in the service database.
 */

let w: World;
beforeAll(async () => {
  w = await World.start();
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
const heard = (chat: Chat, orderId: string) => chat.all.filter((m) => m.text.includes(orderId));

/** Advances the service clock until the order is finished (deliveries take a few seconds each). */
async function finish(p: TestPartner, orderId: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if ((await p.call('GET', `/orders/${orderId}`)).body.status !== 'processing') break;
    await w.t.advance(5);
  }
  await settle(w);
}

/** Stars ordered by `chat` through the bot: the order id. */
async function botOrder(chat: Chat, recipient: string): Promise<string> {
  await chat.say('/order');
  const products = await chat.expectMenu('What would you like to order?');
  await chat.press(products, button(products, 'Stars'));
  const amounts = await chat.expectMenu('How many stars?');
  await chat.press(amounts, button(amounts, /^50$/));
  await chat.expect('Send the recipient');
  await chat.say(recipient);
  const confirm = await chat.expectMenu('Please check the order');
  await chat.press(confirm, button(confirm, 'Confirm'));
  const accepted = await chat.expect('accepted');
  return /PA-\d+/.exec(accepted.text)![0];
}

describe('notices per chat', () => {
  it('by default every linked chat hears of every API order; staff hear each team order, owners a daily digest of the completed ones (English and Russian)', async () => {
    const p = await w.t.newPartner();
    const owner = await linked(p, 'owner');
    const ruOwner = await linked(p, 'owner', 'ru');
    const staff = await linked(p, 'staff');
    const byStaff = await botOrder(staff, 'nina_user');
    const byApi = (await p.order('stars', { quantity: 50, recipient: 'olaf_user' })).body.order_id as string;
    await finish(p, byStaff);
    await finish(p, byApi);
    for (const id of [byStaff, byApi]) expect(heard(staff, id).filter((m) => m.text.includes('completed'))).toHaveLength(1);
    for (const chat of [owner, ruOwner]) {
      expect(heard(chat, byApi)).toHaveLength(1);
      expect(heard(chat, byStaff)).toEqual([]);
    }
    // a day after they linked: one digest each, in their language
    await w.t.advance(24 * 3600);
    const digest = await owner.expect('📊 Your team’s orders completed from');
    expect(digest.text.split('\n').slice(1)).toEqual(['⭐ Stars: 1 (50 stars)', 'Spent: 0.79 USD', '/orders lists them; in /notices they can be told one by one instead.']);
    expect(digest.text.split('\n')[0]).toMatch(/^📊 Your team’s orders completed from \d{4}-\d\d-\d\d \d\d:\d\d UTC to \d{4}-\d\d-\d\d \d\d:\d\d UTC: 1\.$/);
    const ruDigest = await ruOwner.expect('📊 Заказы вашей команды, выполненные с');
    expect(ruDigest.text.split('\n').slice(1, 3)).toEqual(['⭐ Звёзды: 1 (50 звёзд)', 'Потрачено: 0,79 USD']);
    // nothing to tell the next day: no digest
    await settle(w);
    const before = owner.all.length;
    await w.t.advance(24 * 3600);
    await settle(w);
    expect(owner.all.length).toBe(before);
    expect(staff.all.some((m) => m.text.startsWith('📊'))).toBe(false);
  });

  it('when the owner switches off the team’s orders and top-ups, then staff orders and top-ups stay quiet there; own and API orders are still told', async () => {
    const p = await w.t.newPartner();
    const owner = await linked(p, 'owner');
    const staff = await linked(p, 'staff');

    await owner.say('/notices');
    const menu = await owner.expectMenu('Notices in this chat (🔔 on, 🔕 off). Tap a button to switch one:');
    expect(labels(menu)).toEqual([
      '🔔 Completed orders',
      '🔔 Failed orders',
      '📊 Team members’ orders (daily digest, failures each one)',
      '🔔 API orders',
      '🔔 Top-ups credited',
      '🔔 Webhook failing',
      '✔ Done',
    ]);
    expect(menu.text).toContain('📊 Team members’ orders (daily digest, failures each one): orders placed by others of the team, in the bot or the dashboard');
    await owner.press(menu, button(menu, 'Team members’ orders'));
    await waitFor(() => labels(current(menu)).includes('🔕 Team members’ orders (off)'), 'the menu redrawn');
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload.text).toBe('Team members’ orders: off.');
    expect(current(menu).text).toContain('🔕 Team members’ orders (off): orders placed by others');
    await owner.press(current(menu), button(current(menu), 'Top-ups credited'));
    await waitFor(() => labels(current(menu)).includes('🔕 Top-ups credited'), 'the menu redrawn');
    await owner.press(current(menu), button(current(menu), 'Done'));
    await waitFor(() => current(menu).buttons.length === 0, 'the menu closed');
    expect(current(menu).text).toBe(
      'Notices saved. On: Completed orders, Failed orders, API orders, Webhook failing. Off: Team members’ orders (off), Top-ups credited. Change them with /notices.',
    );

    // staff's menu has no owners' news, and staff's own chat is unchanged
    await staff.say('/notices');
    const staffMenu = await staff.expectMenu('Notices in this chat');
    expect(labels(staffMenu)).toEqual(['🔔 Completed orders', '🔔 Failed orders', '🔔 Team members’ orders (each one)', '🔔 API orders', '✔ Done']);
    await staff.press(staffMenu, button(staffMenu, 'Done'));
    await waitFor(() => current(staffMenu).buttons.length === 0, 'closed');

    const byStaff = await botOrder(staff, 'petra_user');
    const byOwner = await botOrder(owner, 'quinn_user');
    const byApi = (await p.order('stars', { quantity: 50, recipient: 'rosa_user' })).body.order_id as string;
    for (const id of [byStaff, byOwner, byApi]) await finish(p, id);
    expect(heard(owner, byStaff)).toEqual([]);
    expect(heard(owner, byOwner).filter((m) => m.text.includes('completed'))).toHaveLength(1);
    expect(heard(owner, byApi)).toHaveLength(1);
    for (const id of [byStaff, byOwner, byApi]) expect(heard(staff, id).filter((m) => m.text.includes('completed'))).toHaveLength(1);

    w.t.deps.bus.emit('topup_credited', { partnerId: p.id, topupId: 'tp_quiet', currency: 'USD', amount: '25.00' });
    await settle(w);
    expect(owner.all.some((m) => m.text.includes('Top-up credited'))).toBe(false);

    // the setting is stored: a new menu shows it
    await owner.say('/notices');
    const again = await owner.expectMenu('Notices in this chat');
    expect(labels(again)).toContain('🔕 Team members’ orders (off)');
    // and on to each one
    await owner.press(again, button(again, 'Team members’ orders'));
    await waitFor(() => labels(current(again)).includes('🔔 Team members’ orders (each one)'), 'each one');
    expect(labels(again)).toContain('🔔 API orders');
  });

  it('when staff switch off failed orders and API orders, then a failed API order is not told there, and the owner still hears it', async () => {
    const p = await w.t.newPartner();
    const owner = await linked(p, 'owner');
    const staff = await linked(p, 'staff', 'ru');
    await staff.say('/notices');
    const older = await staff.expectMenu('Уведомления в этом чате');
    await staff.say('/notices');
    const menu = await staff.expectMenu('Уведомления в этом чате');
    expect(labels(menu)).toEqual(['🔔 Выполненные заказы', '🔔 Невыполненные заказы', '🔔 Заказы коллег (каждый)', '🔔 Заказы через API', '✔ Готово']);
    await staff.press(menu, button(menu, 'Заказы через API'));
    await waitFor(() => labels(current(menu)).includes('🔕 Заказы через API'), 'switched');
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload.text).toBe('Выключено.');
    // the older menu's button asks for what it showed ("switch off"): nothing flips back, and that menu shows the truth
    await staff.press(older, button(older, 'Заказы через API'));
    await waitFor(() => labels(current(older)).includes('🔕 Заказы через API'), 'the older menu redrawn');
    expect(labels(current(menu))).toContain('🔕 Заказы через API');
    await staff.press(current(menu), button(current(menu), 'Невыполненные'));
    await waitFor(() => labels(current(menu)).includes('🔕 Невыполненные заказы'), 'switched');
    // and back on
    await staff.press(current(menu), button(current(menu), 'Невыполненные'));
    await waitFor(() => labels(current(menu)).includes('🔔 Невыполненные заказы'), 'switched on');
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload.text).toBe('Включено.');
    await staff.press(current(menu), button(current(menu), 'Готово'));
    await waitFor(() => current(menu).text.startsWith('Уведомления сохранены. Включены: Выполненные заказы, Невыполненные заказы, Заказы коллег (каждый). Выключены: Заказы через API.'), 'summary');

    const failed = (await p.order('stars', { quantity: 50, recipient: 'failstars_sam' })).body.order_id as string;
    await finish(p, failed);
    expect(heard(staff, failed)).toEqual([]);
    const told = heard(owner, failed);
    expect(told).toHaveLength(1);
    expect(told[0].text).toContain(`❌ Order ${failed} failed`);
  });

  it('/notices in a group says it sets the caller’s own notices, in their chat with the bot', async () => {
    const p = await w.t.newPartner();
    const owner = await linked(p, 'owner');
    const group = w.chat(owner.user, -1_000_880);
    await group.say('/notices');
    const menu = await group.expectMenu('Your notices, in your private chat with me where you linked your account (not this group).');
    await group.press(menu, button(menu, 'Top-ups credited'));
    await waitFor(() => labels(current(menu)).includes('🔕 Top-ups credited'), 'switched');
    await owner.say('/notices');
    const mine = await owner.expectMenu('Notices in this chat');
    expect(labels(mine)).toContain('🔕 Top-ups credited');
  });

  it('staff cannot switch the owners’ news, even with a made-up button', async () => {
    const p = await w.t.newPartner();
    const staff = await linked(p, 'staff');
    await staff.say('/notices');
    const menu = await staff.expectMenu('Notices in this chat');
    w.tg.press(staff.user, menu, 'nt:topup:0');
    await settle(w);
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload.text).toBe('Only the account owner can do this.');
    expect(current(menu).text).toBe(menu.text);
  });
});

describe('a failing webhook', () => {
  it('owners hear of it at most once a day, and not when they switched it off', async () => {
    const p = await w.t.newPartner();
    const owner = await linked(p, 'owner');
    const giveUp = (orderId: string) =>
      w.t.deps.bus.emit('alert', { kind: 'webhook_gave_up', webhookId: `wh-${orderId}`, orderId, partnerId: p.id, event: 'order.completed', reason: 'timeout' });
    giveUp('PA-700001');
    const gaveUp = await owner.expect('Your webhook server did not accept the “order completed” event for order PA-700001, and the last retry is over: the server did not answer in time.');
    expect(gaveUp.text).not.toMatch(/order\.completed|GET \/orders/);
    giveUp('PA-700002');
    await settle(w);
    expect(owner.all.some((m) => m.text.includes('PA-700002'))).toBe(false);
    await w.t.advance(24 * 3600);
    giveUp('PA-700003');
    await owner.expect('PA-700003');

    await owner.say('/notices');
    const menu = await owner.expectMenu('Notices in this chat');
    await owner.press(menu, button(menu, 'Webhook failing'));
    await waitFor(() => labels(current(menu)).includes('🔕 Webhook failing'), 'switched off');
    await w.t.advance(24 * 3600);
    giveUp('PA-700004');
    await settle(w);
    expect(owner.all.some((m) => m.text.includes('PA-700004'))).toBe(false);
  });
});
