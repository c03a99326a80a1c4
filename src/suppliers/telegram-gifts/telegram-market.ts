import type { Clock } from '../../kernel/clock.js';
import { offsetIso } from '../../domain/time-format.js';
import type { EventBus } from '../../kernel/event-bus.js';
import type { TelegramGiftsConfig } from '../../config/gifts.js';
import type { Logger } from '../../kernel/log.js';
import { normaliseUsername } from '../username.js';
import {
  UpstreamUnavailable,
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
  type SupplierAccount,
  type SupplierFund,
  type SupplyStatus,
} from '../types.js';
import { GatewayError, type GatewayGift, type GiftGateway } from './gateway.js';

/**
 * GIFTS_UPSTREAM=telegram: Telegram's own gift marketplace, reached through a user account (MTProto). Buying a
 * listed gift with `to_id` set to the recipient is the delivery: there is no separate transfer. This adapter
 * maps the marketplace onto the supplier interface; the money rules (the cap checked against the form, the
 * purchase record, `paying`, reconciliation, review) are the application's (src/app/orders/gift-purchase.ts).
 * Here: the form's own shape (a star-gift form with exactly one price), one purchase in flight per account,
 * FLOOD_WAIT respected, Telegram's errors mapped to the contract's reasons.
 */

/** How long the adapter keeps the list of collections (the listings themselves are cached by the catalogue). */
const CACHE_MS = 60_000;
/** Listings read per collection: pages of 100, cheapest first. */
const PAGE = 100;
const MAX_PAGES = 10;
const RETRY_SEC = 30;
const SLUG = /^([A-Za-z][A-Za-z0-9]*)-(\d{1,9})$/;
/** Errors that mean the account's session is gone: operators must sign in again (npm run gifts:login). */
const SESSION_ERRORS = /^(AUTH_KEY_UNREGISTERED|AUTH_KEY_INVALID|SESSION_REVOKED|SESSION_EXPIRED|USER_DEACTIVATED|USER_DEACTIVATED_BAN)$/;
/** The gift is gone, sold, or not for sale ("STARGIFT_NOT_FOUND and friends"). */
const GIFT_GONE = /^STARGIFT_|^SLUG_INVALID$/;
/** The recipient refuses gifts of this kind (privacy settings), or cannot get them. */
const RECIPIENT_REFUSES = /^(USER_DISALLOWED_STARGIFTS|STARGIFT_USER_USAGE_LIMITED|PEER_ID_INVALID|USER_IS_BLOCKED|PRIVACY_RESTRICTED|USER_PRIVACY_RESTRICTED)$/;

export interface TelegramMarketDeps {
  clock: Clock;
  log: Logger;
  bus: EventBus;
}

interface OfferedCollection {
  collection: string;
  name: string;
  giftId: string;
}

