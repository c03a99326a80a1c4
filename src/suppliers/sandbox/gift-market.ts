import crypto from 'node:crypto';
import type { Clock } from '../../kernel/clock.js';
import type { Db } from '../../store/db.js';
import { kvGet, kvSet } from '../../store/kv-repo.js';
import { sandboxGiftRow, sandboxGiftRows, upsertSandboxGift, type SandboxGiftRow } from '../../store/sandbox-repo.js';
import {
  type GiftCollection,
  type GiftListing,
  type GiftMarket,
  type GiftPurchase,
  type NftStage,
  type PayOutcome,
  type PurchaseForm,
  type QuoteOutcome,
  type ReconcileOutcome,
  type StageOutcome,
} from '../types.js';
import { SANDBOX_COLLECTIONS, seedGifts, type SeedGift } from './gift-data.js';
import { giftPicture } from './gift-picture.js';

/** Failure reasons a sandbox listing can be told to meet, and the purchase stage where each occurs. */
export const OUTCOME_STAGE: Record<string, NftStage> = {
  gift_not_for_sale: 'create',
  gift_reserved: 'create',
  nft_disabled: 'create',
  invalid_recipient: 'create',
  gift_unavailable: 'confirm',
  hub_rejected: 'confirm',
  delivery_failed: 'confirm',
  queue_rejected: 'queue',
  price_above_cap: 'pricing',
  amount_above_cap: 'pricing',
  invalid_price: 'pricing',
  invalid_upstream_price: 'pricing',
  pricing_failed: 'pricing',
  insufficient_funds: 'balance',
};
/**
 * `stuck_transfer`: bought, the transfer fails (review at transfer). `purchase_unconfirmed`: the market takes
 * the payment and never confirms or denies it (review at purchase, never refunded automatically).
 * The paid call's answer lost on the way back, for the next purchase of the gift (once):
 * `purchase_answer_lost` (the market took the payment; asked again, it says paid), `purchase_not_sent` (the
 * call never reached the market; asked again, it has no sale) and `purchase_timeout` (the call throws, as a
 * connection cut after the market took the payment). The simulation (sim/) draws them with the others.
 */
export const LOST_ANSWER_OUTCOMES = ['purchase_answer_lost', 'purchase_not_sent', 'purchase_timeout'] as const;
export const SANDBOX_OUTCOMES = ['ok', 'stuck_transfer', 'purchase_unconfirmed', ...LOST_ANSWER_OUTCOMES, ...Object.keys(OUTCOME_STAGE)];

/** Each stage takes this long of service clock (7 stages: about half a minute per gift). */
export const STAGE_MS = 4_000;
const SLOW_QUEUE_MS = 600_000;
const TRANSFER_KEY = 'sandbox.transfer.';
/** A sale of the market, by order: `paid` (with its payment id) or `unconfirmed` (taken, never answered). */
const SALE_KEY = 'sandbox.sale.';
interface SandboxSale {
  state: 'paid' | 'unconfirmed';
  paymentId: string;
}

export interface SandboxGiftControl {
  fundsLow(): boolean;
  onChange(): void;
  /** Where the service serves the sandbox's gift pictures (PUBLIC_BASE_URL + /sandbox/gifts/); unset: Fragment's address. */
  imageBase?: string;
  /** Told of every payment taken and every transfer sent (SandboxUpstream.onSupplied). */
  supplied?(e: SuppliedEvent): void;
}

/**
 * What the simulated suppliers did, as their own books would say: goods sent (delivered, or sent without a
 * confirmation), a gift's payment taken (with its amount) and a gift's transfer sent. The seeded simulation
 * (sim/) keeps them, as a real supplier's records outlive a crash of the service, and checks the service's
 * ledger against them (nothing refunded that was sent without an operator, nothing paid above the cap).
 */
export type SuppliedEvent =
  | { kind: 'goods'; orderId: string; product: 'stars' | 'premium'; outcome: 'delivered' | 'unconfirmed' }
  | { kind: 'gift_payment'; orderId: string; gift: string; amountNano: string; confirmed: boolean }
  | { kind: 'gift_transfer'; orderId: string; transferHash: string; confirmed: boolean };

/**
 * The sandbox gift market: seeded listings plus the changes recorded in `sandbox_gifts` (price,
 * availability, reservation, the outcome of the next purchase, sales).
 */
