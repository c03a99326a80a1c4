import type { Clock } from '../../kernel/clock.js';
import type { WalletState, Toncenter } from '../chains/toncenter-wallet.js';
import type { GoodsProduct } from '../types.js';
import { fromNano, type FragmentConfig } from '../../config/fragment.js';
import type { FragmentHealth } from './fragment-health.js';
import type { HotWallet } from './wallet.js';

/**
 * The hot wallet's last known state (balance, seqno) and its money alerts: below FRAGMENT_WALLET_MIN_TON,
 * and per product too low for the next payment (that product's new orders get 503 until it is topped up).
 */
export class HotWalletState {
  last: (WalletState & { at: number }) | null = null;
  /** Per product: the wallet could not pay that product's next order. */
  fundsLow: Partial<Record<GoodsProduct, { balanceNano: bigint; needNano: bigint }>> = {};
  private belowMinAlerted = false;

  constructor(
    private readonly clock: Clock,
    private readonly cfg: FragmentConfig,
    readonly wallet: HotWallet,
    private readonly chain: Toncenter,
    private readonly health: FragmentHealth,
  ) {}

  async refresh(): Promise<WalletState> {
    const w = await this.chain.wallet(this.wallet.address.toString());
    this.last = { ...w, at: this.clock.now() };
    if (w.balanceNano < this.cfg.walletMinNano) {
      if (!this.belowMinAlerted)
        this.health.alert('wallet_below_min', `hot wallet balance below FRAGMENT_WALLET_MIN_TON`, { balance_ton: fromNano(w.balanceNano), need_ton: fromNano(this.cfg.walletMinNano) });
      this.belowMinAlerted = true;
    } else this.belowMinAlerted = false;
    for (const [product, low] of Object.entries(this.fundsLow) as [GoodsProduct, { needNano: bigint }][]) if (w.balanceNano >= low.needNano) delete this.fundsLow[product];
    return w;
  }

  /** The wallet cannot pay `product`'s next order: alert once, and hold that product's new orders. */
  markFundsLow(product: GoodsProduct, balanceNano: bigint, needNano: bigint): void {
    if (!this.fundsLow[product]) this.health.alert('wallet_funds_low', `the hot wallet cannot pay the next ${product} order`, { balance_ton: fromNano(balanceNano), need_ton: fromNano(needNano) });
    this.fundsLow[product] = { balanceNano, needNano };
  }

  view() {
    const w = this.last;
    return {
      address: this.wallet.friendlyAddress,
      address_raw: this.wallet.address.toRawString(),
      version: this.wallet.version,
      balance_ton: w ? fromNano(w.balanceNano) : null,
      seqno: w ? w.seqno : null,
      deployed: w ? w.deployed : null,
      checked_at: w ? new Date(w.at).toISOString() : null,
      min_ton: fromNano(this.cfg.walletMinNano),
      below_min: w ? w.balanceNano < this.cfg.walletMinNano : null,
      funds_low: Object.keys(this.fundsLow).length
        ? Object.fromEntries(Object.entries(this.fundsLow).map(([product, l]) => [product, { balance_ton: fromNano(l.balanceNano), need_ton: fromNano(l.needNano) }]))
        : null,
    };
  }
}
