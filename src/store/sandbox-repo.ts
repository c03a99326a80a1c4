import { eq, sql } from 'drizzle-orm';
import type { Db } from './db.js';
import { prepared } from './prepared.js';
import { sandboxAccounts, sandboxDns, sandboxGifts } from './schema.js';

/**
 * The simulated suppliers' state that survives a restart (src/suppliers/sandbox): the accounts seen, the
 * simulated DNS answers, and the changes to the seeded gift listings.
 */

export type SandboxAccountRow = typeof sandboxAccounts.$inferSelect;
export type SandboxGiftRow = typeof sandboxGifts.$inferSelect;

export function sandboxAccount(db: Db, username: string): SandboxAccountRow | undefined {
  return prepared(db, 'sandboxAccount', () => db.select().from(sandboxAccounts).where(eq(sandboxAccounts.username, sql.placeholder('u'))).prepare()).get({ u: username });
}

export function insertSandboxAccount(db: Db, row: SandboxAccountRow): void {
  db.insert(sandboxAccounts).values(row).onConflictDoNothing().run();
}

export function setSandboxPremiumUntil(db: Db, username: string, until: number | null): void {
  db.update(sandboxAccounts).set({ premiumUntil: until }).where(eq(sandboxAccounts.username, username)).run();
}

/** The simulated DNS answer of a (lower-case) hostname, if one is set. */
export function sandboxDnsLookup(db: Db, hostname: string): string[] | undefined {
  return db.select().from(sandboxDns).where(eq(sandboxDns.hostname, hostname)).get()?.addresses;
}

export function setSandboxDns(db: Db, hostname: string, addresses: string[]): void {
  db.insert(sandboxDns).values({ hostname, addresses }).onConflictDoUpdate({ target: sandboxDns.hostname, set: { addresses } }).run();
}

export function deleteSandboxDns(db: Db, hostname: string): boolean {
  return db.delete(sandboxDns).where(eq(sandboxDns.hostname, hostname)).run().changes > 0;
}

export function sandboxGiftRows(db: Db): SandboxGiftRow[] {
  return db.select().from(sandboxGifts).all();
}

export function sandboxGiftRow(db: Db, gift: string): SandboxGiftRow | undefined {
  return db.select().from(sandboxGifts).where(eq(sandboxGifts.gift, gift)).get();
}

export function upsertSandboxGift(db: Db, row: SandboxGiftRow): void {
  db.insert(sandboxGifts).values(row).onConflictDoUpdate({ target: sandboxGifts.gift, set: row }).run();
}
