/**
 * The service database, one file per subject in `schema/` (drizzle-kit reads that folder). Times are
 * service-clock milliseconds; money is integer minor units (cents for USD, milli-TON for TON).
 */
export * from './schema/partners.js';
export * from './schema/ledger.js';
export * from './schema/topups.js';
export * from './schema/orders.js';
export * from './schema/gifts.js';
export * from './schema/fragment.js';
export * from './schema/webhooks.js';
export * from './schema/jobs.js';
export * from './schema/kv.js';
export * from './schema/audit.js';
export * from './schema/bot.js';
export * from './schema/sandbox.js';
