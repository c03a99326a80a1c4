import { fail, failUpstreamUnavailable } from '../domain/errors.js';
import { UpstreamUnavailable } from '../suppliers/types.js';
import type { Deps } from './deps.js';
import { requireProductAvailable } from './products.js';
import { resolveRecipient } from './orders/recipient.js';
import { ValidateGameRequest, ValidateRecipientRequest } from './requests/orders.js';
import { isJsonObject, parseRequest, VALIDATE_GAME_RULES, VALIDATE_RECIPIENT_RULES } from './requests/parse.js';

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
