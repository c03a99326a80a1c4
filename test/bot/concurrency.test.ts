import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, waitFor } from './fake-telegram.js';
import { settle, World } from './harness.js';

/**
 * Updates run concurrently (@grammyjs/runner), each chat's and each person's in order (sequentialize):
 * a supplier that is slow for one chat keeps no other chat waiting.
 */
let w: World;
beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

describe('the bot under load', () => {
  it('when one chat waits on a slow recipient lookup, then another chat gets its /balance meanwhile, and the slow chat’s next update waits its turn', async () => {
    const p = await w.t.newPartner();
    const slow = await w.linkedChat(p.id, 'staff');
    const other = await w.linkedChat(p.id, 'owner');

    // The supplier's resolver holds the lookup of one username until the test lets it go: a slow supplier.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let held = 0;
    const suppliers = w.t.deps.suppliers;
    const resolver = suppliers.resolver;
    w.t.deps.suppliers = {
      ...suppliers,
      resolver: {
        ...resolver,
        resolve: async (u: string) => {
          if (/slow_lookup/.test(u)) {
            held++;
            await gate;
          }
          return resolver.resolve(u);
        },
      },
    };
    try {
      await slow.say('/order');
      const products = await slow.expectMenu('What would you like to order?');
      await slow.press(products, button(products, 'Stars'));
      const amounts = await slow.expectMenu('How many stars?');
      await slow.press(amounts, button(amounts, /^50$/));
      await slow.expect('Send the recipient');
      await slow.say('@slow_lookup_user');
      await waitFor(() => held === 1, 'the lookup to be held');

      // another chat is answered while the first one's update is still in the supplier's hands
      await other.say('/balance');
      const balances = await other.expect('Balances:', 'the other chat’s /balance while the lookup is held', 10_000);
      expect(balances.text).toContain('USD: 1,000.00');
      expect(held).toBe(1);

      // the slow chat's own next update is fetched but waits behind the held one
      await slow.say('/balance');
      await settle(w, 300);
      expect(slow.fresh.map((m) => m.text).filter((t) => t.includes('Balances:'))).toEqual([]);

      release();
      await waitFor(() => slow.all.some((m) => m.text.includes('Balances:')), 'the slow chat’s /balance after the lookup');
      const texts = slow.all.map((m) => m.text);
      const check = texts.findIndex((t) => t.includes('Please check the order'));
      const balance = texts.findIndex((t) => t.includes('Balances:'));
      // in the order the chat sent them: the order's confirmation first, then the balance
      expect(check).toBeGreaterThanOrEqual(0);
      expect(balance).toBeGreaterThan(check);
      expect(texts[check]).toContain('50 stars for @slow_lookup_user');
    } finally {
      release();
      w.t.deps.suppliers = suppliers;
    }
  });
});
