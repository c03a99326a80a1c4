import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initData, raw } from '../app-api/app-helpers.js';
import { button, waitFor } from './fake-telegram.js';
import { settle, World, type Chat } from './harness.js';

/**
 * A flow stops when its person loses the right to it: the link and the role are checked again at every step
 * (staff /order included), and unlinking ends the person's open flows. The flow's message then says why, in
 * the person's language, naming the partner: removed from its team, linked to another partner, or another
 * role; and that nothing was done (never the text for strangers).
 */

let w: World;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

/** Another owner takes `who` off the team in the Mini App (DELETE /team/{id}). */
async function unlinkInApp(byOwner: Chat, who: Chat): Promise<void> {
  await settle(w); // the bot has stored the conversation of the update in hand
  const auth = `tma ${initData(byOwner.user.id, { token: w.tg.token, authDate: w.t.deps.clock.now() })}`;
  const r = await raw(w.t, 'DELETE', `/team/${who.user.id}`, undefined, { authorization: auth });
  expect(r.status).toBe(200);
}

/** `who` opens another invite of `partnerId` with `role` (a new role, or another partner). */
async function relink(who: Chat, partnerId: number, role: 'owner' | 'staff'): Promise<void> {
  await w.link(who.user, partnerId, role);
}

const keysIssued = (partnerId: number) =>
  (w.t.db.$client.prepare("select count(*) as n from audit_log where action like 'key.%' and target = ?").get(String(partnerId)) as { n: number }).n;
const lastAnswer = () => w.tg.callsOf('answerCallbackQuery').at(-1)!.payload;

async function apikeyMenu(owner: Chat) {
  await owner.say('/apikey');
  return owner.expectMenu('Issue a new API key');
}

async function starsConfirmation(chat: Chat) {
  await chat.say('/order');
  const products = await chat.expectMenu(/What would you like to order|Что заказать/);
  await chat.press(products, button(products, /Stars|Звёзды/));
  const amounts = await chat.expectMenu(/How many stars|Сколько звёзд/);
  await chat.press(amounts, button(amounts, /^100$/));
  await chat.expect(/Send the recipient|Отправьте имя пользователя получателя/);
  await chat.say('@alice_user');
  return chat.expectMenu(/Please check the order|Проверьте заказ/);
}

describe('a removed owner', () => {
  it('pressing "Issue" on an /apikey menu opened before the unlink gets nothing; the partner’s key is untouched and the menu loses its buttons', async () => {
    const p = await w.t.newPartner();
    const keeper = await w.linkedChat(p.id, 'owner');
    const removed = await w.linkedChat(p.id, 'owner');
    const menu = await apikeyMenu(removed);
    const before = keysIssued(p.id);
    await unlinkInApp(keeper, removed);
    // their conversation ended with the link
    const rows = w.t.db.$client.prepare('select key from bot_sessions where key like ?').all(`conversation:%:${removed.user.id}`);
    expect(rows).toEqual([]);

    await removed.press(menu, button(menu, 'without IP limit'));
    await settle(w);
    const why = 'You were removed from the team of “Test partner”, so this API key issue was stopped: no key was issued.';
    expect(lastAnswer()).toMatchObject({ text: why, show_alert: true });
    expect(removed.fresh).toEqual([]);
    expect(w.current(menu).text).toBe(why);
    expect(w.current(menu).buttons).toEqual([]);
    expect((await p.call('GET', '/me')).status).toBe(200);
    expect(keysIssued(p.id)).toBe(before);
    expect(w.tg.messages.some((m) => /pk_live_/.test(m.text))).toBe(false);
  });

  it('an owner made staff meanwhile: pressing "Issue" stops the flow with a toast, nothing issued', async () => {
    const p = await w.t.newPartner();
    const owner = await w.linkedChat(p.id, 'owner');
    await w.linkedChat(p.id, 'owner'); // another owner: the first may become staff
    const menu = await apikeyMenu(owner);
    await relink(owner, p.id, 'staff');
    const before = keysIssued(p.id);
    await owner.press(menu, button(menu, 'without IP limit'));
    await waitFor(() => w.current(menu).buttons.length === 0, 'the menu closed');
    await settle(w);
    const why = 'Your role at “Test partner” has changed, so this API key issue was stopped: no key was issued.';
    expect(lastAnswer()).toMatchObject({ text: why, show_alert: true });
    expect(w.current(menu).text).toBe(why);
    expect(owner.fresh).toEqual([]);
    expect(keysIssued(p.id)).toBe(before);
    expect((await p.call('GET', '/me')).status).toBe(200);
  });

  it('an owner made staff while the top-up amount is asked: the typed amount is refused, no request made (Russian)', async () => {
    const p = await w.t.newPartner();
    const owner = await w.linkedChat(p.id, 'owner', 'ru');
    await w.linkedChat(p.id, 'owner'); // another owner: the first may become staff
    await owner.say('/topup');
    const m = await owner.expectMenu('Какой баланс пополнить');
    await owner.press(m, button(m, 'USD (оплата в USDT)'));
    const nets = await owner.expectMenu('В какой сети');
    await owner.press(nets, button(nets, 'TRC-20'));
    await owner.expect('Сколько USD?');
    await relink(owner, p.id, 'staff');
    await owner.say('25');
    // the question's own message says so (no new message)
    const stop = await owner.expect('Ваша роль у партнёра');
    expect(stop.text).toBe('Ваша роль у партнёра «Test partner» изменилась, поэтому действие (пополнение) остановлено: заявка на пополнение не создана.');
    await settle(w);
    expect(owner.fresh).toHaveLength(0);
    const requests = w.t.db.$client.prepare("select count(*) as n from audit_log where action like 'topup_request%' and target = ?").get(String(p.id)) as { n: number };
    expect(requests.n).toBe(0);
  });
});

