import { fail, failUpstreamUnavailable } from '../domain/errors.js';
import { UpstreamUnavailable } from '../suppliers/types.js';
import type { Deps } from './deps.js';
import { requireProductAvailable } from './products.js';
import { requireRecipientText, resolveRecipient } from './orders/recipient.js';

/** POST /validate/recipient: the same resolution the order path uses. */
export async function validateRecipient(deps: Deps, body: unknown) {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const type = b.type;
  if (type !== 'stars' && type !== 'premium' && type !== 'nft') fail('bad_type');
  const raw = requireRecipientText(b.username ?? b.recipient);
  const r = await resolveRecipient(deps, raw);
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
export async function validateGame(deps: Deps, body: unknown) {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const raw = requireRecipientText(b.username);
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
