import { Composer } from 'grammy';
import { partnerActive } from '../../src/app/partners.js';
import { account } from '../../src/app/account.js';
import type { BotContext } from '../context.js';
import * as commonView from '../views/common.js';

/** /balance: both balances (staff and owner). */
export function balanceFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();
  c.command('balance', async (ctx) => {
    const { deps } = ctx.env;
    const partnerId = ctx.link!.partnerId;
    const me = account(deps, partnerId);
    await ctx.reply(commonView.balance(ctx.t, me.balances.USD, me.balances.TON, partnerActive(deps, partnerId)));
  });
  return c;
}
