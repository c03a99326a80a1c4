import { describe, expect, it } from 'vitest';
import { fragmentHarness } from './harness.js';

/**
 * The console's overview shows the hot wallet's balance without waiting for toncenter, which answers one
 * request a second without an API key and is shared with the batches' lookups: however often the overview
 * is opened, a balance younger than 10 s is not asked again, and at most one lookup runs at a time.
 */
const start = fragmentHarness();
const settle = () => new Promise((r) => setTimeout(r, 300));

describe("the console's supplier funds (UPSTREAM=fragment)", () => {
  it('a fresh balance is shown without asking toncenter; a stale one is asked once however many overviews open at once', async () => {
    const e = await start();
    const f = e.t.fragment!;
    const before = e.ton.walletCalls;
    for (let i = 0; i < 5; i++) expect(f.funds()).toEqual([expect.objectContaining({ supplier: 'fragment', currency: 'TON', amount: '50.000000000' })]);
    await settle();
    expect(e.ton.walletCalls).toBe(before);

    await e.advance(11);
    await settle();
    const later = e.ton.walletCalls;
    for (let i = 0; i < 5; i++) f.funds();
    await settle();
    expect(e.ton.walletCalls - later).toBeLessThanOrEqual(1);
    // and once read, fresh again: no more lookups
    const after = e.ton.walletCalls;
    for (let i = 0; i < 5; i++) f.funds();
    await settle();
    expect(e.ton.walletCalls).toBe(after);
  });
});
