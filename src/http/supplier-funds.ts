import type { Deps } from '../app/deps.js';
import type { SupplierFund, SupplierFundsReader } from '../app/operator/supplier-funds.js';
import { offsetIso } from '../domain/time-format.js';
import type { FragmentUpstream } from '../suppliers/fragment/fragment-upstream.js';

/**
 * The supplier accounts the console's overview shows, read from the adapters in use: the Fragment hot
 * wallet's last known balance (refreshed in the background, so the overview never waits for toncenter),
 * or in sandbox mode the simulator's figures: a hot wallet of 2500 TON for Stars and Premium and a gift
 * account of 10000 TON and 50000 Stars, whose TON drops to 0 while the `purchase_funds_low` fault is on.
 */
export const SANDBOX_FUNDS = { fragment_ton: '2500.000', gifts_ton: '10000.000', gifts_stars: '50000' } as const;

export function supplierFundsReader(deps: Pick<Deps, 'clock' | 'config'>, fragment: FragmentUpstream | null, sandboxFaults: (() => { purchase_funds_low: boolean }) | null): SupplierFundsReader {
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
      funds.push({ supplier: 'sandbox_gifts', currency: 'TON', amount: low ? '0.000' : SANDBOX_FUNDS.gifts_ton, updated_at: at, pays: 'TON' });
      funds.push({ supplier: 'sandbox_gifts', currency: 'STARS', amount: SANDBOX_FUNDS.gifts_stars, updated_at: at });
    }
    return funds;
  };
}
