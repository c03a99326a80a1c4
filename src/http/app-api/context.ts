import type { Deps } from '../../app/deps.js';
import type { KeyCache } from '../../app/keys.js';
import type { GiftCatalog } from '../../app/nft/gift-catalog.js';
import type { DeliverySender } from '../../app/webhooks/sender.js';
import type { RateLimiter } from '../rate-limiter.js';
import type { SupplierFundsReader } from '../../app/operator/supplier-funds.js';

/** What the Mini App's route groups are built with. */
export interface AppApiDeps {
  deps: Deps;
  keys: KeyCache;
  limiter: RateLimiter;
  catalog: GiftCatalog;
  /** Sends redeliveries and test webhooks (the dispatcher's, as for the partner API). */
  sender: DeliverySender;
  /** What the supplier accounts hold (the console's overview). */
  supplierFunds: SupplierFundsReader;
}

/** The actor a Mini App user's changes are audited under. */
export const actorOf = (telegramUserId: number) => `telegram:${telegramUserId}`;