export class SandboxGiftMarket implements GiftMarket {
  /** The outcomes a listing can be told to meet (PUT /sandbox/gifts/{gift}). */
  readonly outcomes: readonly string[] = SANDBOX_OUTCOMES;
  private readonly seed: Map<string, SeedGift>;
  private readonly byCollection = new Map<string, SeedGift[]>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly control: SandboxGiftControl,
  ) {
    const gifts = seedGifts();
    this.seed = new Map(gifts.map((g) => [g.gift, g]));
    for (const g of gifts) {
      const list = this.byCollection.get(g.collection) ?? [];
      list.push(g);
      this.byCollection.set(g.collection, list);
    }
  }

  private overrides(): Map<string, SandboxGiftRow> {
    return new Map(sandboxGiftRows(this.db).map((r) => [r.gift, r]));
  }

  private toListing(g: SeedGift, o: SandboxGiftRow | undefined): GiftListing {
    return {
      gift: g.gift,
      name: g.name,
      num: g.num,
      collection: g.collection,
      image: this.control.imageBase ? `${this.control.imageBase}${g.gift}.svg` : `https://nft.fragment.com/gift/${g.gift.toLowerCase()}.webp`,
      priceMilli: o?.priceMilli ?? g.priceMilli,
      attributes: g.attributes,
      available: o?.available ?? true,
      reserved: o?.reserved ?? false,
    };
  }

  /** Always up: a simulated outage (`upstream_unavailable.nft`) is a decorator around the market (faults.ts). */
  status() {
    return { up: true } as const;
  }

  async collections(): Promise<GiftCollection[]> {
    return SANDBOX_COLLECTIONS.map((c) => ({ collection: c.collection, name: c.name }));
  }

  async listings(collection: string): Promise<GiftListing[] | null> {
    const list = this.byCollection.get(collection);
    if (!list) return null;
    const o = this.overrides();
    return list.map((g) => this.toListing(g, o.get(g.gift)));
  }

  async gift(gift: string): Promise<GiftListing | null> {
    const g = this.seed.get(gift);
    if (!g) return null;
    const o = sandboxGiftRow(this.db, gift);
    return this.toListing(g, o);
  }

  /** The SVG picture of a listed gift (src/suppliers/sandbox/gift-picture.ts); null for an unknown gift. */
  picture(gift: string): string | null {
    const g = this.seed.get(gift);
    return g ? giftPicture(g) : null;
  }

  feesMilli(): number {
    return 55; // 0.050 TON transfer + 0.005 TON network fee
  }

  tonUsdCents(): number {
    return 520; // 5.20 USD per TON, for reporting only
  }

  /** The sandbox's transfers, by order (kept in `kv`, so they survive a restart like the rest of its state); its purchase is no transfer. */
  async transferOf(orderId: string, _paidReceipt: string | null): Promise<{ transferHash: string } | null> {
    const hash = kvGet<string>(this.db, `${TRANSFER_KEY}${orderId}`);
    return hash === undefined ? null : { transferHash: hash };
  }

  private sendTransfer(orderId: string, confirmed: boolean): string {
    const hash = crypto.createHash('sha256').update(`transfer:${orderId}`).digest('hex');
    kvSet(this.db, `${TRANSFER_KEY}${orderId}`, hash, this.clock.now());
    this.control.supplied?.({ kind: 'gift_transfer', orderId, transferHash: hash, confirmed });
    return hash;
  }

  links(gift: string, transferHash: string) {
    return { nft_public_url: `https://t.me/nft/${gift}`, ton_explorer_url: `https://tonviewer.com/transaction/${transferHash}` };
  }

  /** Changes one listing (PUT /sandbox/gifts/{gift}); false for an unknown gift. */
  update(gift: string, change: { priceMilli?: number; available?: boolean; reserved?: boolean; outcome?: string }): boolean {
    if (!this.seed.has(gift)) return false;
    const now = this.clock.now();
    const cur = sandboxGiftRow(this.db, gift);
    const row = {
      gift,
      priceMilli: change.priceMilli ?? cur?.priceMilli ?? null,
      available: change.available ?? cur?.available ?? null,
      reserved: change.reserved ?? cur?.reserved ?? null,
      outcome: change.outcome ?? cur?.outcome ?? null,
      updatedAt: now,
    };
    upsertSandboxGift(this.db, row);
    this.control.onChange();
    return true;
  }

  private setOutcome(gift: string, outcome: string | null, extra: { available?: boolean } = {}): void {
    const now = this.clock.now();
    const cur = sandboxGiftRow(this.db, gift);
    const row = { gift, priceMilli: cur?.priceMilli ?? null, available: extra.available ?? cur?.available ?? null, reserved: cur?.reserved ?? null, outcome, updatedAt: now };
    upsertSandboxGift(this.db, row);
    this.control.onChange();
  }

  /** The listing's price as a payment form in TON (nanoTON), like a real market's form. */
  async quote(p: GiftPurchase): Promise<QuoteOutcome> {
    const listing = await this.gift(p.gift);
    if (!listing || !listing.available) return { kind: 'fail', reason: 'gift_not_for_sale' };
    return { kind: 'form', form: { ref: `sandbox-form-${p.orderId}`, currency: 'TON', amount: (BigInt(listing.priceMilli) * 1_000_000n).toString() } };
  }

  /** The paid call: the listing is sold to the order (once), or taken and never answered (`purchase_unconfirmed`). */
  async pay(p: GiftPurchase, form: PurchaseForm): Promise<PayOutcome> {
    const sale = kvGet<SandboxSale>(this.db, `${SALE_KEY}${p.orderId}`);
    if (sale) return sale.state === 'paid' ? { kind: 'paid', receipt: sale.paymentId } : { kind: 'unknown', detail: 'the market has not answered' };
    const listing = await this.gift(p.gift);
    if (!listing || !listing.available) return { kind: 'unpaid', reason: 'gift_not_for_sale', detail: 'the listing is gone' };
    // the simulator honours the form it gave: a price changed since is the form's problem (re-read it)
    if (form.amount !== (BigInt(listing.priceMilli) * 1_000_000n).toString()) return { kind: 'unpaid', detail: 'the form no longer matches the listing' };
    const outcome = sandboxGiftRow(this.db, p.gift)?.outcome ?? null;
    if (outcome === 'purchase_not_sent') {
      // nothing reached the market: no sale, the listing stays; only the answer is missing
      this.setOutcome(p.gift, null);
      return { kind: 'unknown', detail: 'the paid call got no answer' };
    }
    const paymentId = `sandbox-payment-${crypto.createHash('sha256').update(`pay:${p.orderId}`).digest('hex').slice(0, 16)}`;
    const unconfirmed = outcome === 'purchase_unconfirmed';
    const lost = outcome === 'purchase_answer_lost' || outcome === 'purchase_timeout';
    const record: SandboxSale = { state: unconfirmed ? 'unconfirmed' : 'paid', paymentId };
    kvSet(this.db, `${SALE_KEY}${p.orderId}`, record, this.clock.now());
    this.control.supplied?.({ kind: 'gift_payment', orderId: p.orderId, gift: p.gift, amountNano: form.amount, confirmed: !unconfirmed && !lost });
    this.setOutcome(p.gift, unconfirmed || lost ? null : outcome, { available: false }); // sold
    if (outcome === 'purchase_timeout') throw new Error('the paid call timed out');
    if (unconfirmed) return { kind: 'unknown', detail: 'the market took the payment and has not confirmed it' };
    if (lost) return { kind: 'unknown', detail: 'the paid call got no answer' };
    return { kind: 'paid', receipt: paymentId };
  }

  async reconcile(p: GiftPurchase): Promise<ReconcileOutcome> {
    const sale = kvGet<SandboxSale>(this.db, `${SALE_KEY}${p.orderId}`);
    if (!sale) return { kind: 'unpaid', detail: 'the market has no sale for this order' };
    return sale.state === 'paid' ? { kind: 'paid', receipt: sale.paymentId } : { kind: 'unknown', detail: 'the market neither confirms nor denies the payment' };
  }

  async runStage(stage: NftStage, p: GiftPurchase): Promise<StageOutcome> {
    const now = this.clock.now();
    const readyAt = p.stageSince + STAGE_MS + (stage === 'queue' && p.username.startsWith('slow_') ? SLOW_QUEUE_MS : 0);
    if (now < readyAt) return { kind: 'wait', retryAt: readyAt };
    const listing = await this.gift(p.gift);
    if (!listing) return { kind: 'fail', reason: 'gift_not_for_sale' };
    const outcome = sandboxGiftRow(this.db, p.gift)?.outcome ?? null;
    // A scripted failure meets the next purchase attempt at its stage, once.
    if (outcome && OUTCOME_STAGE[outcome] === stage) {
      this.setOutcome(p.gift, null);
      return { kind: 'fail', reason: outcome };
    }
    switch (stage) {
      case 'create':
        if (!listing.available) return { kind: 'fail', reason: 'gift_not_for_sale' };
        if (p.username.startsWith('nogift_')) return { kind: 'fail', reason: 'invalid_recipient' };
        return { kind: 'done' };
      case 'pricing':
        // the price itself is checked by the application against the form (quote), as for any market
        return { kind: 'done' };
      case 'balance':
        if (this.control.fundsLow()) return { kind: 'fail', reason: 'insufficient_funds' };
        return { kind: 'done' };
      case 'transfer':
        // `stuck_transfer`: the transfer never left (no record). `stuck_` recipients: it was sent but its
        // confirmation never came back (the market has the record; an operator can resolve from it).
        if (outcome === 'stuck_transfer') {
          this.setOutcome(p.gift, null);
          return { kind: 'stuck' };
        }
        if (p.username.startsWith('stuck_')) {
          this.sendTransfer(p.orderId, false);
          return { kind: 'stuck' };
        }
        return { kind: 'done', transferHash: this.sendTransfer(p.orderId, true) };
      default:
        return { kind: 'done' };
    }
  }
}
