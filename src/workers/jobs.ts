import type { Deps } from '../app/deps.js';
import { ORDER_JOB } from '../app/orders/jobs.js';
import { processOrder } from '../app/orders/process.js';
import type { WebhookDispatcher } from '../app/webhooks/deliver.js';
import { WEBHOOK_JOB } from '../app/webhooks/outbox.js';
import type { JobHandler } from './scheduler.js';

/** What jobTable uses of the service. */
export type JobTableDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'log' | 'suppliers' | 'bus' | 'commits' | 'wake' | 'supplierCalls'>;

/**
 * Every job kind and the use case that runs it. The rules of a job (give-up times, retry and DNS-deferral
 * policy, outcome → transition) live in its use case in src/app; the scheduler only runs what is due.
 *   order.process   → app/orders/process.ts (process-goods.ts for Stars and Premium, process-nft.ts for gifts)
 *   webhook.deliver → app/webhooks/deliver.ts
 *   watcher.poll    → app/deposit-watch.ts (the handlers of the enabled networks: ./deposit-watchers.ts)
 */
export function jobTable(deps: JobTableDeps, webhooks: WebhookDispatcher, watchers: Record<string, JobHandler>): Record<string, JobHandler> {
  return {
    [ORDER_JOB]: (job) => processOrder(deps, job),
    [WEBHOOK_JOB]: (job) => webhooks.attempt(job),
    ...watchers,
  };
}
