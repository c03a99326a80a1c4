import type Database from 'better-sqlite3';
import type { EventBus } from '../kernel/event-bus.js';
import type { Logger } from '../kernel/log.js';

/**
 * Storage faults: SQLite answering SQLITE_FULL, SQLITE_IOERR*, SQLITE_READONLY* or SQLITE_BUSY* (busy past
 * its timeout) means the database cannot take a write right now. Every write that meets one fails whole
 * (its transaction rolls back, so nothing acknowledged is lost), the request answers 503
 * `storage_unavailable` (storageUnavailable, src/app/unit-of-work.ts), reads keep working, and this monitor:
 * - raises one operator alert when the fault starts and one when it clears;
 * - probes with a real write every few seconds while faulted, and clears the fault by itself when a write
 *   of the size of a few orders commits again (a tiny write can fit in WAL space already on disk while
 *   an order does not).
 */
export type StorageFault = 'disk_full' | 'io_error' | 'read_only' | 'busy';

export function classifyStorageError(e: unknown): StorageFault | null {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return null;
  if (code === 'SQLITE_FULL') return 'disk_full';
  if (code.startsWith('SQLITE_IOERR')) return 'io_error';
  if (code.startsWith('SQLITE_READONLY')) return 'read_only';
  if (code.startsWith('SQLITE_BUSY')) return 'busy';
  return null;
}

export interface FaultState {
  reason: StorageFault;
  detail: string;
  since: number;
}

/** Write errors seen by inTx (src/store/db.ts) reach the monitor of their connection through this map. */
const monitors = new WeakMap<Database.Database, StorageHealth>();

export function reportWriteError(client: Database.Database, e: unknown): void {
  monitors.get(client)?.report(e);
}

/** The probe value: about the size of the pages a few orders dirty. */
const PROBE_BYTES = 128 * 1024;
const PROBE_SQL = "insert into kv (key, value, updated_at) values ('storage.probe', ?, ?) on conflict(key) do update set value = excluded.value, updated_at = excluded.updated_at";

export class StorageHealth {
  private state: FaultState | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly probeStmt: Database.Statement;

  constructor(
    private readonly client: Database.Database,
    private readonly bus: EventBus,
    private readonly log: Logger,
    /** Real time (fault durations are wall-clock facts, not service-clock ones). */
    private readonly realNow: () => number = Date.now,
    private readonly probeEveryMs = 2_000,
  ) {
    this.probeStmt = client.prepare(PROBE_SQL);
    monitors.set(client, this);
  }

  get fault(): FaultState | null {
    return this.state;
  }

  available(): boolean {
    return this.state === null;
  }

  /** Records a failed write; returns whether it was a storage fault. */
  report(e: unknown): boolean {
    const reason = classifyStorageError(e);
    if (!reason) return false;
    if (this.state) return true;
    const detail = String((e as { code?: string }).code ?? '') + (e instanceof Error ? `: ${e.message}` : '');
    this.state = { reason, detail, since: this.realNow() };
    this.log.error({ reason, detail }, 'storage unavailable: writes answer 503 storage_unavailable until it clears');
    this.bus.emit('alert', { kind: 'storage_unavailable', reason, detail });
    this.timer ??= setInterval(() => this.probe(), this.probeEveryMs);
    this.timer.unref?.();
    return true;
  }

  /**
   * One real write (committed), with a short busy wait so that it never holds the event loop for the full
   * busy timeout. `big`: the size of a few orders (used to clear a fault). Returns the fault, or null.
   */
  probe(big = this.state !== null): FaultState | null {
    const c = this.client;
    if (c.inTransaction) return this.state; // a transaction of ours is open (cannot happen between turns)
    const before = c.pragma('busy_timeout', { simple: true }) as number;
    try {
      c.pragma('busy_timeout = 200');
      this.probeStmt.run(big ? Buffer.alloc(PROBE_BYTES, 0x5a).toString('latin1') : '1', this.realNow());
      if (this.state) this.clear();
    } catch (e) {
      if (!this.report(e)) throw e;
    } finally {
      c.pragma(`busy_timeout = ${before}`);
    }
    return this.state;
  }

  private clear(): void {
    const s = this.state!;
    this.state = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const downSeconds = Math.round((this.realNow() - s.since) / 1000);
    this.log.warn({ reason: s.reason, down_seconds: downSeconds }, 'storage available again');
    this.bus.emit('alert', { kind: 'storage_recovered', reason: s.reason, downSeconds });
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    monitors.delete(this.client);
  }
}
