import { Long, tl } from '@mtcute/core';
import { deserializeObject, serializeObject } from '@mtcute/core/utils.js';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/suppliers/telegram-gifts/gateway.js';
import { MtcuteGateway, type TlCaller } from '../../src/suppliers/telegram-gifts/mtcute-gateway.js';

/**
 * The MTProto side of the gift adapter against the real TL layer of @mtcute/core: every request the gateway
 * makes is serialized by mtcute's own TL writer (an unknown constructor or a missing field throws), and the
 * stub's answers (all of them) are serialized and read back by mtcute's reader, so both are the current
 * layer's shapes. (@mtcute/test's stub client would do the same; its only current release needs
 * @fuman/* 0.0.21 and @mtcute/node 0.31, which the npm registry does not have, so this stub is written here.)
 */
class StubClient implements TlCaller {
  readonly requests: { req: tl.RpcMethod; params?: object; bytes: number }[] = [];
  constructor(private readonly answer: (req: any) => unknown) {}
  async call(req: any, params?: object): Promise<any> {
    this.requests.push({ req, params, bytes: serializeObject(req).length });
    const a = this.answer(req);
    if (a instanceof Error) throw a;
    return roundTrip(a);
  }
}

/** Through mtcute's TL writer and reader: only objects of the current layer survive. */
function roundTrip(o: unknown): unknown {
  if (o && typeof o === 'object' && (o as { _?: string })._) return deserializeObject(serializeObject(o as tl.TlObject));
  throw new Error(`the stub answered something that is not a TL object: ${JSON.stringify(o)}`);
}

const USER: tl.RawUser = { _: 'user', id: 4242, accessHash: Long.fromNumber(99), firstName: 'Alice', username: 'alice_fan' };

function unique(slug: string, ton: bigint | null): tl.RawStarGiftUnique {
  return {
    _: 'starGiftUnique',
    id: Long.fromNumber(1),
    giftId: Long.fromString('5170145012310081615'),
    title: 'Plush Pepe',
    slug,
    num: Number(slug.split('-')[1]),
    ownerId: { _: 'peerUser', userId: 777 },
    attributes: [
      { _: 'starGiftAttributeModel', name: 'Cozy Galaxy', document: { _: 'documentEmpty', id: Long.ZERO }, rarity: { _: 'starGiftAttributeRarity', permille: 5 } },
      { _: 'starGiftAttributePattern', name: 'Star', document: { _: 'documentEmpty', id: Long.ZERO }, rarity: { _: 'starGiftAttributeRarity', permille: 10 } },
      { _: 'starGiftAttributeBackdrop', name: 'Onyx Black', backdropId: 1, centerColor: 1, edgeColor: 2, patternColor: 3, textColor: 4, rarity: { _: 'starGiftAttributeRarity', permille: 20 } },
    ],
    availabilityIssued: 100,
    availabilityTotal: 1000,
    resellAmount: ton === null ? [{ _: 'starsAmount', amount: Long.fromNumber(5000), nanos: 0 }] : [{ _: 'starsAmount', amount: Long.fromNumber(5000), nanos: 0 }, { _: 'starsTonAmount', amount: Long.fromString(ton.toString()) }],
    giftAddress: 'EQCpepe000000000000000000000000000000000000000000',
  };
}

function fullUser(id: number, refusesUnique: boolean): tl.RawUserFull {
  return {
    _: 'userFull',
    id,
    settings: { _: 'peerSettings' },
    notifySettings: { _: 'peerNotifySettings' },
    commonChatsCount: 0,
    disallowedGifts: refusesUnique ? { _: 'disallowedGiftsSettings', disallowUniqueStargifts: true } : undefined,
  };
}

