import { GatewayError, type GatewayCollection, type GatewayForm, type GatewayGift, type GatewayPayment, type GatewayPurchase, type GatewayUser, type GiftGateway } from '../../src/suppliers/telegram-gifts/gateway.js';

/**
 * A stateful fake of Telegram's gift marketplace behind the adapter's narrow interface: listings with TON
 * (or Stars only) prices, accounts with their gift privacy, the buying account's TON balance, payment
 * forms that expire, purchases that move the gift to the recipient and appear in the account's TON
 * transactions. Scripted answers make the paid call fail, hang or answer nothing.
 */

const NANO = 1_000_000_000n;

export interface FakeListing {
  slug: string;
  title: string;
  num: number;
  /** TON price in nanoTON, or null: listed for Stars only (or not for sale) */
  tonNano: bigint | null;
  owner: string;
  giftAddress: string | null;
}

type SendScript =
  /** Telegram answers this RPC error before anything is paid */
  | { error: string; seconds?: number }
  /** the payment goes through, but the answer never reaches the service (a crash, a cut connection) */
  | { payThenLose: true }
  /** no payment, and no answer either (a timeout before Telegram saw the call) */
  | { loseOnly: true };

export class FakeGiftMarket implements GiftGateway {
  readonly collectionsList: GatewayCollection[] = [];
  readonly items = new Map<string, FakeListing>();
  readonly users = new Map<string, { userId: string; name: string; acceptsUnique: boolean }>([['gift_buyer', { userId: '1000', name: 'Buyer', acceptsUnique: true }]]);
  balanceNano = 500n * NANO;
  stars = '0';
  readonly forms = new Map<string, { slug: string; to: string; amount: bigint; currency: string; at: number }>();
  readonly purchases: (GatewayPurchase & { to: string })[] = [];
  /** the gift's service message of each purchase, in the account's chat with the recipient (ids: the account's message sequence) */
  readonly messages: { id: number; slug: string; to: string; formId: string }[] = [];
  /** every paid call that reached the fake (successful or not) */
  sendCalls = 0;
  /** scripted answers to the next paid calls, in order */
  readonly sendScript: SendScript[] = [];
  /** the form's currency for the next getPaymentForm ("XTR": Stars) */
  formCurrency = 'TON';
  /** the next getPaymentForm answers a form of another kind (not payments.paymentFormStarGift) */
  plainForm = false;
  /** getPaymentForm answers this many more times, then never again (the market stalls: a timeout) */
  formsLeft: number | null = null;
  /** FLOOD_WAIT seconds for the next call of any kind */
  floodNext: number | null = null;
  private formSeq = 0;
  private txSeq = 0;
  private msgSeq = 4000;

  constructor(private readonly nowMs: () => number) {}

  /** A collection of `n` TON listings priced from `fromTon` upward, 1 TON apart. */
  addCollection(name: string, title: string, n: number, fromTon: number): void {
    this.collectionsList.push({ giftId: String(5_000_000 + this.collectionsList.length), title, resale: n });
    for (let i = 1; i <= n; i++) {
      const slug = `${name}-${100 + i}`;
      this.items.set(slug, { slug, title, num: 100 + i, tonNano: BigInt(fromTon + i - 1) * NANO, owner: '777', giftAddress: i % 2 ? `EQ${name.slice(0, 4)}${String(i).padStart(42, '0')}` : null });
    }
  }

  user_(name: string, acceptsUnique = true): void {
    this.users.set(name, { userId: String(2000 + this.users.size), name, acceptsUnique });
  }

  private flood(): void {
    if (this.floodNext !== null) {
      const s = this.floodNext;
      this.floodNext = null;
      throw new GatewayError('FLOOD_WAIT', s);
    }
  }

  private view(l: FakeListing): GatewayGift {
    return { slug: l.slug, title: l.title, num: l.num, attributes: { model: `Model ${l.num % 7}`, backdrop: `Backdrop ${l.num % 5}`, symbol: `Symbol ${l.num % 3}` }, tonPriceNano: l.tonNano, giftAddress: l.giftAddress, ownerUserId: l.owner };
  }

