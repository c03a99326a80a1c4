import { Long, tl } from '@mtcute/core';
import { GatewayError, type GatewayAttributes, type GatewayForm, type GatewayGift, type GatewayPayment, type GatewayPurchase, type GatewayUser, type GiftGateway } from './gateway.js';

/**
 * GiftGateway over an mtcute client: the TL requests and answers of the current layer, typed by
 * @mtcute/core. `TlCaller` is the one method used (mtcute's TelegramClient has it), so a stub can stand in.
 */
export interface TlCaller {
  call<T extends tl.RpcMethod>(message: T, params?: { maxRetryCount?: number; floodSleepThreshold?: number; timeout?: number }): Promise<tl.RpcCallReturn[T['_']]>;
}

/** The paid call is never retried by the client: a retry of an unanswered payment is the service's decision. */
const PAID_CALL = { maxRetryCount: 0, floodSleepThreshold: 0 };
/** Other calls: flood waits are reported (the adapter pauses), never slept inside the client. */
const READ_CALL = { floodSleepThreshold: 0 };

/** An RPC error as a GatewayError with Telegram's name (FLOOD_WAIT_17 → FLOOD_WAIT, 17 s). */
export function gatewayErrorOf(e: unknown): unknown {
  if (!tl.RpcError.is(e)) return e;
  if (e.is('FLOOD_WAIT_%d')) return new GatewayError('FLOOD_WAIT', e.seconds);
  const m = /^FLOOD_WAIT_(\d+)$/.exec(e.text);
  if (m) return new GatewayError('FLOOD_WAIT', Number(m[1]));
  return new GatewayError(e.text);
}

export class MtcuteGateway implements GiftGateway {
  private readonly peers = new Map<string, tl.TypeInputPeer>();

  constructor(private readonly client: TlCaller) {}

  private async rpc<T extends tl.RpcMethod>(req: T, params = READ_CALL): Promise<tl.RpcCallReturn[T['_']]> {
    try {
      return await this.client.call(req, params);
    } catch (e) {
      throw gatewayErrorOf(e);
    }
  }

  async me() {
    const users = await this.rpc({ _: 'users.getUsers', id: [{ _: 'inputUserSelf' }] });
    const u = users.find((x): x is tl.RawUser => x._ === 'user');
    if (!u) throw new GatewayError('USER_NOT_FOUND');
    return { userId: String(u.id), name: [u.firstName, u.lastName].filter(Boolean).join(' '), username: u.username ?? null };
  }

  async collections() {
    const r = await this.rpc({ _: 'payments.getStarGifts', hash: 0 });
    if (r._ !== 'payments.starGifts') return [];
    return r.gifts
      .filter((g): g is tl.RawStarGift => g._ === 'starGift' && g.availabilityResale !== undefined)
      .map((g) => ({ giftId: g.id.toString(), title: g.title ?? '', resale: Number(g.availabilityResale ?? 0) }));
  }

  async listings(giftId: string, offset: string, limit: number) {
    const r = await this.rpc({ _: 'payments.getResaleStarGifts', giftId: Long.fromString(giftId), sortByPrice: true, offset, limit });
    return { gifts: r.gifts.filter((g): g is tl.RawStarGiftUnique => g._ === 'starGiftUnique').map(uniqueGift), next: r.nextOffset ? r.nextOffset : null };
  }

  async gift(slug: string) {
    try {
      const r = await this.rpc({ _: 'payments.getUniqueStarGift', slug });
      return r.gift._ === 'starGiftUnique' ? uniqueGift(r.gift) : null;
    } catch (e) {
      if (e instanceof GatewayError && /^(STARGIFT_SLUG_INVALID|STARGIFT_NOT_FOUND|SLUG_INVALID)$/.test(e.code)) return null;
      throw e;
    }
  }

  async user(username: string): Promise<GatewayUser | null> {
    let resolved;
    try {
      resolved = await this.rpc({ _: 'contacts.resolveUsername', username });
    } catch (e) {
      if (e instanceof GatewayError && /^(USERNAME_NOT_OCCUPIED|USERNAME_INVALID)$/.test(e.code)) return null;
      throw e;
    }
    if (resolved.peer._ !== 'peerUser') return null;
    const id = resolved.peer.userId;
    const u = resolved.users.find((x): x is tl.RawUser => x._ === 'user' && x.id === id);
    if (!u || u.deleted || u.bot) return null;
    const input: tl.RawInputPeerUser = { _: 'inputPeerUser', userId: u.id, accessHash: u.accessHash ?? Long.ZERO };
    this.peers.set(username.toLowerCase(), input);
    const full = await this.rpc({ _: 'users.getFullUser', id: { _: 'inputUser', userId: u.id, accessHash: input.accessHash } });
    const d = full.fullUser.disallowedGifts;
    return { userId: String(u.id), displayName: [u.firstName, u.lastName].filter(Boolean).join(' ') || username, acceptsUniqueGifts: !d?.disallowUniqueStargifts };
  }