function gateway(answer: (req: any) => unknown) {
  const base = (req: any) => {
    if (req._ === 'contacts.resolveUsername') return { _: 'contacts.resolvedPeer', peer: { _: 'peerUser', userId: USER.id }, users: [USER], chats: [] };
    if (req._ === 'users.getFullUser')
      return { _: 'users.userFull', fullUser: fullUser(USER.id, req.id.userId !== USER.id), users: [USER], chats: [] } satisfies tl.users.RawUserFull;
    return answer(req);
  };
  const client = new StubClient(base);
  return { client, gw: new MtcuteGateway(client) };
}

describe('MtcuteGateway: the three calls of a purchase, in the real TL shapes', () => {
  it('payments.getResaleStarGifts: TON-priced listings with their attributes, cheapest first, paged by offset', async () => {
    const { client, gw } = gateway((req) => {
      expect(req).toMatchObject({ _: 'payments.getResaleStarGifts', sortByPrice: true, offset: '', limit: 50 });
      return { _: 'payments.resaleStarGifts', count: 2, gifts: [unique('PlushPepe-17', 12_500_000_000n), unique('PlushPepe-18', null)], nextOffset: 'next-1', chats: [], users: [] } satisfies tl.payments.RawResaleStarGifts;
    });
    const r = await gw.listings('5170145012310081615', '', 50);
    expect(r.next).toBe('next-1');
    expect(r.gifts[0]).toEqual({ slug: 'PlushPepe-17', title: 'Plush Pepe', num: 17, attributes: { model: 'Cozy Galaxy', backdrop: 'Onyx Black', symbol: 'Star' }, tonPriceNano: 12_500_000_000n, giftAddress: 'EQCpepe000000000000000000000000000000000000000000', ownerUserId: '777' });
    expect(r.gifts[1].tonPriceNano).toBeNull(); // a Stars-only listing
    expect(client.requests[0].req).toMatchObject({ giftId: Long.fromString('5170145012310081615') });
  });

  it('payments.getStarGifts: the gift types with collectibles on resale (availability_resale comes with resell_min_stars, one flag)', async () => {
    const base = { sticker: { _: 'documentEmpty', id: Long.ZERO }, stars: Long.fromNumber(500), convertStars: Long.fromNumber(400) } as const;
    const { gw } = gateway(() => ({
      _: 'payments.starGifts',
      hash: 7,
      gifts: [
        { _: 'starGift', id: Long.fromString('5170145012310081615'), ...base, availabilityResale: Long.fromNumber(1234), resellMinStars: Long.fromNumber(125), title: 'Plush Pepe' },
        { _: 'starGift', id: Long.fromNumber(42), ...base, title: 'Not on resale' },
      ],
      chats: [],
      users: [],
    } satisfies tl.payments.RawStarGifts));
    expect(await gw.collections()).toEqual([{ giftId: '5170145012310081615', title: 'Plush Pepe', resale: 1234 }]);
    // the layer writes availability_resale only together with resell_min_stars: one without the other is refused
    expect(() => serializeObject({ _: 'starGift', id: Long.ONE, ...base, availabilityResale: Long.ONE } as tl.RawStarGift)).toThrow();
  });

  it('payments.getPaymentForm on inputInvoiceStarGiftResale{ton: true, slug, to_id: the recipient}', async () => {
    const { client, gw } = gateway(() => ({
      _: 'payments.paymentFormStarGift',
      formId: Long.fromString('7000000000001'),
      invoice: { _: 'invoice', currency: 'TON', prices: [{ _: 'labeledPrice', label: 'Gift', amount: Long.fromString('12500000000') }] },
    } satisfies tl.payments.RawPaymentFormStarGift));
    const f = await gw.paymentForm('PlushPepe-17', 'alice_fan');
    expect(f).toEqual({ formId: '7000000000001', starGift: true, currency: 'TON', prices: [12_500_000_000n] });
    const sent = client.requests.find((x) => x.req._ === 'payments.getPaymentForm')!.req as tl.payments.RawGetPaymentFormRequest;
    expect(sent.invoice).toEqual({ _: 'inputInvoiceStarGiftResale', ton: true, slug: 'PlushPepe-17', toId: { _: 'inputPeerUser', userId: 4242, accessHash: Long.fromNumber(99) } });
  });

  it('payments.sendStarsForm with that form and invoice, never retried or slept inside the client', async () => {
    const { client, gw } = gateway((req) => {
      if (req._ === 'payments.sendStarsForm') return { _: 'payments.paymentResult', updates: { _: 'updates', updates: [], users: [], chats: [], date: 1, seq: 0 } } satisfies tl.payments.RawPaymentResult;
      throw new Error(`unexpected ${req._}`);
    });
    expect(await gw.sendForm('7000000000001', 'PlushPepe-17', 'alice_fan')).toEqual({ messageId: null });
    const sent = client.requests.find((x) => x.req._ === 'payments.sendStarsForm')!;
    expect(sent.req).toEqual({ _: 'payments.sendStarsForm', formId: Long.fromString('7000000000001'), invoice: { _: 'inputInvoiceStarGiftResale', ton: true, slug: 'PlushPepe-17', toId: { _: 'inputPeerUser', userId: 4242, accessHash: Long.fromNumber(99) } } });
    expect(sent.params).toEqual({ maxRetryCount: 0, floodSleepThreshold: 0 });
    expect(sent.bytes).toBeGreaterThan(0);
  });

  it("the answer's updates identify the payment: the id of the gift's own service message (not another gift's, not another update)", async () => {
    const service = (id: number, slug: string): tl.RawUpdateNewMessage => ({
      _: 'updateNewMessage',
      message: { _: 'messageService', out: true, id, peerId: { _: 'peerUser', userId: 4242 }, date: 1, action: { _: 'messageActionStarGiftUnique', transferred: true, gift: unique(slug, null) } },
      pts: id,
      ptsCount: 1,
    });
    const answers: tl.TypeUpdates[] = [
      {
        _: 'updates',
        updates: [{ _: 'updateStarsBalance', balance: { _: 'starsTonAmount', amount: Long.fromNumber(1) } }, service(5120, 'PlushPepe-99'), service(5121, 'PlushPepe-17')],
        users: [USER],
        chats: [],
        date: 1,
        seq: 0,
      },
      { _: 'updateShort', update: service(5200, 'PlushPepe-17'), date: 1 },
      { _: 'updateShort', update: service(5300, 'PlushPepe-99'), date: 1 },
    ];
    const { gw } = gateway((req) => {
      if (req._ === 'payments.sendStarsForm') return { _: 'payments.paymentResult', updates: answers.shift()! } satisfies tl.payments.RawPaymentResult;
      throw new Error(`unexpected ${req._}`);
    });
    expect(await gw.sendForm('1', 'PlushPepe-17', 'alice_fan')).toEqual({ messageId: 5121 });
    expect(await gw.sendForm('2', 'PlushPepe-17', 'alice_fan')).toEqual({ messageId: 5200 });
    expect(await gw.sendForm('3', 'PlushPepe-17', 'alice_fan')).toEqual({ messageId: null });
  });

  it.each([
    ['FORM_EXPIRED', new tl.RpcError(400, 'FORM_EXPIRED'), undefined],
    ['STARS_FORM_AMOUNT_MISMATCH', new tl.RpcError(400, 'STARS_FORM_AMOUNT_MISMATCH'), undefined],
    ['FORM_SUBMIT_DUPLICATE', new tl.RpcError(400, 'FORM_SUBMIT_DUPLICATE'), undefined],
    ['BALANCE_TOO_LOW', new tl.RpcError(400, 'BALANCE_TOO_LOW'), undefined],
    ['STARGIFT_NOT_FOUND', new tl.RpcError(400, 'STARGIFT_NOT_FOUND'), undefined],
    ['FLOOD_WAIT', tl.RpcError.fromTl({ _: 'rpc_error', errorCode: 420, errorMessage: 'FLOOD_WAIT_17' }), 17],
  ])('the RPC error %s reaches the adapter by its name', async (code, err, seconds) => {
    const { gw } = gateway(() => err);
    const e = await gw.sendForm('7000000000001', 'PlushPepe-17', 'alice_fan').catch((x) => x);
    expect(e).toBeInstanceOf(GatewayError);
    expect(e).toMatchObject({ code, seconds });
  });

  it('a verification asked for is no payment: PAYMENT_VERIFICATION_NEEDED', async () => {
    const { gw } = gateway(() => ({ _: 'payments.paymentVerificationNeeded', url: 'https://example.com/verify' }) satisfies tl.payments.RawPaymentVerificationNeeded);
    await expect(gw.sendForm('1', 'PlushPepe-17', 'alice_fan')).rejects.toMatchObject({ code: 'PAYMENT_VERIFICATION_NEEDED' });
  });

  it("the account's TON and Stars balances, and its TON payments for resold gifts", async () => {
    const { client, gw } = gateway((req) => {
      if (req._ === 'payments.getStarsStatus')
        return { _: 'payments.starsStatus', balance: req.ton ? { _: 'starsTonAmount', amount: Long.fromString('42000000000') } : { _: 'starsAmount', amount: Long.fromNumber(150), nanos: 0 }, chats: [], users: [] } satisfies tl.payments.RawStarsStatus;
      if (req._ === 'payments.getStarsTransactions')
        return {
          _: 'payments.starsStatus',
          balance: { _: 'starsTonAmount', amount: Long.fromString('29500000000') },
          history: [
            { _: 'starsTransaction', id: 'tx-1', stargiftResale: true, amount: { _: 'starsTonAmount', amount: Long.fromString('-12500000000') }, date: 1700000000, peer: { _: 'starsTransactionPeer', peer: { _: 'peerUser', userId: 777 } }, stargift: unique('PlushPepe-17', null) },
            { _: 'starsTransaction', id: 'tx-0', amount: { _: 'starsTonAmount', amount: Long.fromString('-1000000000') }, date: 1690000000, peer: { _: 'starsTransactionPeerFragment' } },
          ],
          chats: [],
          users: [],
        } satisfies tl.payments.RawStarsStatus;
      throw new Error(`unexpected ${req._}`);
    });
    expect(await gw.balances()).toEqual({ tonNano: 42_000_000_000n, stars: '150' });
    expect(await gw.recentPurchases()).toEqual([{ id: 'tx-1', slug: 'PlushPepe-17', tonNano: 12_500_000_000n, date: 1700000000 }]);
    expect(client.requests.find((x) => x.req._ === 'payments.getStarsTransactions')!.req).toMatchObject({ ton: true, outbound: true, peer: { _: 'inputPeerSelf' } });
  });

  it('a recipient whose privacy refuses unique gifts, and one that does not exist', async () => {
    const { gw } = gateway(() => new tl.RpcError(400, 'USERNAME_NOT_OCCUPIED'));
    expect(await gw.user('alice_fan')).toEqual({ userId: '4242', displayName: 'Alice', acceptsUniqueGifts: true });
    const other = new MtcuteGateway(
      new StubClient((req) => {
        if (req._ === 'contacts.resolveUsername') return req.username === 'ghost_user' ? new tl.RpcError(400, 'USERNAME_NOT_OCCUPIED') : { _: 'contacts.resolvedPeer', peer: { _: 'peerUser', userId: 5 }, users: [{ ...USER, id: 5 }], chats: [] };
        return { _: 'users.userFull', fullUser: fullUser(5, true), users: [], chats: [] } satisfies tl.users.RawUserFull;
      }),
    );
    expect(await other.user('nogift_nina')).toMatchObject({ acceptsUniqueGifts: false });
    expect(await other.user('ghost_user')).toBeNull();
  });
});
