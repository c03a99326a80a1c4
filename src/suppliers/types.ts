import type { SupplierCosts } from '../domain/pricing.js';

/**
 * What the service needs from its suppliers. The sandbox adapter (src/suppliers/sandbox) implements these;
 * a production adapter implements the same. Nothing outside an adapter knows which one runs.
 */

/** A supplier or resolver that did not answer: retry later. */
export class UpstreamUnavailable extends Error {
  constructor(
    readonly retryAfterSec: number = 30,
    message = 'upstream unavailable',
  ) {
    super(message);
  }
}

export interface Recipient {
  /** Normalised username: no leading @, lower case. */
  username: string;
  displayName: string;
  premiumActive: boolean;
  canReceiveGifts: boolean;
}

export interface RecipientResolver {
  /** null when no such account; throws UpstreamUnavailable when the resolver fails. */
  resolve(username: string): Promise<Recipient | null>;
  /** Game-platform user check (POST /validate/game); throws UpstreamUnavailable when down. */
  checkGameUser(username: string): Promise<{ found: boolean; displayName?: string }>;
}

export type GoodsProduct = 'stars' | 'premium';

export interface DeliveryRequest {
  orderId: string;
  product: GoodsProduct;
  /** stars: the count; premium: months */
  quantity: number;
  username: string;
  createdAt: number;
}

export type DeliveryOutcome =
  | { kind: 'delivered' }
  | { kind: 'failed'; detail: string }
  /** accepted, not finished yet: ask again at `retryAt` */
  | { kind: 'pending'; retryAt: number }
  /** Premium: the account has an active subscription; try again later */
  | { kind: 'deferred' }
  /** Stars: transfer sent but delivery not confirmed */
  | { kind: 'unconfirmed' };

export interface GoodsSupplier {
  /** Current supplier costs, or null while they cannot be read (`cost_unavailable`). */
  costs(): SupplierCosts | null;
  /** Whether orders for a product can be placed now. */
  status(product: GoodsProduct | 'nft'): { up: true } | { up: false; retryAfterSec: number };
  /**
   * Delivers an order, or reports on a delivery already under way. Must be idempotent by `orderId`:
   * a crash can repeat the call.
   */
  deliver(req: DeliveryRequest): Promise<DeliveryOutcome>;
}

/** Switches a test environment can flip; in production all are off. */
export interface FaultSwitches {
  ledgerUnavailable(): boolean;
}

/** DNS entries consulted before real DNS by the webhook resolver (sandbox only). */
export interface HostTable {
  lookup(hostname: string): string[] | undefined;
}

export interface Suppliers {
  name: string;
  resolver: RecipientResolver;
  goods: GoodsSupplier;
  faults: FaultSwitches;
  hosts: HostTable;
}
