import { createInvite } from '../../src/app/invites.js';
import { partnerView } from '../../src/app/partners.js';
import { listTeam, unlinkMember } from '../../src/app/team.js';
import { deepLink } from '../private-chat.js';
import * as commonView from '../views/common.js';
import * as teamView from '../views/team.js';
import type { Member } from '../views/team.js';
import { flowConversation, type FlowDeps } from './flow.js';

/**
 * /team (owners): the people linked to the partner with their roles (`listTeam`, as the dashboard's Team
 * tab), a button per other person to remove them, asked once more, then `unlinkMember` (the same rule and
 * audit as the dashboard: nobody removes themselves, and the removed person's open bot actions end); and
 * "Invite": owner or staff, then a one-time invite link (`createInvite`, as the dashboard makes it). An
 * invite link is a credential, so it is made only in a private chat: in a group the button opens the
 * private chat, whose `/start invite` lands here with `invite` set. All in one message.
 */
export const TEAM_CONVERSATION = 'team';

export function teamConversation(env: { deps: FlowDeps }) {
  const { deps } = env;
  return flowConversation(deps, '/team', async (flow, partnerId: number, invite?: boolean) => {
    const { conversation, t, ctx } = flow;
    const me = ctx.from?.id ?? 0;
    const actor = `telegram:${me}`;
    const team = await conversation.external(() => {
      const name = partnerView(deps, partnerId).name;
      const members = listTeam(deps, partnerId).items.map((m): Member => ({ telegramId: m.telegram_id, name: m.name, role: m.role, linkedAt: m.linked_at }));
      return { partner: t.common.quoted(name), members };
    });
    const others = team.members.filter((m) => m.telegramId !== me);

    const atList = flow.checkpoint();
    let action = invite ? 'invite' : '';
    if (!invite) {
      const inviteButton = flow.inGroup
        ? { text: t.team.btnInvitePrivate, url: deepLink(ctx.me.username, 'invite') }
        : flow.button(t.team.btnInvite, 'invite');
      const list = await flow.menu(teamView.list(t, team.partner, team.members, me), [
        ...others.map((m) => [flow.button(teamView.btnRemove(t, m), `tm:${m.telegramId}`)]),
        [inviteButton],
      ]);
      action = (await flow.choose(list)).action;
    }

    if (action === 'invite') {
      const role = await flow.menu(t.team.chooseInviteRole(team.partner), [[flow.button(t.team.btnInviteStaff, 'iv:staff'), flow.button(t.team.btnInviteOwner, 'iv:owner')]], invite ? {} : { back: atList });
      const picked = await flow.choose(role);
      const which = picked.action === 'iv:owner' ? 'owner' : picked.action === 'iv:staff' ? 'staff' : null;
      if (!which) return conversation.skip();
      const r = await conversation.external(() => flow.guarded(() => createInvite(deps, partnerId, which, actor)));
      if (!r.ok) return void (await flow.done(commonView.errorText(t, r)));
      return void (await flow.done(teamView.inviteMade(t, team.partner, which, r.value.link), { linkPreview: false }));
    }

    const who = others.find((m) => action === `tm:${m.telegramId}`);
    if (!who) return conversation.skip();
    const sure = await flow.menu(teamView.confirmRemove(t, who), [[flow.button(t.team.btnYesRemove, 'rm')]], { back: atList });
    const yes = await flow.choose(sure);
    if (yes.action !== 'rm') return conversation.skip();
    const r = await conversation.external(() => flow.guarded(() => unlinkMember(deps, partnerId, who.telegramId, me)));
    if (r.ok) return void (await flow.done(teamView.removed(t, who)));
    await flow.done(r.code === 'not_found' ? t.team.gone : commonView.errorText(t, r));
  });
}
