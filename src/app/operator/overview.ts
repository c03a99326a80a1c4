import { Decimal } from 'decimal.js';
import { formatAmount, type Currency } from '../../domain/money.js';
import { offsetIso } from '../../domain/time-format.js';
import { completedMarginSince, countDepositsWithStatus, countGaveUpSince, countInReview, ordersByHour, totalBalances } from '../../store/console-repo.js';
import type { Deps } from '../deps.js';
import type { SupplierFund } from './supplier-funds.js';

const HOUR = 3_600_000;

/**
 * The console's overview: what partners hold (liabilities) beside what the supplier accounts hold, and
 * whether each account covers what partners may order through it; what waits for the operator; the last
 * 24 hours of orders (by status, type and hour) and their margin.
 *
 * The last 24 hours are the current hour and the 23 before it, counted from order_stats_hourly (kept by
 * triggers, a few rows per hour whatever the volume). The margin is that of the orders completed in the
 * last 24 hours: each one's partner price less the supplier cost stored with it when it was priced, summed
 * per currency; an order made before costs were stored has none and is left out (counted in
 * `margin_24h_without_cost`, so the figure never pretends to be whole).
 */
export function operatorOverview(deps: Pick<Deps, 'db' | 'clock' | 'suppliers' | 'settings'>, funds: SupplierFund[]) {
  const now = deps.clock.now();
  const liab: Record<Currency, number> = { USD: 0, TON: 0 };
  for (const r of totalBalances(deps.db)) if (r.currency === 'USD' || r.currency === 'TON') liab[r.currency] = Number(r.total);

  const thisHour = Math.floor(now / HOUR);
  const fromHour = thisHour - 23;
  const byStatus: Record<string, number> = {};
  const byType: Record<string, number> = {};
  const perHour = new Array<number>(24).fill(0);
  for (const r of ordersByHour(deps.db, fromHour)) {
    const n = Number(r.orders);
    byStatus[r.status] = (byStatus[r.status] ?? 0) + n;
    byType[r.type] = (byType[r.type] ?? 0) + n;
    if (r.hour <= thisHour) perHour[r.hour - fromHour] += n;
  }
  const margin: Record<Currency, number> = { USD: 0, TON: 0 };
  let unknownCost = 0;
  for (const r of completedMarginSince(deps.db, now - 24 * HOUR)) {
    if (r.currency === 'USD' || r.currency === 'TON') margin[r.currency] += Number(r.margin);
    unknownCost += Number(r.unknown);
  }

  return {
    liabilities: { USD: formatAmount(liab.USD, 'USD'), TON: formatAmount(liab.TON, 'TON') },
    supplier_funds: funds.map((f) => ({ supplier: f.supplier, currency: f.currency, amount: f.amount, updated_at: f.updated_at })),
    coverage: coverageOf(deps, funds, liab),
    reviews_waiting: countInReview(deps.db),
    deposits_unmatched: countDepositsWithStatus(deps.db, 'unmatched'),
    webhooks_gave_up_24h: countGaveUpSince(deps.db, now - 24 * HOUR),
    orders_24h: { by_status: byStatus, by_type: byType },
    margin_24h: { USD: formatAmount(margin.USD, 'USD'), TON: formatAmount(margin.TON, 'TON') },
    margin_24h_without_cost: unknownCost,
    orders_per_hour: perHour.map((count, i) => ({ hour: offsetIso((fromHour + i) * HOUR), count })),
  };
}

/**
 * Each account that pays for a balance against that balance's liabilities, in the liabilities' currency
 * (TON held for USD orders at the gift market's reference rate): `covered` is false when partners could
 * order more through it than it can pay for.
 */
function coverageOf(deps: Pick<Deps, 'suppliers'>, funds: SupplierFund[], liab: Record<Currency, number>) {
  return funds
    .filter((f): f is SupplierFund & { pays: Currency } => f.pays !== undefined)
    .map((f) => {
      const held = new Decimal(f.amount);
      const inPaysCurrency =
        f.pays === f.currency ? held : f.pays === 'USD' && f.currency === 'TON' ? held.mul(deps.suppliers.gifts.tonUsdCents()).div(100) : held;
      const owed = new Decimal(formatAmount(liab[f.pays], f.pays));
      return {
        supplier: f.supplier,
        currency: f.pays,
        funds: inPaysCurrency.toFixed(f.pays === 'USD' ? 2 : 3, Decimal.ROUND_DOWN),
        liabilities: owed.toFixed(f.pays === 'USD' ? 2 : 3),
        covered: inPaysCurrency.gte(owed),
      };
    });
}
