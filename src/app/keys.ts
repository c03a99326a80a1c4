import crypto from 'node:crypto';
import { ApiError, fail } from '../domain/errors.js';
import { canonicalWhitelist, ipAllowed, parseWhitelist, type ParsedRange } from '../domain/ip-whitelist.js';
import { inTx } from '../store/db.js';
import { audit } from '../store/audit-repo.js';
import { insertKey, keyByHash, revokeKeys } from '../store/partners-repo.js';
import type { Deps } from './deps.js';
import { requirePartner, requirePartnerAccess } from './partners.js';

/** API keys: `pk_live_` + 32 random bytes; only the SHA-256 is stored; issuing a key revokes the previous one. */
export const KEY_PREFIX = 'pk_live_';

export function hashKey(key: string): string {
  return crypto.hash('sha256', key, 'hex');
}

export interface AuthedKey {
  readonly keyId: string;
  readonly partnerId: number;
  readonly ranges: ParsedRange[];
}

/**
 * In-memory cache of live keys by hash: authentication runs on every request, so the lookup and the
 * whitelist parsing are done once per key (the raw tokens are never kept here, only their SHA-256, one-shot).
 * Only live keys are cached (a flood of random tokens must not grow memory); revocation removes a key's
 * entry in the same call.
 *
 * A connection also remembers the `Authorization` text it last authenticated with and its key: a
 * partner's keep-alive connection sends the same header on every request, and the next request whose
 * header is exactly that text skips parsing it and its SHA-256 (compared in full, so a proxy's connection
 * carrying several partners' keys simply misses). The text lives as long as the connection that sent it
 * (a WeakMap on the socket), never in this cache; any revocation forgets every connection's key.
 */
export class KeyCache {
  private readonly byHash = new Map<string, AuthedKey>();
  private readonly byConnection = new WeakMap<object, { authorization: string; key: AuthedKey; revocations: number }>();
  /** Counts revocations: a connection's remembered key counts only while none happened since. */
  private revocations = 0;

  get(deps: Pick<Deps, 'db'>, token: string): AuthedKey | null {
    const hash = hashKey(token);
    const hit = this.byHash.get(hash);
    if (hit) return hit;
    const row = keyByHash(deps.db, hash);
    if (!row || row.revokedAt !== null) return null;
    const value = { keyId: row.keyId, partnerId: row.partnerId, ranges: parseWhitelist(row.ipWhitelist) };
    this.byHash.set(hash, value);
    return value;
  }

  /** The live key `connection` last authenticated with, when it sends exactly the same `authorization` again. */
  remembered(connection: object, authorization: string): AuthedKey | undefined {
    const m = this.byConnection.get(connection);
    return m !== undefined && m.authorization === authorization && m.revocations === this.revocations ? m.key : undefined;
  }

  remember(connection: object, authorization: string, key: AuthedKey): void {
    const m = this.byConnection.get(connection);
    if (m === undefined) this.byConnection.set(connection, { authorization, key, revocations: this.revocations });
    else {
      m.authorization = authorization;
      m.key = key;
      m.revocations = this.revocations;
    }
  }

  forget(hashes: string[]): void {
    for (const h of hashes) this.byHash.delete(h);
    if (hashes.length > 0) this.revocations++;
  }
}

export function issueKey(deps: Pick<Deps, 'db' | 'clock' | 'ids'>, cache: KeyCache, partnerId: number, ipWhitelist: unknown, actor: string) {
  const partner = requirePartner(deps, partnerId);
  // operator-api.md: 409 partner_inactive here (operator format: flat), unlike the partner API's 403 nested.
  if (partner.status !== 'active') throw new ApiError('partner_inactive', 'No API key before the first top-up.', {}, {}, { status: 409, format: 'flat' });
  const wl = canonicalWhitelist(ipWhitelist ?? []);
  if (!wl.ok) fail('validation_error', `ip_whitelist: "${wl.bad}" is not an IP address or CIDR.`);
  const apiKey = KEY_PREFIX + deps.ids.token(32);
  const keyId = `key_${deps.ids.hex(8)}`;
  const now = deps.clock.now();
  const revoked = inTx(deps.db, (tx) => {
    const old = revokeKeys(tx, partnerId, now);
    insertKey(tx, {
      keyId,
      partnerId,
      prefix: apiKey.slice(0, KEY_PREFIX.length + 4),
      keyHash: hashKey(apiKey),
      ipWhitelist: wl.value,
      createdAt: now,
      revokedAt: null,
    });
    audit(tx, now, actor, 'key.issue', String(partnerId), { key_id: keyId, ip_whitelist: wl.value });
    return old;
  });
  cache.forget(revoked);
  return { key_id: keyId, api_key: apiKey, ip_whitelist: wl.value };
}

/**
 * Authentication of a partner request (partner-api.md Authentication). Returns the partner id. `connection`
 * (the request's socket) remembers the key of its last `Authorization` text (KeyCache.remembered); the
 * whitelist and the partner's access are checked on every request all the same.
 */
export function authenticate(
  deps: Pick<Deps, 'db' | 'settings'>,
  cache: KeyCache,
  authorization: string | undefined,
  ip: string,
  connection?: object,
): { readonly partnerId: number; readonly keyId: string } {
  let key = connection !== undefined && authorization !== undefined ? cache.remembered(connection, authorization) : undefined;
  if (key === undefined) {
    const m = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
    const token = m?.[1];
    if (!token || !token.startsWith(KEY_PREFIX) || token.length > 200) fail('unauthorized');
    const found = cache.get(deps, token);
    if (!found) fail('unauthorized');
    key = found;
    if (connection !== undefined) cache.remember(connection, authorization!, key);
  }
  if (!ipAllowed(ip, key.ranges)) fail('ip_not_allowed');
  requirePartnerAccess(deps, key.partnerId);
  // the cached entry itself (read-only, one per live key): nothing made per request
  return key;
}
