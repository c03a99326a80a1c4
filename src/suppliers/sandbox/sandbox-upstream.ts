import { eq, sql } from 'drizzle-orm';
import { prepared } from '../../store/prepared.js';
import type { Clock } from '../../kernel/clock.js';
import type { SupplierCosts } from '../../domain/pricing.js';
import type { Db } from '../../store/db.js';
import { kvGet, kvSet } from '../../store/kv-repo.js';
import { sandboxAccounts, sandboxDns } from '../../store/schema.js';
import { SandboxGiftMarket, type SuppliedEvent } from './gift-market.js';
import { normaliseUsername } from '../username.js';
import {
  type DeliveryOutcome,
  type DeliveryRequest,
  type GoodsProduct,
  type Recipient,
  type Suppliers,
} from '../types.js';

/**
 * The built-in simulator of the suppliers (operator-api.md section 3): deterministic, driven by the
 * service clock, its state kept in the database so it survives a restart. Magic username prefixes
 * choose the behaviour.
 */
export interface SandboxMarket {
  stars_per_1000_cost: number; // cents
  premium_cost: { '3': number; '6': number; '12': number }; // cents
  unavailable: boolean;
}

export interface SandboxFaults {
  ledger_unavailable: boolean;
  resolver_error: boolean;
  upstream_unavailable: { stars: boolean; premium: boolean; nft: boolean };
  purchase_funds_low: boolean;
}

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

export class SandboxUpstream implements Suppliers {
  readonly name = 'sandbox';
  private market: SandboxMarket;
  private faultState: SandboxFaults;
  readonly gifts: SandboxGiftMarket;
  private readonly giftListeners: (() => void)[] = [];
  private readonly suppliedListeners: ((e: SuppliedEvent) => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** PUBLIC_BASE_URL: gift `image` fields point at the service's own pictures (GET /sandbox/gifts/<gift>.svg). */
    publicBaseUrl?: string,
  ) {
    this.market = { ...DEFAULT_MARKET, ...(kvGet<SandboxMarket>(db, 'sandbox.market') ?? {}) };
    this.faultState = { ...DEFAULT_FAULTS, ...(kvGet<SandboxFaults>(db, 'sandbox.faults') ?? {}) };
    this.gifts = new SandboxGiftMarket(db, clock, {
      fundsLow: () => this.faultState.purchase_funds_low,
      onChange: () => this.giftListeners.forEach((f) => f()),
      supplied: (e) => this.supplied(e),
      imageBase: publicBaseUrl ? `${publicBaseUrl}/sandbox/gifts/` : undefined,
    });
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
    this.db
      .insert(sandboxDns)
      .values({ hostname: hostname.toLowerCase(), addresses })
      .onConflictDoUpdate({ target: sandboxDns.hostname, set: { addresses } })
      .run();
  }

  deleteDns(hostname: string): boolean {
    return this.db.delete(sandboxDns).where(eq(sandboxDns.hostname, hostname.toLowerCase())).run().changes > 0;
  }

  /** Sets when an account's Premium subscription ends (a sandbox extension for testing long deferrals). */
  setPremiumUntil(username: string, until: number | null): void {
    const u = normaliseUsername(username);
    if (!u) throw new Error('bad username');
    this.firstSeen(u);
    this.db.update(sandboxAccounts).set({ premiumUntil: until }).where(eq(sandboxAccounts.username, u)).run();
    this.accounts.set(u, { premiumUntil: until });
  }

  // --- Suppliers ------------------------------------------------------------------------------

  readonly hosts = {
    lookup: (hostname: string): string[] | undefined => {
      const row = this.db.select().from(sandboxDns).where(eq(sandboxDns.hostname, hostname.toLowerCase())).get();
      return row?.addresses;
    },
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
    const row = prepared(this.db, 'sandboxAccount', () =>
      this.db.select().from(sandboxAccounts).where(eq(sandboxAccounts.username, sql.placeholder('u'))).prepare(),
    ).get({ u });
    if (row) {
      this.accounts.set(u, { premiumUntil: row.premiumUntil });
      return row;
    }
    const now = this.clock.now();
    const premiumUntil = u.startsWith('premium_') ? now + 30 * DAY : null;
    this.db.insert(sandboxAccounts).values({ username: u, firstSeenAt: now, premiumUntil }).onConflictDoNothing().run();
    this.accounts.set(u, { premiumUntil });
    return { premiumUntil };
  }

}
