import type { Clock } from '../../kernel/clock.js';
import type { SupplierCosts } from '../../domain/pricing.js';
import { offsetIso } from '../../domain/time-format.js';
import type { Db } from '../../store/db.js';
import { kvGet, kvSet } from '../../store/kv-repo.js';
import { deleteSandboxDns, insertSandboxAccount, sandboxAccount, sandboxDnsLookup, setSandboxDns, setSandboxPremiumUntil } from '../../store/sandbox-repo.js';
import type { GoodsSide } from '../compose.js';
import { SandboxGiftMarket, type SuppliedEvent } from './gift-market.js';
import { giftsWithSimulatedFaults, goodsWithSimulatedFaults } from './faults.js';
import { normaliseUsername } from '../username.js';
import {
  type DeliveryOutcome,
  type DeliveryRequest,
  type GiftMarket,
  type GoodsProduct,
  type Recipient,
  type SandboxFaults,
  type SandboxMarket,
  type SupplierAccount,
  type SupplierFund,
  type Suppliers,
} from '../types.js';

/**
 * The built-in simulator of the suppliers (operator-api.md section 3): deterministic, driven by the
 * service clock, its state kept in the database so it survives a restart. Magic username prefixes
 * choose the behaviour. Its controls (market, faults, listings, DNS, accounts) are the operator API's
 * sandbox routes (src/app/sandbox-control.ts).
 */
export type { SandboxFaults, SandboxMarket };

export const DEFAULT_MARKET: SandboxMarket = {
  stars_per_1000_cost: 1500,
  premium_cost: { '3': 1199, '6': 1599, '12': 2899 },
  unavailable: false,
};

export const DEFAULT_FAULTS: SandboxFaults = {
  ledger_unavailable: false,
  resolver_error: false,
  upstream_unavailable: { stars: false, premium: false, nft: false },
  purchase_funds_low: false,
};

const DAY = 86_400_000;
/** Stars and Premium arrive this long after the order (service clock). */
export const SANDBOX_DELIVERY_MS = 3_000;
/** `slow_` recipients wait this long in the queue first. */
export const SANDBOX_SLOW_MS = 600_000;

/**
 * What the simulated supplier accounts hold (the console's overview): a hot wallet of 2500 TON for Stars and
 * Premium and, when the simulator sells the gifts, a gift account of 10000 TON (0 while `purchase_funds_low`
 * is on) and 50000 Stars.
 */
export const SANDBOX_FUNDS = { fragment_ton: '2500.000', gifts_ton: '10000.000', gifts_stars: '50000' } as const;

export interface SandboxOptions {
  /** PUBLIC_BASE_URL: gift `image` fields point at the service's own pictures (GET /sandbox/gifts/<gift>.svg). */
  publicBaseUrl?: string;
  /**
   * GIFTS_UPSTREAM=sandbox: the simulated gift account is shown among the supplier funds. Beside a real gift
   * account it would count twice in the TON coverage and hide a shortfall of the account that really pays.
   */
  sellsGifts?: boolean;
}

export class SandboxUpstream implements Suppliers, SupplierAccount {
  readonly name = 'sandbox';
  private market: SandboxMarket;
  private faultState: SandboxFaults;
  readonly gifts: SandboxGiftMarket;
  private readonly giftListeners: (() => void)[] = [];
  private readonly suppliedListeners: ((e: SuppliedEvent) => void)[] = [];

