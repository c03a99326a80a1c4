import { orderNumber } from '../../domain/order-number.js';
import { openPremiumFor } from '../../store/orders-repo.js';
import type { Deps } from '../deps.js';

/**
 * The unfinished Premium order of an account, if any: a second one is refused (`deferred_order_exists`,
 * partner-api.md States rule 1), so the bot says so at the recipient step. Its short number is named only
 * to the partner who placed it.
 */
export function pendingPremium(deps: Pick<Deps, 'db'>, partnerId: number, account: string): { number: string | null } | null {
  const o = openPremiumFor(deps.db, account);
  if (!o) return null;
  return { number: o.partnerId === partnerId ? orderNumber(o.seq) : null };
}