describe('staff /order', () => {
  it('unlinked at the confirmation: Confirm makes no order and debits nothing', async () => {
    const p = await w.t.newPartner();
    const owner = await w.linkedChat(p.id, 'owner');
    const staff = await w.linkedChat(p.id, 'staff');
    const confirm = await starsConfirmation(staff);
    await unlinkInApp(owner, staff);
    await staff.press(confirm, button(confirm, 'Confirm'));
    await settle(w);
    // the confirmation itself says he was removed and nothing was ordered: not the text for strangers
    const why = 'You were removed from the team of “Test partner”, so this order was stopped: nothing was ordered.';
    expect(lastAnswer()).toMatchObject({ text: why, show_alert: true });
    expect(w.current(confirm).text).toBe(why);
    expect(w.current(confirm).buttons).toEqual([]);
    expect(staff.fresh).toEqual([]);
    expect((await p.call('GET', '/orders')).body.items).toEqual([]);
    expect((await p.call('GET', '/me')).body.balances.USD).toBe('1000.00');
  });

  it('moved to another partner at the confirmation: Confirm orders for neither (Russian)', async () => {
    const p = await w.t.newPartner();
    const other = await w.t.newPartner();
    const staff = await w.linkedChat(p.id, 'staff', 'ru');
    const confirm = await starsConfirmation(staff);
    await relink(staff, other.id, 'staff');
    await staff.press(confirm, button(confirm, 'Подтвердить'));
    await waitFor(() => w.current(confirm).buttons.length === 0, 'the confirmation closed');
    await settle(w);
    const why = 'Ваш аккаунт теперь привязан к другому партнёру, поэтому действие (заказ) для «Test partner» остановлено: ничего не заказано.';
    expect(lastAnswer().text).toBe(why);
    expect(w.current(confirm).text).toBe(why);
    expect((await p.call('GET', '/orders')).body.items).toEqual([]);
    expect((await other.call('GET', '/orders')).body.items).toEqual([]);
    // the person may start afresh for the partner they are linked to now
    const again = await starsConfirmation(staff);
    await staff.press(again, button(again, 'Подтвердить'));
    await staff.expect('принят');
    expect((await other.call('GET', '/orders')).body.items).toHaveLength(1);
  });

  it('unlinked at the confirmation, in Russian: the confirmation says so in Russian', async () => {
    const p = await w.t.newPartner();
    const owner = await w.linkedChat(p.id, 'owner');
    const staff = await w.linkedChat(p.id, 'staff', 'ru');
    const confirm = await starsConfirmation(staff);
    await unlinkInApp(owner, staff);
    await staff.press(confirm, button(confirm, 'Подтвердить'));
    await settle(w);
    const why = 'Вас удалили из команды «Test partner», поэтому действие (заказ) остановлено: ничего не заказано.';
    expect(lastAnswer()).toMatchObject({ text: why, show_alert: true });
    expect(w.current(confirm).text).toBe(why);
    expect((await p.call('GET', '/orders')).body.items).toEqual([]);
  });

  it('unlinked at the confirmation in a team group: his Confirm there is told the same; a teammate’s tap on it is told whose it is', async () => {
    const p = await w.t.newPartner();
    const owner = await w.linkedChat(p.id, 'owner');
    const sam = await w.linkedChat(p.id, 'staff');
    const mate = await w.linkedChat(p.id, 'staff', 'ru');
    const group = w.chat(sam.user, -1_000_700);
    const mateInGroup = w.chat(mate.user, -1_000_700);
    await group.say('/order');
    const products = await group.expectMenu('What would you like to order?');
    await group.press(products, button(products, 'Stars'));
    const amounts = await group.expectMenu('How many stars?');
    await group.press(amounts, button(amounts, /^100$/));
    const who = await group.expect('Send the recipient');
    await group.reply(who, '@alice_user');
    const confirm = await group.expectMenu('Please check the order');
    // a teammate presses Sam's Confirm: told whose order it is, in their language; nothing happens
    await mateInGroup.press(confirm, button(confirm, 'Confirm'));
    await settle(w);
    expect(lastAnswer()).toMatchObject({ text: `Это действие (заказ) пользователя ${sam.user.first_name}: нажимать его кнопки может только ${sam.user.first_name}.`, show_alert: true });
    expect(w.current(confirm).buttons.length).toBeGreaterThan(0);
    expect((await p.call('GET', '/orders')).body.items).toEqual([]);
    // Sam is removed; his Confirm in the group then says so
    await unlinkInApp(owner, sam);
    await group.press(confirm, button(confirm, 'Confirm'));
    await settle(w);
    const why = 'You were removed from the team of “Test partner”, so this order was stopped: nothing was ordered.';
    expect(lastAnswer()).toMatchObject({ text: why, show_alert: true });
    expect(w.current(confirm).text).toBe(why);
    expect((await p.call('GET', '/orders')).body.items).toEqual([]);
  });

  it('a user who stays linked goes on as before (the check does not get in the way)', async () => {
    const p = await w.t.newPartner();
    const staff = await w.linkedChat(p.id, 'staff');
    const confirm = await starsConfirmation(staff);
    await staff.press(confirm, button(confirm, 'Confirm'));
    await staff.expect('accepted');
    expect((await p.call('GET', '/orders')).body.items).toHaveLength(1);
  });
});
