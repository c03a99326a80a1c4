import { partnerView } from '../../src/app/partners.js';
import { listTeam, unlinkMember } from '../../src/app/team.js';
import * as commonView from '../views/common.js';
import * as teamView from '../views/team.js';
import type { Member } from '../views/team.js';
import { flowConversation, type FlowDeps } from './flow.js';

/**
 * /team (owners): the people linked to the partner with their roles (`listTeam`, as the dashboard's Team
 * tab), a button per other person to remove them, asked once more, then `unlinkMember` (the same rule and
 * audit as the dashboard: nobody removes themselves, and the removed person's open bot actions end).
 */
export const TEAM_CONVERSATION = 'team';

export function teamConversation(env: { deps: FlowDeps }) {
  const { deps } = env;
  return flowConversation(deps, '/team', async (flow, partnerId: number) => {
    const { conversation, t, ctx } = flow;
    const me = ctx.from?.id ?? 0;
    const team = await conversation.external(() => {
      const name = partnerView(deps, partnerId).name;
      const members = listTeam(deps, partnerId).items.map((m): Member => ({ telegramId: m.telegram_id, name: m.name, role: m.role, linkedAt: m.linked_at }));
      return { partner: t.common.quoted(name), members };
    });
    const others = team.members.filter((m) => m.telegramId !== me);
    const text = teamView.list(t, team.partner, team.members, me);
    if (!others.length) return void (await ctx.reply(text));

    const atList = conversation.checkpoint();
    const list = await flow.menu(
      text,
      others.map((m) => [flow.button(teamView.btnRemove(t, m), `tm:${m.telegramId}`)]),
    );
    const picked = await flow.choose(list);
    const who = others.find((m) => picked.action === `tm:${m.telegramId}`);
    if (!who) return conversation.skip();
    await flow.settle(list);

    const sure = await flow.menu(teamView.confirmRemove(t, who), [[flow.button(t.team.btnYesRemove, 'rm')]], { back: atList });
    const yes = await flow.choose(sure);
    if (yes.action !== 'rm') return conversation.skip();
    const r = await conversation.external(() => flow.guarded(() => unlinkMember(deps, partnerId, who.telegramId, me)));
    if (r.ok) return void (await flow.settle(sure, teamView.removed(t, who)));
    await flow.settle(sure, r.code === 'not_found' ? t.team.gone : commonView.errorText(t, r));
  });
}
