import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/secret-hash.js';
import { button, waitFor } from './fake-telegram.js';
import { labels, newUser, settle, World, type Chat } from './harness.js';

/**
 * Another partner's invite never moves someone silently: a person linked elsewhere is asked first, with what
 * they would lose ("You are the owner of A. Join B as staff and leave A?"); the invite stays unused until they
 * say yes; a partner's last owner is not taken from it; the other owners of the partner left are told.
 */
let w: World;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

async function partnerNamed(name: string): Promise<number> {
  return (await w.t.admin('POST', '/partners', { name })).body.partner_id as number;
}
async function invite(partnerId: number, role: 'owner' | 'staff'): Promise<string> {
  return (await w.t.admin('POST', `/partners/${partnerId}/invites`, { role })).body.code as string;
}
const linkOf = (userId: number) => w.t.db.$client.prepare('select partner_id as partnerId, role from bot_users where telegram_user_id = ?').get(userId) as { partnerId: number; role: string } | undefined;
const used = (code: string) => (w.t.db.$client.prepare('select used_at from invites where code_hash = ?').get(sha256Hex(code)) as { used_at: number | null } | undefined)?.used_at ?? null;
const named = (first_name: string, language_code = 'en') => ({ ...newUser(language_code), first_name });

describe('an invite for someone linked elsewhere', () => {
  it('English: the owner of A is asked before B’s staff invite moves them; “Stay” changes nothing; “Join” moves them and A’s other owner is told', async () => {
    const a = await partnerNamed('Alpha Shop');
    const b = await partnerNamed('Beta Store');
    const olga = w.chat(named('Olga'));
    await w.link(olga.user, a, 'owner');
    const anna = await w.linkedChat(a, 'owner');
    const bOwner = await w.linkedChat(b, 'owner');
    const code = await invite(b, 'staff');

    await olga.say(`/start ${code}`);
    const q = await olga.expectMenu('Join “Beta Store” as staff and leave “Alpha Shop”?');
    expect(q.text).toBe('You are the owner of “Alpha Shop”. Join “Beta Store” as staff and leave “Alpha Shop”? You would lose access to “Alpha Shop”: its orders, balances and notices.');
    expect(labels(q)).toEqual(['✅ Join “Beta Store”', '✖ Stay with “Alpha Shop”']);
    expect(linkOf(olga.user.id)).toEqual({ partnerId: a, role: 'owner' });
    expect(used(code)).toBeNull();

    await olga.press(q, button(q, 'Stay with'));
    await waitFor(() => w.current(q).text === 'Nothing changed: you stay with “Alpha Shop”.', 'stayed');
    expect(w.current(q).buttons).toEqual([]);
    expect(linkOf(olga.user.id)).toEqual({ partnerId: a, role: 'owner' });
    expect(used(code)).toBeNull();

    await olga.say(`/start ${code}`);
    const q2 = await olga.expectMenu('Join “Beta Store”');
    await olga.press(q2, button(q2, 'Join'));
    await waitFor(() => w.current(q2).text.startsWith('Done: this account is linked to “Beta Store” as staff.'), 'moved');
    expect(linkOf(olga.user.id)).toEqual({ partnerId: b, role: 'staff' });
    // A's other owner hears she left (not where to); B's owner hears she joined
    const told = await anna.expect('Olga left the team of “Alpha Shop”');
    expect(told.text).toBe('👋 Olga left the team of “Alpha Shop”: their account is now linked to another partner. /team lists the team.');
    expect(told.text).not.toContain('Beta');
    await bOwner.expect('👋 Olga joined the team of “Beta Store” as staff.');
    const audit = w.t.db.$client.prepare("select data from audit_log where action = 'invite.redeem' and target = ?").all(String(b)) as { data: string }[];
    expect(JSON.parse(audit.at(-1)!.data)).toMatchObject({ role: 'staff', left_partner_id: a, left_role: 'owner' });
  });

  it('English: the only owner of a partner is not taken from it, and the invite stays unused', async () => {
    const a = await partnerNamed('Solo Shop');
    const b = await partnerNamed('Other Store');
    const solo = await w.linkedChat(a, 'owner');
    const code = await invite(b, 'owner');
    await solo.say(`/start ${code}`);
    const m = await solo.expect('You are the only owner of “Solo Shop”');
    expect(m.text).toBe(
      'You are the only owner of “Solo Shop”, so this invite cannot take you from it: “Solo Shop” would have no owner. Add another owner first (/team → Invite → Owner), then open this invite again.',
    );
    expect(m.buttons).toEqual([]);
    expect(linkOf(solo.user.id)).toEqual({ partnerId: a, role: 'owner' });
    expect(used(code)).toBeNull();
    // the service refuses it too, whatever asks
    const { redeemInvite } = await import('../../src/app/invites.js');
    expect(() => redeemInvite(w.t.deps, code, solo.user.id, solo.chatId, 'en', null, { leave: true })).toThrow(expect.objectContaining({ code: 'last_owner' }));
  });

  it('Russian: staff of A asked before B’s owner invite; an owner asked before becoming staff of their own partner', async () => {
    const a = await partnerNamed('Ромашка');
    const b = await partnerNamed('Лютик');
    const ruOwner = await w.linkedChat(a, 'owner', 'ru');
    const staff = w.chat(named('Вера', 'ru'));
    await w.link(staff.user, a, 'staff');
    await staff.say(`/start ${await invite(b, 'owner')}`);
    const q = await staff.expectMenu('Перейти к партнёру «Лютик»');
    expect(q.text).toBe('Ваша роль у партнёра «Ромашка» — сотрудник. Перейти к партнёру «Лютик» с ролью «владелец» и выйти из «Ромашка»? Вы потеряете доступ к «Ромашка»: его заказам, балансам и уведомлениям.');
    expect(labels(q)).toEqual(['✅ Перейти в «Лютик»', '✖ Остаться в «Ромашка»']);
    await staff.press(q, button(q, 'Перейти'));
    await waitFor(() => w.current(q).text.startsWith('Готово: аккаунт привязан к партнёру «Лютик», роль — владелец.'), 'moved');
    await ruOwner.expect('👋 Вера больше не в команде «Ромашка»: аккаунт привязан к другому партнёру.');

    // an owner with another owner beside: asked before becoming staff
    const second = w.chat(named('Глеб', 'ru'));
    await w.link(second.user, a, 'owner');
    await ruOwner.say(`/start ${await invite(a, 'staff')}`);
    const demote = await ruOwner.expectMenu('Стать сотрудником «Ромашка»?');
    expect(labels(demote)).toEqual(['✅ Стать сотрудником', '✖ Остаться в «Ромашка»']);
    await ruOwner.press(demote, button(demote, 'Стать сотрудником'));
    await waitFor(() => linkOf(ruOwner.user.id)?.role === 'staff', 'staff now');
    await second.expect('теперь сотрудник в «Ромашка»');
    // the same partner and role again: nothing changes, nothing is asked
    await staff.say(`/start ${await invite(b, 'owner')}`);
    await staff.expect('Вы уже привязаны к партнёру «Лютик», роль — владелец: ничего не изменилось.');
  });

  it('in a group: the question is answered only by the person who opened the invite', async () => {
    const a = await partnerNamed('Gamma');
    const b = await partnerNamed('Delta');
    const owner = w.chat(named('Ivo'));
    await w.link(owner.user, a, 'owner');
    await w.linkedChat(a, 'owner');
    const bystander = await w.linkedChat(a, 'staff');
    const group = w.chat(owner.user, -1_000_990);
    const groupByStander: Chat = w.chat(bystander.user, -1_000_990);
    await group.say(`/start ${await invite(b, 'staff')}`);
    const q = await group.expectMenu('Join “Delta” as staff and leave “Gamma”?');
    await groupByStander.press(q, button(q, 'Join'));
    await settle(w);
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload).toMatchObject({ text: 'This question is for the person who opened the invite.', show_alert: true });
    expect(linkOf(bystander.user.id)).toEqual({ partnerId: a, role: 'staff' });
    await group.press(q, button(q, 'Join'));
    await waitFor(() => linkOf(owner.user.id)?.partnerId === b, 'moved');
  });
});
