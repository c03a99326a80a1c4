import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botOrderKey } from '../../src/domain/order-origin.js';
import type { GiftListing, GiftMarket, GiftPurchase, NftStage, PurchaseForm } from '../../src/suppliers/types.js';
import {
  CALLBACK_DATA_MAX_BYTES,
  convData,
  depositData,
  fit,
  giftToken,
  noticeData,
  orderStatusData,
  ordersPageData,
  reviewData,
} from '../../bot/keyboards/data.js';
import { button, waitFor } from './fake-telegram.js';
import { newUser, settle, World } from './harness.js';

/**
 * Telegram refuses a keyboard whose button data is over 64 bytes (BUTTON_DATA_INVALID; the fake Bot API
 * does too). Every builder goes through one check, each part of the data is bounded, and a gift, whose
 * identifier comes from the market without a length limit, is carried by a 12-character token.
 */

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

describe('callback data builders', () => {
  it('the longest data each builder can make stays within 64 bytes', () => {
    const nonce = 'ffffffff'; // Flow: deps.ids.hex(4)
    const biggestUser = Number.MAX_SAFE_INTEGER; // Telegram user ids stay below 2^53
    const worst = [
      convData(nonce, `ok:${botOrderKey(biggestUser, 'f'.repeat(20))}`),
      convData(nonce, `gg:${giftToken('x'.repeat(5000))}`),
      convData(nonce, 'q:999999999'),
      convData(nonce, 'gp:99999'),
      convData(nonce, 'pt:999999999'),
      convData(nonce, 'cancel'),
      orderStatusData(`pa_${'f'.repeat(8)}-${'f'.repeat(4)}-${'f'.repeat(4)}-${'f'.repeat(4)}-${'f'.repeat(12)}`),
      reviewData('delivered', `pa_${'f'.repeat(36)}`, true),
      depositData('credit', `dep_${'f'.repeat(16)}`),
      ordersPageData(9999),
      noticeData('completed', false),
    ];
    for (const d of worst) expect(bytes(d), d).toBeLessThanOrEqual(CALLBACK_DATA_MAX_BYTES);
    expect(bytes(worst[0])).toBe(2 + 8 + 1 + 3 + 4 + 16 + 1 + 20);
  });

  it('a gift token is 12 URL-safe characters whatever the identifier, and differs between gifts', () => {
    const long = `${'VeryLongCollectionName'.repeat(10)}-123456789`;
    expect(giftToken(long)).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(giftToken('PlushPepe-1')).not.toBe(giftToken('PlushPepe-2'));
    expect(giftToken(long)).toBe(giftToken(long));
  });

  it('data over 64 bytes is refused before it reaches Telegram', () => {
    expect(() => fit('x'.repeat(65))).toThrow(/65 bytes/);
    expect(() => fit('я'.repeat(33))).toThrow(/66 bytes/); // bytes, not characters
    expect(fit('x'.repeat(64))).toHaveLength(64);
    expect(() => orderStatusData('x'.repeat(62))).toThrow();
  });
});

/**
 * A gift market with one extra collection whose gift identifiers are longer than a button's data may be
 * (a market adapter at the supplier boundary, like the fake Bot API at Telegram's); everything else is the
 * sandbox market.
 */
