import type { Config } from '../../config/env.js';
import { explicitDepositAddresses } from '../../config/deposit-addresses.js';
import type { ChainWatcher } from '../types.js';
import { BscWatcher } from './bsc-rpc.js';
import { TonWatcher } from './toncenter.js';
import { TronWatcher } from './trongrid.js';

/** Which chain watchers run (configuration), built from their concrete clients; their polls are src/app/deposit-watch.ts. */

export type WatcherConfig = Pick<
  Config,
  | 'UPSTREAM'
  | 'WATCHERS'
  | 'WATCHER_POLL_SECONDS'
  | 'DEPOSIT_ADDRESS_USDT_TON'
  | 'DEPOSIT_ADDRESS_USDT_TRC20'
  | 'DEPOSIT_ADDRESS_USDT_BEP20'
  | 'DEPOSIT_ADDRESS_TON'
  | 'TON_API_URL'
  | 'TON_API_KEY'
  | 'TRON_API_URL'
  | 'TRON_API_KEY'
  | 'BSC_RPC_URL'
  | 'USDT_TON_JETTON'
  | 'USDT_TRC20_CONTRACT'
  | 'USDT_BEP20_CONTRACT'
  | 'TON_CONFIRMATIONS'
  | 'TRON_CONFIRMATIONS'
  | 'BSC_CONFIRMATIONS'
  | 'BSC_LOG_RANGE'
>;

/** WATCHERS=1/0 decides; unset: on outside sandbox mode, or when a deposit address is set explicitly. */
export function watchersEnabled(c: WatcherConfig): boolean {
  if (c.WATCHERS !== undefined) return c.WATCHERS;
  return c.UPSTREAM !== 'sandbox' || explicitDepositAddresses(c).length > 0;
}

/**
 * The watchers that run: none when they are off, else one per network that has an explicitly configured
 * address (sandbox demo addresses are never watched).
 */
export function buildWatchers(c: WatcherConfig): ChainWatcher[] {
  if (!watchersEnabled(c)) return [];
  const addrs = explicitDepositAddresses(c);
  const out: ChainWatcher[] = [];
  const ton = addrs.filter((a) => a.network === 'ton').map((a) => a.address);
  if (ton.length)
    out.push(new TonWatcher({ apiUrl: c.TON_API_URL, apiKey: c.TON_API_KEY, jettonMaster: c.USDT_TON_JETTON, addresses: ton, confirmations: c.TON_CONFIRMATIONS }));
  const trc = addrs.find((a) => a.network === 'trc20');
  if (trc)
    out.push(new TronWatcher({ apiUrl: c.TRON_API_URL, apiKey: c.TRON_API_KEY, contract: c.USDT_TRC20_CONTRACT, address: trc.address, confirmations: c.TRON_CONFIRMATIONS }));
  const bsc = addrs.find((a) => a.network === 'bep20');
  if (bsc)
    out.push(new BscWatcher({ rpcUrl: c.BSC_RPC_URL, contract: c.USDT_BEP20_CONTRACT, address: bsc.address, confirmations: c.BSC_CONFIRMATIONS, range: c.BSC_LOG_RANGE }));
  return out;
}
