import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../app/deps.js';
import type { KeyCache } from '../../app/keys.js';
import type { GiftCatalog } from '../../app/nft/gift-catalog.js';
import type { DeliverySender } from '../../app/webhooks/sender.js';
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
  /** Sends a webhook now (redelivery, the test event): the webhook dispatcher. */
  sender: DeliverySender;
}

/** The authenticated partner of a request (set by the partner API's onRequest hook). */
export function partnerOf(req: FastifyRequest): number {
  return req.partner!.partnerId;
}

export function keyOf(req: FastifyRequest): string {
  return req.partner!.keyId;
}

/** Aborted when the client goes away before its answer is sent (a long wait then gives up its slot). */
export function clientGone(reply: FastifyReply): AbortSignal {
  const ac = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) ac.abort();
  });
  return ac.signal;
}