const LONG_COLLECTION = 'ExtraordinarilyLongCollectionNameOfAMarket';
class LongIdMarket implements GiftMarket {
  readonly gifts: GiftListing[];
  constructor(private readonly base: GiftMarket) {
    this.gifts = [1, 2, 3].map((i) => ({
      gift: `${LONG_COLLECTION}-12345678${i}`,
      name: 'Extraordinary Gift',
      num: 123456780 + i,
      collection: LONG_COLLECTION,
      image: `https://example.com/${i}.png`,
      priceMilli: 20_000 + i * 1000,
      attributes: { model: 'Model', backdrop: 'Backdrop', symbol: 'Symbol' },
      available: true,
      reserved: false,
    }));
  }
  status() {
    return this.base.status();
  }
  async quote(p: GiftPurchase) {
    const g = this.gifts.find((x) => x.gift === p.gift);
    if (!g) return this.base.quote(p);
    return { kind: 'form' as const, form: { ref: `form-${p.orderId}`, currency: 'TON', amount: String(BigInt(g.priceMilli) * 1_000_000n) } };
  }
  async pay(p: GiftPurchase, f: PurchaseForm) {
    return p.gift.startsWith(LONG_COLLECTION) ? { kind: 'paid' as const, receipt: `paid-${p.orderId}` } : this.base.pay(p, f);
  }
  async reconcile(p: GiftPurchase, f: PurchaseForm) {
    return p.gift.startsWith(LONG_COLLECTION) ? { kind: 'paid' as const, receipt: `paid-${p.orderId}` } : this.base.reconcile(p, f);
  }
  async collections() {
    return [...(await this.base.collections()), { collection: LONG_COLLECTION, name: 'Extraordinary' }];
  }
  async listings(collection: string) {
    return collection === LONG_COLLECTION ? this.gifts : this.base.listings(collection);
  }
  async gift(gift: string) {
    return this.gifts.find((g) => g.gift === gift) ?? this.base.gift(gift);
  }
  feesMilli() {
    return this.base.feesMilli();
  }
  tonUsdCents() {
    return this.base.tonUsdCents();
  }
  async runStage(stage: NftStage, p: Parameters<GiftMarket['runStage']>[1]) {
    if (!p.gift.startsWith(LONG_COLLECTION)) return this.base.runStage(stage, p);
    return { kind: 'done' as const, transferHash: 'ab'.repeat(32) };
  }
  async transferOf(orderId: string, paidReceipt: string | null) {
    return this.base.transferOf(orderId, paidReceipt);
  }
  links(gift: string, transferHash: string) {
    return this.base.links(gift, transferHash);
  }
}

let w: World;
beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

describe('a gift whose identifier is longer than a button may carry', () => {
  it('when staff browse a collection of long gift identifiers, then every button is accepted and the chosen gift is ordered', async () => {
    const market = new LongIdMarket(w.t.deps.suppliers.gifts);
    const chosen = market.gifts[1];
    // without the token, its button could not be sent at all
    expect(bytes(`c:ffffffff:gg:${chosen.gift}`)).toBeGreaterThan(CALLBACK_DATA_MAX_BYTES);
    const original = w.t.deps.suppliers.gifts;
    w.t.deps.suppliers.gifts = market;
    w.t.catalog.invalidate();
    try {
      const p = await w.t.newPartner();
      const chat = w.chat(newUser());
      await w.link(chat.user, p.id, 'staff');
      await chat.say('/order');
      const products = await chat.expectMenu('What would you like to order?');
      await chat.press(products, button(products, 'Gift'));
      const cols = await chat.expectMenu('Choose a collection');
      await chat.press(cols, button(cols, 'Extraordinary'));
      const page = await chat.expectMenu('Extraordinary: gifts from the cheapest (page 1 of 1)');
      const data = page.buttons.flat().map((b) => b.callback_data!);
      for (const d of data) expect(bytes(d)).toBeLessThanOrEqual(CALLBACK_DATA_MAX_BYTES);
      expect(data.join(' ')).not.toContain(LONG_COLLECTION);
      await chat.press(page, button(page, `#${chosen.num}`));
      await chat.expect('Send the recipient');
      expect(w.tg.messages.find((m) => m.message_id === page.message_id)!.text.split('\n')[0]).toBe(`🎁 Extraordinary Gift #${chosen.num}`);
      await chat.say('@wanda_user');
      const confirm = await chat.expectMenu('Please check the order');
      expect(w.tg.messages.find((m) => m.message_id === page.message_id)!.text).toBe(`🎁 Extraordinary Gift #${chosen.num} → @wanda_user`);
      expect(confirm.text).toContain(`Gift Extraordinary Gift #${chosen.num}`);
      await chat.press(confirm, button(confirm, 'Confirm'));
      const accepted = await chat.expect('accepted');
      expect(accepted.text).toMatch(/Order PA-\d+ accepted/);
      const order = (await p.call('GET', '/orders')).body.items[0];
      expect(order.gift.gift).toBe(chosen.gift);
      expect(order.partner_price).toBe((await p.call('GET', `/nft/gifts/${chosen.gift}`)).body.partner_price);
      await settle(w);
      expect(w.tg.refused).toEqual([]);
      await waitFor(() => w.tg.messages.find((m) => m.message_id === confirm.message_id)!.buttons.length === 0, 'the confirmation closed');
    } finally {
      w.t.deps.suppliers.gifts = original;
      w.t.catalog.invalidate();
    }
  });
});
