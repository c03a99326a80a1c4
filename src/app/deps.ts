import type { ServiceClock } from '../kernel/clock.js';
import type { Config } from '../config/env.js';
import type { Ids } from '../kernel/ids.js';
import type { Db } from '../store/db.js';
import type { GroupCommit } from '../store/group-commit.js';
import type { Suppliers } from '../suppliers/types.js';
import type { Logger } from '../kernel/log.js';
import type { EventBus } from '../kernel/event-bus.js';
import type { SecretBox } from './secrets.js';
import type { SettingsStore } from './settings.js';
import type { SupplierCalls } from './orders/supplier-calls.js';
import type { OrderWaits } from './orders/waits.js';

/** Everything an application service needs, built once at start-up by createService (src/service.ts). */
export interface Deps {
  db: Db;
  clock: ServiceClock;
  config: Config;
  ids: Ids;
  log: Logger;
  suppliers: Suppliers;
  /**
   * The idempotency-reuse check of order creation (partner-api.md, idempotency rule 5): always up in
   * production; the sandbox's `ledger_unavailable` switch takes it down (src/service.ts).
   */
  keyLedger: { available(): boolean };
  secrets: SecretBox;
  settings: SettingsStore;
  bus: EventBus;
  /** Units of work committed together (hot paths; src/store/group-commit.ts). */
  commits: GroupCommit;
  /** Tells the job scheduler that a job may be due now. */
  wake(): void;
  /** Order creations in flight in this process: `partnerId NUL key` → request fingerprint. */
  inFlight: Map<string, string>;
  /** Supplier calls under way by order id: a support cancellation waits for them (orders/supplier-calls.ts). */
  supplierCalls: SupplierCalls;
  /** Requests waiting for an order's outcome (GET /orders/{id}?wait=N; orders/waits.ts). */
  orderWaits: OrderWaits;
}
