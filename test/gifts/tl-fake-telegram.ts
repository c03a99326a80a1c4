import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Long, tl } from '@mtcute/core';
import { serializeObject } from '@mtcute/core/utils.js';
import { GatewayError, type GatewayGift } from '../../src/suppliers/telegram-gifts/gateway.js';
import { FakeGiftMarket } from './fake-gateway.js';
import { tlJson, type WireRequest } from './tl-wire.js';

/**
 * Telegram's gift marketplace as an out-of-process fake for the service's real MTProto gateway: an HTTP
 * server (in the test process; the service runs as a child process) that answers the TL requests of the
 * current layer from the stateful FakeGiftMarket. Every answer is built with @mtcute/core's TL types and
 * written with its TL writer, and every request is re-encoded and compared with the bytes the service
 * wrote, so a field name or type the layer does not have fails here (`problems`), not in production.
 *
 * A paid call that the market scripts as lost (`payThenLose`: paid, `loseOnly`: not paid) is never
 * answered: the request is held open, which is the window in which the tests kill the service.
 */
export class TlFakeTelegram {
  readonly market = new FakeGiftMarket(() => Date.now());
  /** requests whose bytes did not match their JSON, answers the writer refused, unknown methods */
  readonly problems: string[] = [];
  /** paid calls held open without an answer */
  readonly held: http.ServerResponse[] = [];
  /** every RPC by method name */
  readonly calls = new Map<string, number>();
  private server: http.Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => void this.handle(body, res));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/rpc`;
  }

  async close(): Promise<void> {
    for (const r of this.held.splice(0)) r.destroy();
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }

  private async handle(body: string, res: http.ServerResponse): Promise<void> {
    let req: tl.RpcMethod;
    try {
      const wire = JSON.parse(body) as WireRequest;
      req = tlJson.parse(wire.json) as tl.RpcMethod;
      const again = Buffer.from(serializeObject(req as unknown as tl.TlObject)).toString('base64');
      if (again !== wire.bytes) this.problems.push(`${req._}: the JSON and the TL bytes differ`);
    } catch (e) {
      this.problems.push(`unreadable request: ${(e as Error).message}`);
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 400, message: 'INPUT_REQUEST_INVALID' }));
      return;
    }
    this.calls.set(req._, (this.calls.get(req._) ?? 0) + 1);
    let answer: tl.TlObject;
    try {
      answer = await this.answer(req);
    } catch (e) {
      if (e instanceof GatewayError) {
        const flood = e.code === 'FLOOD_WAIT';
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ code: flood ? 420 : 400, message: flood ? `FLOOD_WAIT_${e.seconds ?? 1}` : e.code }));
        return;
      }
      if (req._ === 'payments.sendStarsForm') {
        this.held.push(res); // the answer never comes
        return;
      }
      this.problems.push(`${req._}: ${(e as Error).message}`);
      res.writeHead(500).end();
      return;
    }
    let bytes: Uint8Array;
    try {
      bytes = serializeObject(answer);
    } catch (e) {
      this.problems.push(`${req._}: the answer is not of the layer: ${(e as Error).message}`);
      res.writeHead(500).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from(bytes));
  }

  private usernameOf(peer: tl.TypeInputPeer | tl.TypeInputUser): string {
    const id = 'userId' in peer ? String(peer.userId) : '';
    for (const [name, u] of this.market.users) if (u.userId === id) return name;
    throw new GatewayError('PEER_ID_INVALID');
  }

  private user(name: string): tl.RawUser {
    const u = this.market.users.get(name)!;
    return { _: 'user', id: Number(u.userId), accessHash: Long.fromNumber(Number(u.userId) * 7), firstName: u.name, username: name };
  }

  private async answer(req: tl.RpcMethod): Promise<tl.TlObject> {
    const m = this.market;
    switch (req._) {
      case 'payments.getStarGifts':
        return {
          _: 'payments.starGifts',
          hash: 1,
          gifts: (await m.collections()).map(
            (c): tl.RawStarGift => ({ _: 'starGift', id: Long.fromString(c.giftId), sticker: { _: 'documentEmpty', id: Long.ZERO }, stars: Long.fromNumber(500), convertStars: Long.fromNumber(400), availabilityResale: Long.fromNumber(c.resale), resellMinStars: Long.fromNumber(125), title: c.title }),
          ),
          chats: [],
          users: [],
        } satisfies tl.payments.RawStarGifts;
      case 'payments.getResaleStarGifts': {
        const r = await m.listings(req.giftId.toString(), req.offset, req.limit);
        return { _: 'payments.resaleStarGifts', count: (await m.listings_(req.giftId.toString())).length, gifts: r.gifts.map((g) => unique(g, req.giftId)), nextOffset: r.next ?? undefined, chats: [], users: [] } satisfies tl.payments.RawResaleStarGifts;
      }
      case 'payments.getUniqueStarGift': {
        const g = await m.gift(req.slug);
        if (!g) throw new GatewayError('STARGIFT_SLUG_INVALID');
        return { _: 'payments.uniqueStarGift', gift: unique(g, Long.fromNumber(5_000_000)), chats: [], users: [] } satisfies tl.payments.RawUniqueStarGift;
      }
      case 'contacts.resolveUsername': {
        const u = await m.user(req.username);
        if (!u) throw new GatewayError('USERNAME_NOT_OCCUPIED');
        return { _: 'contacts.resolvedPeer', peer: { _: 'peerUser', userId: Number(u.userId) }, chats: [], users: [this.user(req.username)] } satisfies tl.contacts.RawResolvedPeer;
      }
      case 'users.getFullUser': {
        const name = this.usernameOf(req.id);
        const u = m.users.get(name)!;
        return {
          _: 'users.userFull',
          fullUser: {
            _: 'userFull',
            id: Number(u.userId),
            settings: { _: 'peerSettings' },
            notifySettings: { _: 'peerNotifySettings' },
            commonChatsCount: 0,
            disallowedGifts: u.acceptsUnique ? undefined : { _: 'disallowedGiftsSettings', disallowUniqueStargifts: true },
          },
          chats: [],
          users: [this.user(name)],
        } satisfies tl.users.RawUserFull;
      }
      case 'payments.getPaymentForm': {
        const inv = req.invoice;
        if (inv._ !== 'inputInvoiceStarGiftResale') throw new GatewayError('INVOICE_INVALID');
        if (!inv.ton) this.problems.push('getPaymentForm without ton: true (the service pays in TON only)');
        const f = await m.paymentForm(inv.slug, this.usernameOf(inv.toId));
        return { _: 'payments.paymentFormStarGift', formId: Long.fromString(f.formId), invoice: { _: 'invoice', currency: f.currency, prices: f.prices.map((a) => ({ _: 'labeledPrice', label: 'Gift', amount: Long.fromString(a.toString()) })) } } satisfies tl.payments.RawPaymentFormStarGift;
      }
      case 'payments.sendStarsForm': {
        const inv = req.invoice;
        if (inv._ !== 'inputInvoiceStarGiftResale' || !inv.ton) throw new GatewayError('INVOICE_INVALID');
        const to = this.usernameOf(inv.toId);
        const paid = await m.sendForm(req.formId.toString(), inv.slug, to);
        const l = m.items.get(inv.slug)!;
        const date = Math.floor(Date.now() / 1000);
        // the answer's updates: the balance, and the gift's service message in the account's chat with the recipient
        const message: tl.RawMessageService = {
          _: 'messageService',
          out: true,
          id: paid.messageId!,
          peerId: { _: 'peerUser', userId: Number(m.users.get(to)!.userId) },
          date,
          action: {
            _: 'messageActionStarGiftUnique',
            transferred: true,
            gift: unique({ slug: l.slug, title: l.title, num: l.num, attributes: { model: 'M', backdrop: 'B', symbol: 'S' }, tonPriceNano: null, giftAddress: l.giftAddress, ownerUserId: l.owner }, Long.fromNumber(5_000_000)),
            peer: { _: 'peerUser', userId: Number(m.users.get(to)!.userId) },
            savedId: Long.fromNumber(paid.messageId!),
          },
        };
        const b = await m.balances();
        return {
          _: 'payments.paymentResult',
          updates: {
            _: 'updates',
            updates: [
              { _: 'updateStarsBalance', balance: { _: 'starsTonAmount', amount: Long.fromString(b.tonNano.toString()) } },
              { _: 'updateNewMessage', message, pts: paid.messageId!, ptsCount: 1 },
            ],
            users: [this.user(to)],
            chats: [],
            date,
            seq: 0,
          },
        } satisfies tl.payments.RawPaymentResult;
      }
      case 'payments.getStarsStatus': {
        const b = await m.balances();
        return { _: 'payments.starsStatus', balance: req.ton ? { _: 'starsTonAmount', amount: Long.fromString(b.tonNano.toString()) } : { _: 'starsAmount', amount: Long.fromString(b.stars), nanos: 0 }, chats: [], users: [] } satisfies tl.payments.RawStarsStatus;
      }
      case 'payments.getStarsTransactions': {
        if (!req.ton || !req.outbound) this.problems.push('getStarsTransactions without ton: true and outbound: true');
        const b = await m.balances();
        const history = (await m.recentPurchases()).map(
          (x): tl.RawStarsTransaction => ({
            _: 'starsTransaction',
            id: x.id,
            stargiftResale: true,
            amount: { _: 'starsTonAmount', amount: Long.fromString((-x.tonNano).toString()) },
            date: x.date,
            peer: { _: 'starsTransactionPeer', peer: { _: 'peerUser', userId: 777 } },
            stargift: unique({ slug: x.slug, title: 'Gift', num: Number(x.slug.split('-')[1]), attributes: { model: 'M', backdrop: 'B', symbol: 'S' }, tonPriceNano: null, giftAddress: null, ownerUserId: null }, Long.fromNumber(5_000_000)),
          }),
        );
        return { _: 'payments.starsStatus', balance: { _: 'starsTonAmount', amount: Long.fromString(b.tonNano.toString()) }, history, chats: [], users: [] } satisfies tl.payments.RawStarsStatus;
      }
      default:
        throw new Error(`no answer for ${req._}`);
    }
  }
}

/** A unique gift as Telegram sends it (starGiftUnique), with its resale prices in Stars and TON. */
function unique(g: GatewayGift, giftId: Long): tl.RawStarGiftUnique {
  const rarity: tl.TypeStarGiftAttributeRarity = { _: 'starGiftAttributeRarity', permille: 10 };
  return {
    _: 'starGiftUnique',
    id: Long.fromNumber(g.num),
    giftId,
    title: g.title,
    slug: g.slug,
    num: g.num,
    ownerId: g.ownerUserId ? { _: 'peerUser', userId: Number(g.ownerUserId) } : undefined,
    attributes: [
      { _: 'starGiftAttributeModel', name: g.attributes.model, document: { _: 'documentEmpty', id: Long.ZERO }, rarity },
      { _: 'starGiftAttributePattern', name: g.attributes.symbol, document: { _: 'documentEmpty', id: Long.ZERO }, rarity },
      { _: 'starGiftAttributeBackdrop', name: g.attributes.backdrop, backdropId: 1, centerColor: 1, edgeColor: 2, patternColor: 3, textColor: 4, rarity },
    ],
    availabilityIssued: 100,
    availabilityTotal: 1000,
    resellAmount: g.tonPriceNano === null ? undefined : [{ _: 'starsAmount', amount: Long.fromNumber(5000), nanos: 0 }, { _: 'starsTonAmount', amount: Long.fromString(g.tonPriceNano.toString()) }],
    giftAddress: g.giftAddress ?? undefined,
  };
}
