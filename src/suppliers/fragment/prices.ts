import type { Decimal } from 'decimal.js';
import type { Clock } from '../../kernel/clock.js';
import type { SupplierCosts } from '../../domain/pricing.js';
import type { GoodsProduct } from '../types.js';
import { toNano, type FragmentConfig } from '../../config/fragment.js';
import type { FragmentApi, FragmentProduct } from './fragment-api.js';
import { fetchTonUsd, nanoToCents } from './ton-rate.js';

/** Prices older than this many TTLs are not used (`cost_unavailable`). */
const STALE_TTLS = 5;

export interface Prices {
  starsPer1000Nano: bigint;
  premiumNano: Record<3 | 6 | 12, bigint>;
  usdPerTon: Decimal;
  at: number;
}

/**
 * Fragment's own prices, read for the probe account (requests opened, never paid) with the TON/USD rate:
 * the catalog's supplier costs and the TON cost an order is fixed at.
 */
export class FragmentPrices {
  current: Prices | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly cfg: FragmentConfig,
    private readonly api: FragmentApi,
  ) {}

  /** Reads every price and the rate; answers the probe's Stars request id (for the KYC probe). */
  async read(): Promise<{ starsReqId: string }> {
    const [usdPerTon, stars, p3, p6, p12] = await Promise.all([
      fetchTonUsd(this.cfg.tonUsdUrl),
      this.quote('stars', 1000),
      this.quote('premium', 3),
      this.quote('premium', 6),
      this.quote('premium', 12),
    ]);
    this.current = { starsPer1000Nano: stars.nano, premiumNano: { 3: p3.nano, 6: p6.nano, 12: p12.nano }, usdPerTon, at: this.clock.now() };
    return { starsReqId: stars.reqId };
  }

  /** Fragment's price in nanoTON for `quantity` (stars) or months (premium), for the probe account. */
  private async quote(product: FragmentProduct, quantity: number): Promise<{ nano: bigint; reqId: string }> {
    const s = await this.api.search(product, this.cfg.probeUsername, quantity);
    if (s.kind !== 'found') throw new Error(`price probe account ${s.kind} on Fragment (${product})`);
    const init = await this.api.init(product, s.found.recipient, quantity);
    return { nano: toNano(trimTon(init.amountTon)), reqId: init.reqId };
  }

  /** The catalog's supplier costs in cents, or null while the prices are missing or stale. */
  costs(): SupplierCosts | null {
    const p = this.current;
    if (!p || this.clock.now() - p.at > STALE_TTLS * this.cfg.priceTtlSec * 1000) return null;
    return {
      starsPer1000: nanoToCents(p.starsPer1000Nano, p.usdPerTon),
      premium: { 3: nanoToCents(p.premiumNano[3], p.usdPerTon), 6: nanoToCents(p.premiumNano[6], p.usdPerTon), 12: nanoToCents(p.premiumNano[12], p.usdPerTon) },
    };
  }
}

/** The TON cost (nanoTON) of `quantity` stars (pro rata of 1000, rounded up) or of a Premium term. */
export function costOf(p: Prices, product: GoodsProduct, quantity: number): bigint {
  return product === 'stars' ? (p.starsPer1000Nano * BigInt(quantity) + 999n) / 1000n : p.premiumNano[quantity as 3 | 6 | 12];
}

/** Fragment writes amounts like "0.2596" or "12.5": at most 9 decimals are meaningful. */
function trimTon(s: string): string {
  const [w, f = ''] = s.split('.');
  return f ? `${w}.${f.slice(0, 9)}` : w;
}
