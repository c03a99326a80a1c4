import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../app/deps.js';
import type { KeyCache } from '../../app/keys.js';
import type { GiftCatalog } from '../../app/nft/gift-catalog.js';
import type { RateLimiter } from '../rate-limiter.js';

declare module 'fastify' {
  interface FastifyRequest {
    partner?: { partnerId: number; keyId: string };
  }
}

/** What the partner API's route groups need. */
export interface PartnerContext {
  deps: Deps;
  keys: KeyCache;
  limiter: RateLimiter;
  catalog: GiftCatalog;
}

/** The authenticated partner of a request (set by the partner API's onRequest hook). */
export function partnerOf(req: FastifyRequest): number {
  return req.partner!.partnerId;
}

export function keyOf(req: FastifyRequest): string {
  return req.partner!.keyId;
}
