import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { appliedMigrationMarks } from '../store/ops-repo.js';
import type { StorageHealth } from '../store/storage-health.js';

/**
 * GET /readyz: may this instance take traffic now? Unlike /healthz (liveness: the process answers), it
 * answers 503 with the reason when
 * - `migrations_pending`: the database does not hold every migration of this build (yet);
 * - `draining`: SIGTERM arrived and the instance is shutting down;
 * - `storage_unavailable`: the database cannot take a write (disk full, I/O error, read-only, busy) —
 *   checked with a real small write each time, so a load balancer polling /readyz notices at once.
 */
export type NotReady = { reason: 'starting' | 'migrations_pending' | 'draining' | 'storage_unavailable'; detail?: string };

export class Readiness {
  private draining = false;
  private started = false;
  private migrationsOk = false;

  constructor(
    private readonly client: Database.Database,
    private readonly storage: StorageHealth,
    private readonly migrationsFolder: string,
  ) {}

  /** Start-up is complete (workers running). */
  markStarted(): void {
    this.started = true;
  }

  /** SIGTERM: from now on /readyz answers 503 draining. */
  beginDrain(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  check(): NotReady | null {
    if (this.draining) return { reason: 'draining' };
    if (!this.started) return { reason: 'starting' };
    if (!this.migrationsOk) {
      const missing = pendingMigrations(this.client, this.migrationsFolder);
      if (missing > 0) return { reason: 'migrations_pending', detail: `${missing} migration(s) not applied` };
      this.migrationsOk = true; // applied migrations are never removed
    }
    const fault = this.storage.probe();
    if (fault) return { reason: 'storage_unavailable', detail: fault.reason };
    return null;
  }
}

/** Migrations of drizzle/meta/_journal.json not yet recorded in the database's __drizzle_migrations table. */
export function pendingMigrations(client: Database.Database, folder: string): number {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as { entries: { when: number }[] };
  const have = new Set(appliedMigrationMarks(client));
  return journal.entries.filter((e) => !have.has(e.when)).length;
}
