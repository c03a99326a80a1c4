import { fail, failUpstreamUnavailable } from '../../domain/errors.js';
import { SupplierDown, UpstreamUnavailable, type Recipient } from '../../suppliers/types.js';
import type { Deps } from '../deps.js';
import { requireProductAvailable } from '../products.js';
import { ValidateGameRequest, ValidateRecipientRequest } from '../requests/orders.js';
import { isJsonObject, parseRequest, VALIDATE_GAME_RULES, VALIDATE_RECIPIENT_RULES } from '../requests/parse.js';

/**
 * Resolving a recipient, shared by every order type, and the validate endpoints that check one before an
 * order with the same resolution (their syntax: src/app/requests/).
 */

/**
 * Resolves a recipient: unknown → 400 recipient_not_found, resolver down → 502 resolver_error, the whole
 * supplier down → 503 product_unavailable (upstream_unavailable, Retry-After).
 */
export async function resolveRecipient(deps: Pick<Deps, 'suppliers'>, raw: string): Promise<Recipient> {
  let r: Recipient | null;
  try {
    r = await deps.suppliers.resolver.resolve(raw);
  } catch (e) {
    if (e instanceof SupplierDown)
      failUpstreamUnavailable('The supplier is temporarily unavailable.', e.retryAfterSec);
    if (e instanceof UpstreamUnavailable) fail('resolver_error', 'Recipient resolution failed. Retry later.', { retry_after: e.retryAfterSec }, { 'Retry-After': String(e.retryAfterSec) });
    throw e;
  }
  if (!r) fail('recipient_not_found');
  return r;
}

/** POST /validate/recipient: the same resolution the order path uses. */
export async function validateRecipient(deps: Pick<Deps, 'suppliers'>, body: unknown) {
  // `recipient` is taken for a missing `username` (as the order's params name it); clients have relied on it
  const b = isJsonObject(body) && (body.username === undefined || body.username === null) && body.recipient !== undefined ? { ...body, username: body.recipient } : body;
  const { type, username } = parseRequest(ValidateRecipientRequest, b, VALIDATE_RECIPIENT_RULES);
  const r = await resolveRecipient(deps, username);
  return {
    ok: true,
    type,
    username: r.username,
    name: r.displayName,
    ...(type === 'premium' && r.premiumActive ? { already_premium: true } : {}),
    ...(type === 'nft' ? { can_receive_gifts: r.canReceiveGifts } : {}),
  };
}

/** POST /validate/game: checks a game-platform user (answers 503 while the platform is down). */
export async function validateGame(deps: Pick<Deps, 'config' | 'suppliers' | 'settings'>, body: unknown) {
  const raw = parseRequest(ValidateGameRequest, body, VALIDATE_GAME_RULES).username;
  // The game platform sells stars: it is available exactly when stars are.
  requireProductAvailable(deps, 'stars');
  try {
    const r = await deps.suppliers.resolver.checkGameUser(raw);
    if (!r.found) fail('recipient_not_found', 'No such game-platform user.');
    return { ok: true, username: raw.replace(/^@/, ''), found: true, name: r.displayName ?? null };
  } catch (e) {
    if (e instanceof UpstreamUnavailable)
      failUpstreamUnavailable('The game platform is temporarily unavailable.', e.retryAfterSec);
    throw e;
  }
}
