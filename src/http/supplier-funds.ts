import type { Deps } from '../app/deps.js';
import type { SupplierFund, SupplierFundsReader } from '../app/operator/supplier-funds.js';
import { offsetIso } from '../domain/time-format.js';
import type { FragmentUpstream } from '../suppliers/fragment/fragment-upstream.js';

/**
 * The supplier accounts the console's overview shows, read from the adapters in use: the Fragment hot
 * wallet's last known balance (refreshed in the background, so the overview never waits for toncenter),
 * or in sandbox mode the simulator's figures: a hot wallet of 2500 TON for Stars and Premium and a gift
 * account of 10000 TON and 50000 Stars, whose TON drops to 0 while the `purchase_funds_low` fault is on;
 * with GIFTS_UPSTREAM=telegram also the gift account's TON (to the milli-TON, rounded down: never more
 * than it holds) and Stars, as last read (every minute).
 */
export const SANDBOX_FUNDS = { fragment_ton: '2500.000', gifts_ton: '10000.000', gifts_stars: '50000' } as const;

/** The Telegram gift account's last known balances (GIFTS_UPSTREAM=telegram), null until Telegram first answered. */
export type GiftAccountFunds = () => { tonNano: bigint; stars: string; at: number } | null;

export function supplierFundsReader(deps: Pick<Deps, 'clock' | 'config'>, fragment: FragmentUpstream | null, sandboxFaults: (() => { purchase_funds_low: boolean }) | null, giftAccount?: GiftAccountFunds): SupplierFundsReader {
  return async () => {
    const funds: SupplierFund[] = [];
    if (fragment) {
      fragment.refreshWallet().catch(() => undefined);
      const w = fragment.walletView();
      if (w.balance_ton !== null && w.checked_at !== null) funds.push({ supplier: 'fragment', currency: 'TON', amount: w.balance_ton, updated_at: offsetIso(Date.parse(w.checked_at)), pays: 'USD' });
    } else if (deps.config.UPSTREAM === 'sandbox' && sandboxFaults) {
      const at = offsetIso(deps.clock.now());
      const low = sandboxFaults().purchase_funds_low;
      funds.push({ supplier: 'sandbox_fragment', currency: 'TON', amount: SANDBOX_FUNDS.fragment_ton, updated_at: at, pays: 'USD' });
      // the simulated gift account only when the simulator sells the gifts: beside a real gift account it
      // would count twice in the TON coverage and hide a shortfall of the account that really pays
      if (deps.config.gifts.upstream === 'sandbox') {
        funds.push({ supplier: 'sandbox_gifts', currency: 'TON', amount: low ? '0.000' : SANDBOX_FUNDS.gifts_ton, updated_at: at, pays: 'TON' });
        funds.push({ supplier: 'sandbox_gifts', currency: 'STARS', amount: SANDBOX_FUNDS.gifts_stars, updated_at: at });
      }
    }
    // the gift account (GIFTS_UPSTREAM=telegram) pays for gifts sold for TON; its Stars are shown beside it
    const g = giftAccount?.();
    if (g) {
      const at = offsetIso(g.at);
      funds.push({ supplier: 'telegram_gifts', currency: 'TON', amount: tonDown(g.tonNano), updated_at: at, pays: 'TON' });
      funds.push({ supplier: 'telegram_gifts', currency: 'STARS', amount: g.stars, updated_at: at });
    }
    return funds;
  };
}

function tonDown(nano: bigint): string {
  const milli = nano / 1_000_000n;
  return `${milli / 1000n}.${(milli % 1000n).toString().padStart(3, '0')}`;
}