  private readonly sellsGifts: boolean;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    { publicBaseUrl, sellsGifts = true }: SandboxOptions = {},
  ) {
    this.sellsGifts = sellsGifts;
    this.market = { ...DEFAULT_MARKET, ...(kvGet<SandboxMarket>(db, 'sandbox.market') ?? {}) };
    this.faultState = { ...DEFAULT_FAULTS, ...(kvGet<SandboxFaults>(db, 'sandbox.faults') ?? {}) };
    this.gifts = new SandboxGiftMarket(db, clock, {
      fundsLow: () => this.faultState.purchase_funds_low,
      onChange: () => this.giftListeners.forEach((f) => f()),
      supplied: (e) => this.supplied(e),
      imageBase: publicBaseUrl ? `${publicBaseUrl}/sandbox/gifts/` : undefined,
    });
  }

  /**
   * The simulated suppliers as the service runs them: the switches of PUT /sandbox/faults wrapped around
   * them (faults.ts), so that a fault reaches the use cases the way a real outage would.
   */
  withFaults(): { goods: GoodsSide; gifts: GiftMarket } {
    const faults = () => this.faultState;
    return { goods: goodsWithSimulatedFaults(this, faults), gifts: giftsWithSimulatedFaults(this.gifts, faults) };
  }

  /**
   * The idempotency-reuse check of order creation (Deps.keyLedger): `ledger_unavailable` takes it down. It
   * concerns the service's own check, not a supplier, so it is no decorator.
   */
  readonly keyLedger = { available: () => !this.faultState.ledger_unavailable };

  /** The simulated supplier accounts (SANDBOX_FUNDS), read now. */
  funds(): SupplierFund[] {
    const at = offsetIso(this.clock.now());
    const funds: SupplierFund[] = [{ supplier: 'sandbox_fragment', currency: 'TON', amount: SANDBOX_FUNDS.fragment_ton, updated_at: at, pays: 'USD' }];
    if (this.sellsGifts) {
      funds.push({ supplier: 'sandbox_gifts', currency: 'TON', amount: this.faultState.purchase_funds_low ? '0.000' : SANDBOX_FUNDS.gifts_ton, updated_at: at, pays: 'TON' });
      funds.push({ supplier: 'sandbox_gifts', currency: 'STARS', amount: SANDBOX_FUNDS.gifts_stars, updated_at: at });
    }
    return funds;
  }

  /** Called whenever a sandbox listing changes (the catalog cache drops its copy). */
  onGiftChange(fn: () => void): void {
    this.giftListeners.push(fn);
  }

  /** Called with everything the simulated suppliers send or take (the simulation's record of them; gift-market.ts). */
  onSupplied(fn: (e: SuppliedEvent) => void): void {
    this.suppliedListeners.push(fn);
  }

  private supplied(e: SuppliedEvent): void {
    for (const f of this.suppliedListeners) f(e);
  }

  // --- control (sandbox routes only) ------------------------------------------------------------

  getMarket(): SandboxMarket {
    return this.market;
  }

  setMarket(m: SandboxMarket): void {
    this.market = m;
    kvSet(this.db, 'sandbox.market', m, this.clock.now());
  }

  getFaults(): SandboxFaults {
    return this.faultState;
  }

  setFaults(f: SandboxFaults): void {
    this.faultState = f;
    kvSet(this.db, 'sandbox.faults', f, this.clock.now());
  }

  setDns(hostname: string, addresses: string[]): void {
    setSandboxDns(this.db, hostname.toLowerCase(), addresses);
  }

  deleteDns(hostname: string): boolean {
    return deleteSandboxDns(this.db, hostname.toLowerCase());
  }

  /** Sets when an account's Premium subscription ends (a sandbox extension for testing long deferrals). */
  setPremiumUntil(username: string, until: number | null): void {
    const u = normaliseUsername(username);
    if (!u) throw new Error('bad username');
    this.firstSeen(u);
    setSandboxPremiumUntil(this.db, u, until);
    this.accounts.set(u, { premiumUntil: until });
  }

  // --- Suppliers ------------------------------------------------------------------------------

  readonly hosts = {
    lookup: (hostname: string): string[] | undefined => sandboxDnsLookup(this.db, hostname.toLowerCase()),
  };

  readonly resolver = {
    resolve: async (username: string): Promise<Recipient | null> => {
      const u = normaliseUsername(username);
      if (!u || u.startsWith('ghost_')) return null;
      const acct = this.firstSeen(u);
      const premiumUntil = acct.premiumUntil;
      return {
        username: u,
        displayName: u
          .split('_')
          .filter(Boolean)
          .map((w) => w[0].toUpperCase() + w.slice(1))
          .join(' '),
        premiumActive: premiumUntil !== null && premiumUntil > this.clock.now(),
        canReceiveGifts: !u.startsWith('nogift_'),
      };
    },
    checkGameUser: async (username: string) => {
      const u = normaliseUsername(username);
      return u && !u.startsWith('ghost_') ? { found: true, displayName: u } : { found: false };
    },
  };

  readonly goods = {
    firstCallDelayMs: SANDBOX_DELIVERY_MS,
    costs: (): SupplierCosts | null => {
      if (this.market.unavailable) return null;
      const m = this.market;
      return { starsPer1000: m.stars_per_1000_cost, premium: { 3: m.premium_cost['3'], 6: m.premium_cost['6'], 12: m.premium_cost['12'] } };
    },
    // simulated outages are a decorator around the suppliers (faults.ts)
    status: (_product: GoodsProduct) => ({ up: true }) as const,
    deliver: async (req: DeliveryRequest): Promise<DeliveryOutcome> => {
      const u = req.username;
      const now = this.clock.now();
      const readyAt = req.createdAt + SANDBOX_DELIVERY_MS + (u.startsWith('slow_') ? SANDBOX_SLOW_MS : 0);
      if (now < readyAt) return { kind: 'pending', retryAt: readyAt };
      if (req.product === 'stars') {
        if (u.startsWith('failstars_')) return { kind: 'failed', detail: 'star transfer failed' };
        if (u.startsWith('unconfirmed_')) return this.sent(req, { kind: 'unconfirmed' });
        return this.sent(req, { kind: 'delivered' });
      }
      if (u.startsWith('failpremium_')) return { kind: 'failed', detail: 'premium gift failed' };
      const acct = this.firstSeen(u);
      if (acct.premiumUntil !== null && acct.premiumUntil > now) return { kind: 'deferred' };
      return this.sent(req, { kind: 'delivered' });
    },
  };

  private sent<T extends { kind: 'delivered' | 'unconfirmed' }>(req: DeliveryRequest, outcome: T): T {
    if (this.suppliedListeners.length) this.supplied({ kind: 'goods', orderId: req.orderId, product: req.product, outcome: outcome.kind });
    return outcome;
  }

  /** Accounts seen so far, kept in memory too: the simulated resolver runs for every order. */
  private readonly accounts = new Map<string, { premiumUntil: number | null }>();

  /** Records (once) when an account was first seen; `premium_` accounts get a subscription of 30 days. */
  private firstSeen(u: string): { premiumUntil: number | null } {
    const known = this.accounts.get(u);
    if (known) return known;
    if (this.accounts.size >= 50_000) this.accounts.clear();
    const row = sandboxAccount(this.db, u);
    if (row) {
      this.accounts.set(u, { premiumUntil: row.premiumUntil });
      return row;
    }
    const now = this.clock.now();
    const premiumUntil = u.startsWith('premium_') ? now + 30 * DAY : null;
    insertSandboxAccount(this.db, { username: u, firstSeenAt: now, premiumUntil });
    this.accounts.set(u, { premiumUntil });
    return { premiumUntil };
  }

}
