import { orderOrigin } from '../domain/order-origin.js';
import { formatAmount, type Currency } from '../domain/money.js';
import { completedBetween } from '../store/orders-repo.js';
import type { Deps } from './deps.js';

/**
 * The daily digest of a partner's orders placed by other members of its team (in the bot or the dashboard),
 * completed in a window: how many of each kind and what they cost in all. API orders have their own notice
 * (`api`), and a chat's own orders are told one by one, so neither is counted.
 */
export interface TeamDigest {
  /** Completed orders counted. */
  count: number;
  stars: { orders: number; quantity: number };
  premium: { orders: number };
  gifts: { orders: number };
  /** What they cost, per currency with any ("120.50"). */
  spent: Partial<Record<Currency, string>>;
}

/** Orders created this long before the window are left out (a cheap bound of the walk over completed orders). */
const OLDEST_MS = 31 * 24 * 3600_000;

export function teamDigest(deps: Pick<Deps, 'db'>, partnerId: number, exceptTelegramIds: readonly number[], from: number, to: number): TeamDigest {
  const d: TeamDigest = { count: 0, stars: { orders: 0, quantity: 0 }, premium: { orders: 0 }, gifts: { orders: 0 }, spent: {} };
  const sums: Partial<Record<Currency, number>> = {};
  for (const o of completedBetween(deps.db, partnerId, from, to, from - OLDEST_MS)) {
    const origin = orderOrigin(o.idempotencyKey);
    if (origin.by === 'api') continue;
    if (origin.by === 'bot' && origin.telegramUserId !== null && exceptTelegramIds.includes(origin.telegramUserId)) continue;
    d.count++;
    if (o.type === 'stars') {
      d.stars.orders++;
      d.stars.quantity += o.quantity;
    } else if (o.type === 'premium') d.premium.orders++;
    else d.gifts.orders++;
    sums[o.currency] = (sums[o.currency] ?? 0) + o.amount;
  }
  for (const [c, v] of Object.entries(sums) as [Currency, number][]) d.spent[c] = formatAmount(v, c);
  return d;
}