  async me() {
    return { userId: '1000', name: 'Buyer', username: 'gift_buyer' };
  }

  async collections() {
    this.flood();
    return this.collectionsList;
  }

  async listings_(giftId: string) {
    const col = this.collectionsList.find((c) => c.giftId === giftId);
    return [...this.items.values()].filter((l) => l.title === col?.title && l.tonNano !== null).sort((a, b) => Number((a.tonNano ?? 0n) - (b.tonNano ?? 0n)));
  }

  async listings(giftId: string, offset: string, limit: number) {
    this.flood();
    const all = await this.listings_(giftId);
    const start = Number(offset || '0');
    const page = all.slice(start, start + limit);
    return { gifts: page.map((l) => this.view(l)), next: start + limit < all.length ? String(start + limit) : null };
  }

  async gift(slug: string) {
    this.flood();
    const l = this.items.get(slug);
    return l ? this.view(l) : null;
  }

  async user(username: string): Promise<GatewayUser | null> {
    this.flood();
    const u = this.users.get(username);
    return u ? { userId: u.userId, displayName: u.name, acceptsUniqueGifts: u.acceptsUnique } : null;
  }

  async paymentForm(slug: string, to: string): Promise<GatewayForm> {
    this.flood();
    if (this.formsLeft !== null && this.formsLeft-- <= 0) throw new Error('timeout: no answer to getPaymentForm');
    const l = this.items.get(slug);
    if (!l || l.tonNano === null) throw new GatewayError('STARGIFT_NOT_FOUND');
    const u = this.users.get(to);
    if (!u) throw new GatewayError('PEER_ID_INVALID');
    if (!u.acceptsUnique) throw new GatewayError('USER_DISALLOWED_STARGIFTS');
    const formId = String(9_000_000_000 + ++this.formSeq);
    const currency = this.formCurrency;
    const amount = currency === 'TON' ? l.tonNano : 1000n;
    this.forms.set(formId, { slug, to, amount, currency, at: this.nowMs() });
    return { formId, starGift: !this.plainForm, currency, prices: [amount] };
  }

  async sendForm(formId: string, slug: string, to: string): Promise<GatewayPayment> {
    this.sendCalls++;
    const script = this.sendScript.shift();
    if (script && 'error' in script) throw new GatewayError(script.error, script.seconds);
    if (script && 'loseOnly' in script) throw new Error('connection lost');
    const f = this.forms.get(formId);
    if (!f || f.slug !== slug || f.to !== to) throw new GatewayError('FORM_ID_INVALID');
    if (this.nowMs() - f.at > 10 * 60_000) throw new GatewayError('FORM_EXPIRED');
    if (this.purchases.some((p) => p.id === `form-${formId}`)) throw new GatewayError('FORM_SUBMIT_DUPLICATE');
    const l = this.items.get(slug);
    if (!l || l.tonNano === null) throw new GatewayError('STARGIFT_NOT_FOUND');
    if (l.tonNano !== f.amount) throw new GatewayError('STARS_FORM_AMOUNT_MISMATCH');
    if (this.balanceNano < f.amount) throw new GatewayError('BALANCE_TOO_LOW');
    // paid: the gift moves to the recipient and leaves the market; the account's TON transactions show it
    this.balanceNano -= f.amount;
    l.owner = this.users.get(to)!.userId;
    l.tonNano = null;
    this.purchases.unshift({ id: `form-${formId}`, slug, tonNano: f.amount, date: Math.floor(this.nowMs() / 1000), to });
    this.txSeq++;
    const message = { id: ++this.msgSeq, slug, to, formId };
    this.messages.push(message);
    if (script && 'payThenLose' in script) throw new Error('connection lost after the payment');
    // the answer's updates carry the gift's message (payments.paymentResult)
    return { messageId: message.id };
  }

  async balances() {
    this.flood();
    return { tonNano: this.balanceNano, stars: this.stars };
  }

  async recentPurchases() {
    this.flood();
    return this.purchases.map(({ to: _to, ...p }) => p);
  }

  /** Successful payments (the money that left). */
  paid(): number {
    return this.purchases.length;
  }
}