  private async peerOf(username: string): Promise<tl.TypeInputPeer> {
    const known = this.peers.get(username.toLowerCase());
    if (known) return known;
    if (!(await this.user(username))) throw new GatewayError('USERNAME_NOT_OCCUPIED');
    return this.peers.get(username.toLowerCase())!;
  }

  /** inputInvoiceStarGiftResale{ton: true, slug, to_id}: the gift bought for the recipient, paid in TON. */
  private async invoice(slug: string, recipientUsername: string): Promise<tl.RawInputInvoiceStarGiftResale> {
    return { _: 'inputInvoiceStarGiftResale', ton: true, slug, toId: await this.peerOf(recipientUsername) };
  }

  async paymentForm(slug: string, recipientUsername: string): Promise<GatewayForm> {
    const f = await this.rpc({ _: 'payments.getPaymentForm', invoice: await this.invoice(slug, recipientUsername) });
    if (f._ !== 'payments.paymentFormStarGift') return { formId: f.formId.toString(), starGift: false, currency: f.invoice._ === 'invoice' ? f.invoice.currency : '', prices: [] };
    const inv = f.invoice;
    return { formId: f.formId.toString(), starGift: true, currency: inv.currency, prices: inv.prices.map((p) => BigInt(p.amount.toString())) };
  }

  async sendForm(formId: string, slug: string, recipientUsername: string): Promise<GatewayPayment> {
    const invoice = await this.invoice(slug, recipientUsername);
    const r = await this.rpc({ _: 'payments.sendStarsForm', formId: Long.fromString(formId), invoice }, PAID_CALL);
    // a verification asked for is no payment made: the service cannot open a URL
    if (r._ === 'payments.paymentVerificationNeeded') throw new GatewayError('PAYMENT_VERIFICATION_NEEDED');
    return { messageId: giftMessageIn(r.updates, slug) };
  }

  async balances() {
    const [t, s] = await Promise.all([
      this.rpc({ _: 'payments.getStarsStatus', ton: true, peer: { _: 'inputPeerSelf' } }),
      this.rpc({ _: 'payments.getStarsStatus', peer: { _: 'inputPeerSelf' } }),
    ]);
    return { tonNano: amountOf(t.balance), stars: amountOf(s.balance).toString() };
  }

  async recentPurchases(): Promise<GatewayPurchase[]> {
    const r = await this.rpc({ _: 'payments.getStarsTransactions', ton: true, outbound: true, peer: { _: 'inputPeerSelf' }, offset: '', limit: 50 });
    const out: GatewayPurchase[] = [];
    for (const x of r.history ?? []) {
      if (!x.stargiftResale || x.refund || x.failed || x.stargift?._ !== 'starGiftUnique') continue;
      const a = amountOf(x.amount);
      out.push({ id: x.id, slug: x.stargift.slug, tonNano: a < 0n ? -a : a, date: x.date });
    }
    return out;
  }
}

/**
 * The id of the gift's service message in the paid call's answer: a new message whose action is
 * messageActionStarGiftUnique for this slug (the message mtcute's own buyResaleGift returns).
 */
function giftMessageIn(updates: tl.TypeUpdates, slug: string): number | null {
  const list = updates._ === 'updates' || updates._ === 'updatesCombined' ? updates.updates : updates._ === 'updateShort' ? [updates.update] : [];
  for (const u of list) {
    if (u._ !== 'updateNewMessage' || u.message._ !== 'messageService') continue;
    const a = u.message.action;
    if (a._ === 'messageActionStarGiftUnique' && a.gift._ === 'starGiftUnique' && a.gift.slug === slug) return u.message.id;
  }
  return null;
}

/** A Stars or TON amount: TON amounts are nanoTON (starsTonAmount), stars keep their whole part. */
function amountOf(a: tl.TypeStarsAmount): bigint {
  return BigInt(a.amount.toString());
}

function uniqueGift(g: tl.RawStarGiftUnique): GatewayGift {
  const attr: GatewayAttributes = { model: '', backdrop: '', symbol: '' };
  for (const a of g.attributes) {
    if (a._ === 'starGiftAttributeModel') attr.model = a.name;
    else if (a._ === 'starGiftAttributeBackdrop') attr.backdrop = a.name;
    else if (a._ === 'starGiftAttributePattern') attr.symbol = a.name;
  }
  const tonPrice = g.resellAmount?.find((x) => x._ === 'starsTonAmount');
  return {
    slug: g.slug,
    title: g.title,
    num: g.num,
    attributes: attr,
    tonPriceNano: tonPrice ? BigInt(tonPrice.amount.toString()) : null,
    giftAddress: g.giftAddress ?? null,
    ownerUserId: g.ownerId?._ === 'peerUser' ? String(g.ownerId.userId) : null,
  };
}
