import { Address, beginCell, Cell, storeMessage, type Message, type Transaction } from '@ton/core';
import { mnemonicNew } from '@ton/crypto';
import { BOUNCING_ADDRESS, COOKIES, FRAGMENT_ADDRESS, FRAGMENT_HASH, PROBE, startFakeFragment, startFakeRate, startFakeToncenter, type FakeFragment, type FakeToncenter } from '../test/fragment/fakes.js';

/**
 * The outside world of a Fragment history (UPSTREAM=fragment): the project's fake Fragment web API and a fake
 * toncenter whose chain is @ton/sandbox running the real V5R1 wallet contract (test/fragment/fakes.ts), and a
 * TON/USD rate. They are other systems: they outlive every crash of the service, and their books (the
 * requests Fragment opened, the wallet's transactions on chain) are what the invariants compare the service
 * with. Their time is the service's clock.
 *
 * Recipients are made per order by the simulation (each order its own username, so that a payment on chain
 * names its order through the request Fragment opened for that username): `okfan_…` an account Fragment takes
 * payments for, `bounce_…` one whose requests are paid at an address with no contract (the payment bounces
 * back: Fragment was not paid), `gone_…` an account that disappears right after the order is accepted,
 * `subbed_…` an account already subscribed to Premium (the order waits; an ordinary account for Stars),
 * `ghost_…` none at all.
 */
export const FRAGMENT_PREFIX = { ok: 'okfan_', fails: 'gone_', unsure: 'bounce_', slow: 'subbed_', ghost: 'ghost_' } as const;

/** Fragment's prices at the start of a history (TON). */
const STARS_1000 = '5.2';
const PREMIUM = { '3': '4', '6': '5.33', '12': '9.66' };
/** The hot wallet's first funds (TON): enough for a few orders, so that it runs low now and then. */
export const WALLET_FUND_TON = '60';

/** One wallet's words for every history of this process (its own chain each time: nothing is shared). */
let words: Promise<string[]> | null = null;

export interface ChainPayment {
  /** the wallet transaction (base64 hash, as toncenter gives it) */
  txHash: string;
  /** the out-message's hash (base64, as the index gives it) */
  msgHash: string;
  to: string;
  valueNano: bigint;
  ref: string | null;
  /** false: sent to an address with no contract, bounced back to the wallet (Fragment was not paid) */
  taken: boolean;
}

export class FragmentStand {
  private constructor(
    readonly fragment: FakeFragment,
    readonly ton: FakeToncenter,
    private readonly rate: { url: string; close(): Promise<void> },
    readonly mnemonic: string[],
    readonly batchMax: number,
  ) {}

  static async open(nowSec: () => number, batchMax: number): Promise<FragmentStand> {
    words ??= mnemonicNew(24);
    const fragment = await startFakeFragment(nowSec);
    const ton = await startFakeToncenter(nowSec);
    const rate = await startFakeRate('3.00');
    fragment.prices = { stars1000: STARS_1000, premium: { ...PREMIUM } };
    return new FragmentStand(fragment, ton, rate, await words, batchMax);
  }

  env(): Record<string, string> {
    return {
      UPSTREAM: 'fragment',
      FRAGMENT_MNEMONIC: this.mnemonic.join(' '),
      FRAGMENT_COOKIES: COOKIES,
      FRAGMENT_HASH,
      FRAGMENT_API_URL: this.fragment.url,
      FRAGMENT_TONCENTER_URL: this.ton.url,
      FRAGMENT_TON_USD_URL: this.rate.url,
      FRAGMENT_PAY_ADDRESSES: `${FRAGMENT_ADDRESS.toString()},${BOUNCING_ADDRESS.toString()}`,
      FRAGMENT_PRICE_PROBE_USERNAME: PROBE,
      FRAGMENT_WALLET_MIN_TON: '2',
      FRAGMENT_WALLET_VERSION: 'v5r1',
      FRAGMENT_BATCH_MAX: String(this.batchMax),
    };
  }

  /** Makes the account a recipient of the simulation stands for (by its prefix), before an order names it. */
  register(username: string): void {
    const u = username.toLowerCase();
    if (u.startsWith(FRAGMENT_PREFIX.ghost) || this.fragment.users.has(u)) return;
    this.fragment.users.set(u, { name: u, premium: u.startsWith(FRAGMENT_PREFIX.slow) });
    if (u.startsWith(FRAGMENT_PREFIX.unsure)) this.fragment.payTo.set(u, BOUNCING_ADDRESS);
  }

  /** After the order was answered: a `gone_` account disappears (its order's purchase finds nobody). */
  answered(username: string): void {
    const u = username.toLowerCase();
    if (u.startsWith(FRAGMENT_PREFIX.fails)) this.fragment.users.delete(u);
  }

  /** Premium subscriptions of the `subbed_` accounts end: their waiting orders can be paid. */
  subscriptionsEnd(): void {
    for (const u of this.fragment.users.values()) u.premium = false;
  }

  /** Fragment's prices move (× factor), or return to where they started (null). */
  setPrices(factor: number | null): void {
    const f = (t: string) => (factor === null ? t : (Number(t) * factor).toFixed(4));
    this.fragment.prices = { stars1000: f(STARS_1000), premium: { '3': f(PREMIUM['3']), '6': f(PREMIUM['6']), '12': f(PREMIUM['12']) } };
  }

  /**
   * The transfers toncenter took but kept from the chain (`drop`), reaching it now: executed while still valid
   * (the service finds its batch on chain), refused by the wallet once expired or its seqno used. Returns how
   * many were executed and refused.
   */
  async surfaceHeld(): Promise<{ executed: number; refused: number }> {
    const out = { executed: 0, refused: 0 };
    for (const m of this.ton.held.splice(0)) (await this.ton.execute(m)) ? out.executed++ : out.refused++;
    return out;
  }

  /** Every payment of the wallet on chain: each out-message of its executed transactions, with the `Ref#` it names. */
  payments(): ChainPayment[] {
    const out: ChainPayment[] = [];
    for (const tx of this.ton.executed.values()) out.push(...paymentsOf(tx));
    return out;
  }

  /** The request Fragment opened with this reference, if any (its recipient `rcp_<username>`, product, quantity, amount). */
  request(ref: string) {
    for (const r of this.fragment.requests.values()) if (r.ref === ref) return r;
    return undefined;
  }

  async close(): Promise<void> {
    await this.fragment.close();
    await this.ton.close();
    await this.rate.close();
  }
}

const bouncing = BOUNCING_ADDRESS.toRawString();

function paymentsOf(tx: Transaction): ChainPayment[] {
  // an aborted transaction sent nothing
  if (tx.description.type === 'generic' && tx.description.aborted) return [];
  const txHash = tx.hash().toString('base64');
  return [...tx.outMessages.values()].map((m: Message) => {
    const to = m.info.dest instanceof Address ? m.info.dest.toRawString() : '';
    return {
      txHash,
      msgHash: beginCell().store(storeMessage(m)).endCell().hash().toString('base64'),
      to,
      valueNano: m.info.type === 'internal' ? m.info.value.coins : 0n,
      ref: refIn(m.body),
      taken: to !== bouncing,
    };
  });
}

/** The one `Ref#` of a text comment (op 0), read here from the cell itself, not with the service's parser. */
function refIn(body: Cell): string | null {
  try {
    const s = body.beginParse();
    if (s.remainingBits < 32 || s.loadUint(32) !== 0) return null;
    const refs = [...s.loadStringTail().matchAll(/Ref#([A-Za-z0-9_-]+)/g)];
    return refs.length === 1 ? refs[0][1] : null;
  } catch {
    return null;
  }
}
