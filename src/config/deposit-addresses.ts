import type { DepositNetwork } from '../domain/chain-address.js';
import type { DepositAddress } from '../domain/deposit-matching.js';

/** The deposit addresses in effect (DEPOSIT_ADDRESS_*, and the sandbox's demo addresses). */

/**
 * Fixed demo addresses used in sandbox mode for every DEPOSIT_ADDRESS_* left unset. They are derived from
 * SHA-256 of fixed texts ("sandbox demo deposit address: …"), so nobody holds their keys: never send real
 * funds to them. The watchers never watch them (only explicitly configured addresses are watched).
 */
export const SANDBOX_DEPOSIT_ADDRESSES = {
  DEPOSIT_ADDRESS_USDT_TON: 'UQAC2rQwmBpABbARhPzcvgLNqzKks3afdzHFXVN7TcSRr02A',
  DEPOSIT_ADDRESS_USDT_TRC20: 'TWc1AWZbXZzkqGwJa4dysGKubH7q8uDUYz',
  DEPOSIT_ADDRESS_USDT_BEP20: '0xb671972287e866dfd9f2e2f626666b010a78a4fe',
  DEPOSIT_ADDRESS_TON: 'UQDP-0CULkl1EbwLrs4i8hrj2mFVu6e33aCLPalaoHeZ20eK',
} as const;

export interface AddressConfig {
  UPSTREAM: string;
  DEPOSIT_ADDRESS_USDT_TON?: string;
  DEPOSIT_ADDRESS_USDT_TRC20?: string;
  DEPOSIT_ADDRESS_USDT_BEP20?: string;
  DEPOSIT_ADDRESS_TON?: string;
}

const SLOTS: { key: keyof typeof SANDBOX_DEPOSIT_ADDRESSES; asset: 'USDT' | 'TON'; network: DepositNetwork }[] = [
  { key: 'DEPOSIT_ADDRESS_USDT_TON', asset: 'USDT', network: 'ton' },
  { key: 'DEPOSIT_ADDRESS_USDT_TRC20', asset: 'USDT', network: 'trc20' },
  { key: 'DEPOSIT_ADDRESS_USDT_BEP20', asset: 'USDT', network: 'bep20' },
  { key: 'DEPOSIT_ADDRESS_TON', asset: 'TON', network: 'ton' },
];

/** Addresses set in the environment, without sandbox defaults (what the watchers watch). */
export function explicitDepositAddresses(c: AddressConfig): DepositAddress[] {
  const out: DepositAddress[] = [];
  for (const s of SLOTS) {
    const v = c[s.key]?.trim();
    if (v) out.push({ asset: s.asset, network: s.network, address: v });
  }
  return out;
}

/** The addresses in effect: the environment's, and in sandbox mode the demo address for each unset one. */
export function depositAddresses(c: AddressConfig): DepositAddress[] {
  const out: DepositAddress[] = [];
  for (const s of SLOTS) {
    const v = c[s.key]?.trim() || (c.UPSTREAM === 'sandbox' ? SANDBOX_DEPOSIT_ADDRESSES[s.key] : undefined);
    if (v) out.push({ asset: s.asset, network: s.network, address: v });
  }
  return out;
}
