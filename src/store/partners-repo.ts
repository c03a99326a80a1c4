import { and, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { CommittedCache } from './committed-cache.js';
import { prepared } from './prepared.js';
import type { Conn } from './db.js';
import { accounts, apiKeys, partners } from './schema.js';

export type PartnerRow = typeof partners.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

export function insertPartner(conn: Conn, name: string, now: number): PartnerRow {
  const row = conn.insert(partners).values({ name, status: 'inactive', createdAt: now }).returning().get();
  conn
    .insert(accounts)
    .values([
      { partnerId: row.partnerId, currency: 'USD', balance: 0 },
      { partnerId: row.partnerId, currency: 'TON', balance: 0 },
    ])
    .run();
  return row;
}

/**
 * A partner row, read by every authenticated request (its status) and every order event (its webhook):
 * kept in memory as committed, dropped by the two writes below (src/store/committed-cache.ts). Frozen: shared.
 */
const committedPartners = new CommittedCache<number, Readonly<PartnerRow>>();

export function getPartner(conn: Conn, partnerId: number): Readonly<PartnerRow> | undefined {
  return committedPartners.read(conn, partnerId, () => {
    const row = prepared(conn, 'getPartner', () => conn.select().from(partners).where(eq(partners.partnerId, sql.placeholder('id'))).prepare()).get({ id: partnerId });
    return row && Object.freeze(row);
  });
}

/**
 * Partners whose name contains `needle`, case-insensitively in any script (the `casefold` function of
 * src/store/db.ts): names that start with it first, then by name. A full scan: operators' look-ups are rare.
 */
export function findPartnersByName(conn: Conn, needle: string, limit: number): PartnerRow[] {
  const folded = needle.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  const name = sql`casefold(${partners.name})`;
  return conn
    .select()
    .from(partners)
    .where(sql`${name} like ${`%${folded}%`} escape '\\'`)
    .orderBy(sql`${name} like ${`${folded}%`} escape '\\' desc`, name, partners.partnerId)
    .limit(limit)
    .all();
}

export function countPartners(conn: Conn): number {
  return conn.select({ n: count() }).from(partners).get()?.n ?? 0;
}

/** One partner's sealed webhook secret, if any is stored (then the key that sealed it must be there to open it). */
export function anySealedWebhookSecret(conn: Conn): string | undefined {
  return conn.select({ s: partners.webhookSecretEnc }).from(partners).where(isNotNull(partners.webhookSecretEnc)).limit(1).get()?.s ?? undefined;
}

export function setPartnerStatus(conn: Conn, partnerId: number, status: 'active' | 'inactive'): void {
  committedPartners.drop(conn, partnerId);
  conn.update(partners).set({ status }).where(eq(partners.partnerId, partnerId)).run();
}

/** Saves the Webhook block; a null secret or an undefined event list leaves that part as it is. */
export function setWebhook(conn: Conn, partnerId: number, url: string, secretEnc: string | null, events?: string[]): void {
  committedPartners.drop(conn, partnerId);
  const set = { webhookUrl: url, ...(secretEnc === null ? {} : { webhookSecretEnc: secretEnc }), ...(events === undefined ? {} : { webhookEvents: events }) };
  conn.update(partners).set(set).where(eq(partners.partnerId, partnerId)).run();
}

/** The events a partner's webhook takes, alone (the address and the secret stay). */
export function setWebhookEvents(conn: Conn, partnerId: number, events: string[]): void {
  committedPartners.drop(conn, partnerId);
  conn.update(partners).set({ webhookEvents: events }).where(eq(partners.partnerId, partnerId)).run();
}

export function listKeys(conn: Conn, partnerId: number): ApiKeyRow[] {
  return conn.select().from(apiKeys).where(eq(apiKeys.partnerId, partnerId)).orderBy(desc(apiKeys.createdAt)).all();
}

export function revokeKeys(conn: Conn, partnerId: number, now: number): string[] {
  return conn
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.partnerId, partnerId), isNull(apiKeys.revokedAt)))
    .returning({ keyHash: apiKeys.keyHash })
    .all()
    .map((r) => r.keyHash);
}

export function insertKey(conn: Conn, row: typeof apiKeys.$inferInsert): void {
  conn.insert(apiKeys).values(row).run();
}

export function keyByHash(conn: Conn, keyHash: string): ApiKeyRow | undefined {
  return prepared(conn, 'keyByHash', () => conn.select().from(apiKeys).where(eq(apiKeys.keyHash, sql.placeholder('h'))).prepare()).get({ h: keyHash });
}
