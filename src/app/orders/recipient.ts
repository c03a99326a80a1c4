import { fail, failUpstreamUnavailable } from '../../domain/errors.js';
import { SupplierDown, UpstreamUnavailable, type Recipient } from '../../suppliers/types.js';
import type { Deps } from '../deps.js';

/** Resolving a recipient, shared by every order type and POST /validate/recipient (its syntax: src/app/requests/). */

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

