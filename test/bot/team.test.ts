import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestPartner } from '../helpers.js';
import { button, waitFor } from './fake-telegram.js';
import { labels, newUser, settle, World, type Chat } from './harness.js';

/**
 * The owner controls the team in chat: /team lists and removes (the dashboard's rules: listTeam,
 * unlinkMember), owners hear who joined, order notices say who ordered, replacing a key or a secret is asked
 * once more, and a shown key or secret is hidden under a spoiler with a button that deletes it.
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

const named = (first_name: string, language_code = 'en') => ({ ...newUser(language_code), first_name });

async function join(p: TestPartner, user: ReturnType<typeof newUser>, role: 'owner' | 'staff'): Promise<Chat> {
  await w.link(user, p.id, role);
  return w.chat(user);
}

const teamIds = (partnerId: number) =>
  (w.t.db.$client.prepare('select telegram_user_id as id from bot_users where partner_id = ? order by telegram_user_id').all(partnerId) as { id: number }[]).map((r) => r.id);

describe('/team', () => {
  it('lists the linked people with their roles; the owner removes one after "Yes, remove"; their access ends', async () => {
    const p = await w.t.newPartner();
    const anna = await join(p, named('Anna'), 'owner');
    const boris = await join(p, named('Boris'), 'staff');

    await anna.say('/team');
    const list = await anna.expectMenu('Team of “Test partner”: 2 people.');
    expect(list.text.split('\n').slice(1, 3)).toEqual([
      expect.stringMatching(/^1\. Anna — owner \(you\), since \d{4}-\d\d-\d\d$/),
      expect.stringMatching(/^2\. Boris — staff, since \d{4}-\d\d-\d\d$/),
    ]);
    // nobody removes themselves: no button for Anna
    expect(labels(list)).toEqual(['✖ Remove Boris', '➕ Invite', '✖ Cancel']);
    await anna.press(list, button(list, 'Remove Boris'));
    const sure = await anna.expectMenu('Remove Boris (staff) from the team?');
    expect(sure.message_id).toBe(list.message_id);
    expect(labels(sure)).toEqual(['✅ Yes, remove', '◀ Back', '✖ Cancel']);
    expect(teamIds(p.id)).toContain(boris.user.id);
    await anna.press(sure, button(sure, 'Yes, remove'));
    await waitFor(() => w.current(sure).text === 'Boris was removed from the team.', 'the question answered in place');
    expect(w.current(sure).buttons).toEqual([]);
    expect(teamIds(p.id)).toEqual([anna.user.id]);
    // audited as the dashboard's removal is
    const audit = w.t.db.$client.prepare("select actor from audit_log where action = 'team.unlink' and target = ?").all(String(p.id));
    expect(audit).toEqual([{ actor: `telegram:${anna.user.id}` }]);
    await boris.say('/balance');
    await boris.expect('open the invite link');
  });

  it('staff are refused; an owner alone gets the list with only the invite button; in Russian for a Russian owner', async () => {
    const p = await w.t.newPartner();
    const staff = await join(p, named('Vera'), 'staff');
    await staff.say('/team');
    await staff.expect('Only the account owner can do this.');

    const q = await w.t.newPartner();
    const solo = await join(q, named('Глеб', 'ru'), 'owner');
    await solo.say('/team');
    const m = await solo.expect('Команда «Test partner»: 1 чел.');
    expect(labels(m)).toEqual(['➕ Пригласить', '✖ Отмена']);
    expect(m.text).toContain('1. Глеб — владелец (вы), с ');
    expect(m.text).toContain('Чтобы добавить человека, нажмите «Пригласить»: вы получите одноразовую ссылку для него.');
  });

  it('/team makes an invite in place: the role, then a one-time link that links whoever opens it (English; Russian; in a group only in the private chat)', async () => {
    const p = await w.t.newPartner();
    const owner = await join(p, named('Ines'), 'owner');
    await owner.say('/team');
    const list = await owner.expectMenu('Team of “Test partner”: 1 person.');
    await owner.press(list, button(list, 'Invite'));
    const role = await owner.expectMenu('Invite someone to “Test partner” as:');
    expect(role.message_id).toBe(list.message_id);
    expect(labels(role)).toEqual(['👤 Staff', '👑 Owner', '◀ Back', '✖ Cancel']);
    await owner.press(role, button(role, 'Staff'));
    const made = await owner.expect('➕ Invite to “Test partner” as staff');
    expect(made.message_id).toBe(list.message_id);
    expect(made.buttons).toEqual([]);
    const link = /https:\/\/t\.me\/partner_test_bot\?start=([A-Za-z0-9_-]+)/.exec(made.text)!;
    expect(link).not.toBeNull();
    // whoever opens it joins as staff
    const newcomer = w.chat(named('Jon'));
    await newcomer.say(`/start ${link[1]}`);
    await newcomer.expect('Done: this account is linked to “Test partner” as staff.');
    expect(teamIds(p.id)).toContain(newcomer.user.id);

    const ru = await join(p, named('Кира', 'ru'), 'owner');
    await ru.say('/team');
    const ruList = await ru.expectMenu('Команда «Test partner»');
    await ru.press(ruList, button(ruList, 'Пригласить'));
    const ruRole = await ru.expectMenu('Пригласить в «Test partner» с ролью:');
    await ru.press(ruRole, button(ruRole, 'Владелец'));
    const ruMade = await ru.expect('➕ Приглашение в «Test partner», роль — владелец');
    expect(ruMade.text).toMatch(/https:\/\/t\.me\/partner_test_bot\?start=/);

    // in a group the invite button opens the private chat (no link is made in the group)
    const group = w.chat(owner.user, -1_000_810);
    await group.say('/team');
    const inGroup = await group.expectMenu('Team of “Test partner”');
    const invite = inGroup.buttons.flat().find((b) => b.text.startsWith('➕'))!;
    expect(invite).toEqual({ text: '➕ Invite (in a private chat)', url: 'https://t.me/partner_test_bot?start=invite' });
    await group.say('/cancel');
    // the deep link opens the invite step there
    await owner.say('/start invite');
    const dmRole = await owner.expectMenu('Invite someone to “Test partner” as:');
    expect(labels(dmRole)).toEqual(['👤 Staff', '👑 Owner', '✖ Cancel']);
    expect(w.tg.to(group.chatId).some((m) => /start=[A-Za-z0-9_-]{16,}/.test(m.text))).toBe(false);
  });

  it('in Russian: the removal question and answer', async () => {
    const p = await w.t.newPartner();
    const owner = await join(p, named('Дарья', 'ru'), 'owner');
    await join(p, named('Егор', 'ru'), 'staff');
    await owner.say('/team');
    const list = await owner.expectMenu('Команда «Test partner»: 2 чел.');
    await owner.press(list, button(list, 'Убрать Егор'));
    const sure = await owner.expectMenu('Убрать Егор (сотрудник) из команды?');
    await owner.press(sure, button(sure, 'Да, убрать'));
    await waitFor(() => w.current(sure).text === 'Егор больше не в команде.', 'removed');
  });
});

describe('the owner hears of the team and of who ordered', () => {
  it('owners are told when someone joins (in their language), the newcomer is not', async () => {
    const p = await w.t.newPartner();
    const owner = await join(p, named('Fedor'), 'owner');
    const ruOwner = await join(p, named('Галина', 'ru'), 'owner');
    await owner.expect('👋 Галина joined the team of “Test partner” as owner. /team lists the team.');
    const staff = named('Hugo');
    await w.link(staff, p.id, 'staff');
    await owner.expect('👋 Hugo joined the team of “Test partner” as staff.');
    await ruOwner.expect('👋 Hugo теперь в команде «Test partner»: сотрудник. Команда — /team.');
    await settle(w);
    expect(w.tg.to(staff.id).filter((m) => m.text.startsWith('👋'))).toEqual([]);
  });

  it('an order notice names who ordered (not in the orderer’s own chat), or says it came over the API', async () => {
    const p = await w.t.newPartner();
    const owner = await join(p, named('Irina'), 'owner');
    const staff = await join(p, named('Jonas'), 'staff');
    // each of the team's orders told, rather than the owners' daily digest
    await owner.say('/notices');
    const menu = await owner.expectMenu('Notices in this chat');
    await owner.press(menu, button(menu, 'Team members’ orders'));
    await waitFor(() => labels(w.current(menu)).includes('🔕 Team members’ orders (off)'), 'off');
    await owner.press(w.current(menu), button(w.current(menu), 'Team members’ orders'));
    await waitFor(() => labels(w.current(menu)).includes('🔔 Team members’ orders (each one)'), 'each one');
    await staff.say('/order');
    const products = await staff.expectMenu('What would you like to order?');
    await staff.press(products, button(products, 'Stars'));
    const amounts = await staff.expectMenu('How many stars?');
    await staff.press(amounts, button(amounts, /^50$/));
    await staff.expect('Send the recipient');
    await staff.say('kate_user');
    const confirm = await staff.expectMenu('Please check the order');
    await staff.press(confirm, button(confirm, 'Confirm'));
    const orderId = await waitFor(() => staff.all.map((m) => /Order (PA-\d+) accepted/.exec(m.text)?.[1]).find(Boolean), 'the order accepted');
    const api = (await p.order('stars', { quantity: 50, recipient: 'leo_user' })).body.order_id as string;
    for (let i = 0; i < 40 && !owner.all.some((m) => m.text.includes(`${orderId} completed`)); i++) await w.t.advance(5);
    for (let i = 0; i < 40 && !owner.all.some((m) => m.text.includes(`${api} completed`)); i++) await w.t.advance(5);
    const toOwner = await waitFor(() => owner.all.find((m) => m.text.includes(`Order ${orderId} completed`)), 'the owner told');
    expect(toOwner.text.split('\n').at(-1)).toBe('Ordered by Jonas.');
    const toStaff = await waitFor(() => staff.all.find((m) => m.text.includes(`Order ${orderId} completed`)), 'the orderer told');
    expect(toStaff.text).not.toContain('Ordered by');
    const apiNotice = await waitFor(() => owner.all.find((m) => m.text.includes(`Order ${api} completed`)), 'the API order told');
    expect(apiNotice.text.split('\n').at(-1)).toBe('Placed over the API.');
  });
});

describe('replacing the API key or the webhook secret', () => {
  it('a working key is replaced only after "Yes, replace"; the new key comes under a spoiler with a button that deletes it', async () => {
    const p = await w.t.newPartner();
    const owner = await join(p, named('Kira'), 'owner');
    await owner.say('/apikey');
    const intro = await owner.expectMenu('Issue a new API key');
    await owner.press(intro, button(intro, 'without IP limit'));
    const sure = await owner.expectMenu('Replace the API key? The current key stops working at once');
    expect(labels(sure)).toEqual(['✅ Yes, replace', '◀ Back', '✖ Cancel']);
    // nothing replaced yet: the harness key still works
    expect((await p.call('GET', '/me')).status).toBe(200);
    await owner.press(sure, button(sure, 'Cancel'));
    await waitFor(() => w.current(sure).text === '✖ Cancelled.', 'cancelled');
    expect((await p.call('GET', '/me')).status).toBe(200);

    await owner.say('/apikey');
    const again = await owner.expectMenu('Issue a new API key');
    await owner.press(again, button(again, 'without IP limit'));
    const sure2 = await owner.expectMenu('Replace the API key?');
    await owner.press(sure2, button(sure2, 'Yes, replace'));
    const shown = await owner.expect('New API key');
    expect(shown.message_id).toBe(again.message_id); // shown in the task's message, which "Saved it" deletes
    expect(shown.parse_mode).toBe('HTML');
    expect(shown.text).toContain('The previous key no longer works.');
    const key = /<tg-spoiler><code>(pk_live_[A-Za-z0-9_-]+)<\/code><\/tg-spoiler>/.exec(shown.text)![1];
    expect((await w.t.partnerCall(key, 'GET', '/me')).status).toBe(200);
    expect((await p.call('GET', '/me')).status).toBe(401);
    expect(shown.buttons).toEqual([[{ text: '🗑 Saved it: delete this message', callback_data: 'sd' }]]);
    await owner.press(shown, 'sd');
    await waitFor(() => w.current(shown).deleted, 'the key message deleted');
    // the toast comes right after the deletion
    await waitFor(() => w.tg.callsOf('answerCallbackQuery').some((c) => c.payload.text === 'Deleted.'), 'the "Deleted." toast');
  });

  it('a webhook secret is regenerated only after "Yes, replace" (Russian); the address is cleared with a button', async () => {
    const p = await w.t.newPartner();
    const owner = await join(p, named('Лев', 'ru'), 'owner');
    await owner.say('/webhook');
    const menu = await owner.expectMenu('Вебхук');
    await owner.press(menu, button(menu, 'адрес'));
    await owner.expect('Отправьте адрес вебхука (https://…).');
    await owner.say('https://hooks.example.com/ru');
    const first = await owner.expect('Сохранено. Адрес: https://hooks.example.com/ru');
    expect(first.text).toMatch(/<tg-spoiler><code>whsec_[0-9a-f]+<\/code><\/tg-spoiler>/);
    expect(labels(first)).toEqual(['🗑 Сохранил(а): удалить это сообщение']);
    const secret = /whsec_[0-9a-f]+/.exec(first.text)![0];

    await owner.say('/webhook');
    const menu2 = await owner.expectMenu('Вебхук');
    await owner.press(menu2, button(menu2, 'Новый секрет'));
    const sure = await owner.expectMenu('Заменить секрет вебхука? Текущий секрет сразу перестанет работать');
    expect(labels(sure)).toEqual(['✅ Да, заменить', '◀ Назад', '✖ Отмена']);
    await owner.press(sure, button(sure, 'Да, заменить'));
    const regen = await owner.expect('Секрет вебхука');
    expect(/whsec_[0-9a-f]+/.exec(regen.text)![0]).not.toBe(secret);
    expect(regen.text).toContain('Прежний секрет больше не работает.');

    // clearing: a button under the question, no "-"
    await owner.say('/webhook');
    const menu3 = await owner.expectMenu('Вебхук');
    await owner.press(menu3, button(menu3, 'адрес'));
    const ask = await owner.expectMenu('Отправьте адрес вебхука (https://…). Чтобы остановить отправку, нажмите «Очистить адрес».');
    expect(labels(ask)).toEqual(['🗑 Очистить адрес', '◀ Назад', '✖ Отмена']);
    await owner.press(ask, button(ask, 'Очистить адрес'));
    await owner.expect('Сохранено с пустым адресом: вебхуки не отправляются.');
    expect((await w.t.admin('GET', `/partners/${p.id}`)).body.webhook.url).toBe('');
  });
});
