import { topupMinimum } from '../domain/ledger-rules.js';
import { formatAmount, type Currency } from '../domain/money.js';
import type { Deps } from './deps.js';
import { partnerActive } from './partners.js';
import { account } from './account.js';
import { depositAddresses } from '../config/deposit-addresses.js';

/**
 * How a partner funds each balance (partner-api.md "Activation and top-up rules"): USD in a dollar
 * stablecoin on TON, TRC-20 or BEP-20; TON only as the TON coin on TON. Minimums: 10 for the first
 * top-up, then USD 5 and TON 10. The addresses are the ones in effect for the service
 * (`depositAddresses`: DEPOSIT_ADDRESS_*, and the fixed demo addresses in sandbox mode).
 */
export interface FundingOption {
  currency: Currency;
  network: string;
  asset: 'USDT' | 'TON';
  address: string;
}

export interface FundingInfo {
  activated: boolean;
  balances: { USD: string; TON: string };
  minimums: { USD: string; TON: string };
  /** Currencies that can be topped up now (an address is configured for them). */
  currencies: Currency[];
  options: FundingOption[];
}

export function fundingInfo(deps: Pick<Deps, 'db' | 'config'>, partnerId: number): FundingInfo {
  const activated = partnerActive(deps, partnerId);
  const options: FundingOption[] = depositAddresses(deps.config).map((a) => ({
    currency: a.asset === 'TON' ? 'TON' : 'USD',
    network: a.network,
    asset: a.asset,
    address: a.address,
  }));
  return {
    activated,
    balances: account(deps, partnerId).balances,
    minimums: {
      USD: formatAmount(topupMinimum('USD', !activated), 'USD'),
      TON: formatAmount(topupMinimum('TON', !activated), 'TON'),
    },
    currencies: (['USD', 'TON'] as const).filter((c) => options.some((o) => o.currency === c)),
    options,
  };
}
