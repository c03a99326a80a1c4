import { Decimal } from 'decimal.js';
import { httpJson } from '../chains/chain-watcher.js';

/**
 * The TON/USD rate that converts Fragment's TON prices into the USD supplier cost. Source: CoinGecko's
 * public simple-price API by default (`FRAGMENT_TON_USD_URL`, README "Prices"); any URL answering the
 * same shape `{"<coin id>": {"usd": <number>}}` works. Returns US dollars per TON.
 */
export async function fetchTonUsd(url: string): Promise<Decimal> {
  const j = await httpJson(url);
  const entry = j && typeof j === 'object' ? Object.values(j as Record<string, unknown>)[0] : undefined;
  const usd = entry && typeof entry === 'object' ? (entry as Record<string, unknown>).usd : undefined;
  if (typeof usd !== 'number' && typeof usd !== 'string') throw new Error('TON/USD rate: unexpected answer');
  const d = new Decimal(usd);
  if (!d.isFinite() || d.lte(0) || d.gt(100_000)) throw new Error('TON/USD rate: out of range');
  return d;
}

/** nanoTON × USD per TON → US cents, rounded up (a cost is never understated). */
export function nanoToCents(nano: bigint, usdPerTon: Decimal): number {
  return new Decimal(nano.toString()).mul(usdPerTon).div(1e7).toDecimalPlaces(0, Decimal.ROUND_CEIL).toNumber();
}