export class TelegramGiftMarket implements GiftMarket, SupplierAccount {
  /** No call to Telegram before this (service clock): it asked to wait (FLOOD_WAIT). */
  private pausedUntil = 0;
  private sessionProblem: string | null = null;
  private payQueue: Promise<unknown> = Promise.resolve();
  private cols: { at: number; items: OfferedCollection[] } | null = null;
  /** NFT addresses of gifts seen, for their explorer link */
  private readonly addresses = new Map<string, string>();
  private balance: { tonNano: bigint; stars: string; at: number } | null = null;
  private belowMinAlerted = false;
  private usdCents = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: TelegramMarketDeps,
    private readonly cfg: TelegramGiftsConfig,
    private readonly gw: GiftGateway,
    /** The TON/USD rate for `price_usd_ref` (cents per TON); refreshed with the balance. */
    private readonly rate: () => Promise<number> = async () => 0,
  ) {}

  // --- background: balance and rate -------------------------------------------------------------

  start(): void {
    if (this.timer) return;
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), 60_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async refresh(): Promise<void> {
    await Promise.all([
      this.readBalance().catch((e) => this.deps.log.warn({ err: e }, 'telegram gifts: balance not read')),
      this.rate().then(
        (c) => void (this.usdCents = c),
        (e) => this.deps.log.warn({ err: e }, 'telegram gifts: TON/USD rate not read'),
      ),
    ]);
  }

  /** The account's TON balance, read now; alerts operators below GIFTS_BALANCE_MIN_TON (once per episode). */
  async readBalance(): Promise<bigint> {
    const b = await this.call(() => this.gw.balances());
    this.balance = { ...b, at: this.deps.clock.now() };
    if (b.tonNano < this.cfg.balanceMinNano) {
      if (!this.belowMinAlerted) this.alert('wallet_below_min', 'the gift account TON balance is below GIFTS_BALANCE_MIN_TON', { balance_ton: ton(b.tonNano), need_ton: ton(this.cfg.balanceMinNano) });
      this.belowMinAlerted = true;
    } else this.belowMinAlerted = false;
    return b.tonNano;
  }

  /** For /metrics: the account's last known balances. */
  balanceGauge(): { balanceTon: number | null; balanceStars: number | null; minTon: number; up: boolean } {
    const b = this.balance;
    return { balanceTon: b ? Number(ton(b.tonNano)) : null, balanceStars: b ? Number(b.stars) : null, minTon: Number(ton(this.cfg.balanceMinNano)), up: this.status().up };
  }

  /**
   * The console's supplier funds: the account's TON (to the milli-TON, rounded down: never more than it
   * holds; it pays for gifts sold for TON) and Stars, as last read (every minute); none until Telegram first answered.
   */
  funds(): SupplierFund[] {
    const b = this.balance;
    if (!b) return [];
    const at = offsetIso(b.at);
    const milli = b.tonNano / 1_000_000n;
    const tonDown = `${milli / 1000n}.${(milli % 1000n).toString().padStart(3, '0')}`;
    return [
      { supplier: 'telegram_gifts', currency: 'TON', amount: tonDown, updated_at: at, pays: 'TON' },
      { supplier: 'telegram_gifts', currency: 'STARS', amount: b.stars, updated_at: at },
    ];
  }

  private alert(problem: string, detail: string, extra: { balance_ton?: string; need_ton?: string } = {}): void {
    this.deps.log.warn({ problem, detail, ...extra }, 'telegram gifts supplier alert');
    this.deps.bus.emit('alert', { kind: 'supplier', supplier: 'telegram_gifts', problem, detail, ...extra });
  }

  /**
   * One call to Telegram. FLOOD_WAIT pauses every call for its seconds; a lost session marks the supplier
   * down with an alert; any failure to answer is UpstreamUnavailable (wait, retry). Other RPC errors are
   * thrown as they are, for the caller to map.
   */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    const now = this.deps.clock.now();
    if (now < this.pausedUntil) throw new UpstreamUnavailable(Math.ceil((this.pausedUntil - now) / 1000), 'Telegram asked to wait (FLOOD_WAIT)');
    try {
      const r = await fn();
      if (this.sessionProblem) this.deps.log.info('telegram gifts: session works again');
      this.sessionProblem = null;
      return r;
    } catch (e) {
      if (e instanceof GatewayError) {
        if (e.code === 'FLOOD_WAIT') {
          this.pausedUntil = this.deps.clock.now() + (e.seconds ?? RETRY_SEC) * 1000;
          throw new UpstreamUnavailable(e.seconds ?? RETRY_SEC, e.message);
        }
        if (SESSION_ERRORS.test(e.code)) {
          if (this.sessionProblem === null) this.alert('session_expired', `the gift account's session no longer works (${e.code}): sign in again with npm run gifts:login`);
          this.sessionProblem = e.code;
          throw new UpstreamUnavailable(60, e.message);
        }
        throw e;
      }
      throw new UpstreamUnavailable(RETRY_SEC, `Telegram did not answer: ${(e as Error).message}`);
    }
  }

  status(): SupplyStatus {
    const now = this.deps.clock.now();
    if (this.sessionProblem) return { up: false, retryAfterSec: 60 };
    if (now < this.pausedUntil) return { up: false, retryAfterSec: Math.ceil((this.pausedUntil - now) / 1000) };
    return { up: true };
  }

  // --- catalogue ----------------------------------------------------------------------------------

  private async offered(): Promise<OfferedCollection[]> {
    const now = this.deps.clock.now();
    if (this.cols && now - this.cols.at < CACHE_MS) return this.cols.items;
    const all = await this.catalogCall(() => this.gw.collections());
    const items: OfferedCollection[] = [];
    for (const c of all) {
      if (c.resale <= 0) continue;
      // the collection's id is the prefix of its gifts' slugs (`PlushPepe` of `PlushPepe-1234`)
      const first = await this.catalogCall(() => this.gw.listings(c.giftId, '', 1));
      const m = first.gifts[0] ? SLUG.exec(first.gifts[0].slug) : null;
      if (!m) continue;
      if (this.cfg.collections.length && !this.cfg.collections.includes(m[1])) continue;
      items.push({ collection: m[1], name: c.title, giftId: c.giftId });
    }
    this.cols = { at: now, items };
    return items;
  }

  /** Catalogue reads: any RPC error is the market not answering (503 upstream_unavailable). */
  private async catalogCall<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await this.call(fn);
    } catch (e) {
      if (e instanceof GatewayError) throw new UpstreamUnavailable(RETRY_SEC, e.message);
      throw e;
    }
  }

  async collections(): Promise<GiftCollection[]> {
    return (await this.offered()).map((c) => ({ collection: c.collection, name: c.name }));
  }

  async listings(collection: string): Promise<GiftListing[] | null> {
    // not cached here: the catalogue's one cache (src/app/nft/gift-catalog.ts) keeps a read at most a minute
    const col = (await this.offered()).find((c) => c.collection === collection);
    if (!col) return null;
    const items: GiftListing[] = [];
    let offset = '';
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await this.catalogCall(() => this.gw.listings(col.giftId, offset, PAGE));
      for (const g of r.gifts) {
        const l = this.toListing(g, col);
        if (l?.available) items.push(l);
      }
      if (!r.next) break;
      offset = r.next;
    }
    return items;
  }

  async gift(gift: string): Promise<GiftListing | null> {
    const m = SLUG.exec(gift);
    if (!m) return null;
    const col = (await this.offered()).find((c) => c.collection === m[1]);
    if (!col) return null;
    const g = await this.catalogCall(() => this.gw.gift(gift));
    return g ? this.toListing(g, col) : null;
  }

  /** A TON-priced listing in the contract's shape; the price rounded up to the milli-TON (the cap covers it). */
  private toListing(g: GatewayGift, col: OfferedCollection): GiftListing | null {
    const m = SLUG.exec(g.slug);
    if (!m || m[1] !== col.collection) return null;
    if (g.giftAddress) this.addresses.set(g.slug, g.giftAddress);
    const priceMilli = g.tonPriceNano === null ? 0 : Number((g.tonPriceNano + 999_999n) / 1_000_000n);
    return {
      gift: g.slug,
      name: g.title,
      num: g.num,
      collection: col.collection,
      // the picture Telegram renders for the gift (its Fragment preview)
      image: `https://nft.fragment.com/gift/${g.slug.toLowerCase()}.webp`,
      priceMilli,
      attributes: g.attributes,
      available: g.tonPriceNano !== null && g.tonPriceNano > 0n,
      reserved: false,
    };
  }

  feesMilli(): number {
    return 0; // the buyer pays the listing price; Telegram's commission is taken from the seller
  }

  tonUsdCents(): number {
    return this.usdCents;
  }

  // --- purchase stages ----------------------------------------------------------------------------

  async runStage(stage: NftStage, p: GiftPurchase): Promise<StageOutcome> {
    switch (stage) {
      case 'create': {
        const u = normaliseUsername(p.username);
        const user = u ? await this.catalogCall(() => this.gw.user(u)) : null;
        if (!user || !user.acceptsUniqueGifts) return { kind: 'fail', reason: 'invalid_recipient' };
        const g = await this.catalogCall(() => this.gw.gift(p.gift));
        if (!g || g.tonPriceNano === null) return { kind: 'fail', reason: 'gift_not_for_sale' };
        return { kind: 'done' };
      }
      case 'balance': {
        // the order's fixed price must be covered by the account's TON balance (funds: docs/gifts.md)
        const balance = await this.readBalance();
        if (balance < BigInt(p.fixedPriceMilli) * 1_000_000n) return { kind: 'fail', reason: 'insufficient_funds' };
        return { kind: 'done' };
      }
      case 'transfer':
        // bought with to_id = the recipient: the purchase was the delivery. The gift is read once more for
        // its NFT address (the explorer link), which a restart since the catalogue read would have lost.
        if (!p.receipt) return { kind: 'stuck' };
        if (!this.addresses.has(p.gift)) {
          try {
            const g = await this.call(() => this.gw.gift(p.gift));
            if (g?.giftAddress) this.addresses.set(p.gift, g.giftAddress);
          } catch (e) {
            this.deps.log.warn({ err: e }, 'telegram gifts: the gift address not read (no explorer link)');
          }
        }
        return { kind: 'done', transferHash: p.receipt };
      default:
        return { kind: 'done' };
    }
  }

  async quote(p: GiftPurchase): Promise<QuoteOutcome> {
    let f;
    try {
      f = await this.call(() => this.gw.paymentForm(p.gift, p.username));
    } catch (e) {
      if (!(e instanceof GatewayError)) throw e;
      const r = reasonOf(e.code);
      return { kind: 'fail', reason: r?.reason ?? 'pricing_failed', stage: r?.stage ?? 'pricing' };
    }
    // TDLib's checks of a resold gift's form: a star-gift form with exactly one price
    if (!f.starGift || f.prices.length !== 1) return { kind: 'fail', reason: 'invalid_upstream_price', stage: 'pricing' };
    return { kind: 'form', form: { ref: `${f.formId}@${this.deps.clock.now()}`, currency: f.currency, amount: f.prices[0].toString() } };
  }

  /** The paid call, one at a time per account. */
  pay(p: GiftPurchase, form: PurchaseForm): Promise<PayOutcome> {
    const run = this.payQueue.then(() => this.payOne(p, form));
    this.payQueue = run.catch(() => undefined);
    return run;
  }

  private async payOne(p: GiftPurchase, form: PurchaseForm): Promise<PayOutcome> {
    const now = this.deps.clock.now();
    if (now < this.pausedUntil) return { kind: 'unpaid', retryAt: this.pausedUntil, detail: 'FLOOD_WAIT: nothing sent' };
    const formId = form.ref.split('@')[0];
    let paid;
    try {
      paid = await this.gw.sendForm(formId, p.gift, p.username);
    } catch (e) {
      if (!(e instanceof GatewayError)) return { kind: 'unknown', detail: `no answer to the payment: ${(e as Error).message}` };
      switch (e.code) {
        case 'FLOOD_WAIT':
          this.pausedUntil = this.deps.clock.now() + (e.seconds ?? RETRY_SEC) * 1000;
          return { kind: 'unpaid', retryAt: this.pausedUntil, detail: e.message };
        case 'FORM_EXPIRED':
        case 'STARS_FORM_AMOUNT_MISMATCH':
          return { kind: 'unpaid', detail: `${e.code}: the form is read again` };
        case 'FORM_SUBMIT_DUPLICATE':
          return { kind: 'unknown', detail: 'FORM_SUBMIT_DUPLICATE: paid, pending verification' };
      }
      const r = reasonOf(e.code);
      // any other refusal we do not know: the money may have gone, so it is reconciled, never refunded here
      return r ? { kind: 'unpaid', reason: r.reason, stage: r.stage, detail: e.code } : { kind: 'unknown', detail: `unexpected answer ${e.code}` };
    }
    // The receipt identifies this payment, committed with `paid` by the application: the gift's message that
    // Telegram's answer carried, else the form this call paid (the answer itself is the proof).
    return { kind: 'paid', receipt: paid.messageId !== null ? `tg-msg:${paid.messageId}` : `tg-form:${formId}` };
  }

  /**
   * After a crash, a timeout or an unknown answer: the call's own answer, the only thing that identifies its
   * payment (the gift's message), was lost, and Telegram shows the form nowhere. So nothing proves it paid:
   * a payment of the same gift on the account, or the recipient owning it, may be an earlier order's (the gift
   * resold since), and is written in the detail for the operator, never taken as this order's. Unpaid: the
   * listing is still for sale for TON, owned by someone other than the recipient (a payment of this call
   * would have taken it off the market; the application waits out a call still in flight first). Otherwise
   * unknown, which ends in manual review. It never pays.
   */
  async reconcile(p: GiftPurchase, form: PurchaseForm): Promise<ReconcileOutcome> {
    const formId = form.ref.split('@')[0];
    try {
      const payments = (await this.call(() => this.gw.recentPurchases())).filter((x) => x.slug === p.gift);
      const u = normaliseUsername(p.username);
      const [g, user] = await Promise.all([this.call(() => this.gw.gift(p.gift)), u ? this.call(() => this.gw.user(u)) : null]);
      const recipientOwns = Boolean(g && user && g.ownerUserId === user.userId);
      if (g && !recipientOwns && g.tonPriceNano !== null && g.tonPriceNano > 0n) return { kind: 'unpaid', detail: 'the listing is still for sale: this call paid nothing' };
      const seen = payments.length
        ? `the account's payments of this gift, none identifiable as this order's: ${payments.map((x) => `tg-payment:${x.id} (${ton(x.tonNano)} TON, ${new Date(x.date * 1000).toISOString()})`).join(', ')}`
        : 'no payment of this gift on the account';
      const where = recipientOwns ? 'the recipient owns the gift now' : g && g.tonPriceNano === null ? 'the listing is gone' : 'the recipient does not own the gift';
      return { kind: 'unknown', detail: `the answer to the paid call (form ${formId}) was lost, and with it the only identifier of its payment; ${seen}; ${where}` };
    } catch (e) {
      return { kind: 'unknown', detail: `reconciliation not possible now: ${(e as Error).message}` };
    }
  }

  /** Buying with `to_id` is the transfer: the paid purchase's receipt is its record. */
  async transferOf(_orderId: string, paidReceipt: string | null): Promise<{ transferHash: string } | null> {
    return paidReceipt ? { transferHash: paidReceipt } : null;
  }

  links(gift: string, _transferHash: string) {
    const address = this.addresses.get(gift);
    return { nft_public_url: `https://t.me/nft/${gift}`, ton_explorer_url: address ? `https://tonviewer.com/${address}` : '' };
  }
}

/** Telegram's refusals that are definite (nothing paid), as the contract's reasons. */
function reasonOf(code: string): { reason: string; stage: NftStage } | null {
  if (code === 'BALANCE_TOO_LOW') return { reason: 'insufficient_funds', stage: 'balance' };
  if (RECIPIENT_REFUSES.test(code)) return { reason: 'invalid_recipient', stage: 'create' };
  if (GIFT_GONE.test(code)) return { reason: 'gift_not_for_sale', stage: 'create' };
  return null;
}

function ton(nano: bigint): string {
  return `${nano / 1_000_000_000n}.${(nano % 1_000_000_000n).toString().padStart(9, '0')}`;
}
