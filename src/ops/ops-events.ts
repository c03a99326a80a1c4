/** The events themselves are declared with the bus, below every layer (src/kernel/ops-events.ts). */
export type { OpsEvent, WebhookOutcome } from '../kernel/ops-events.js';

/** Final order states: the time from creation to one of them is observed once. */
export const FINAL_STATUSES = new Set(['completed', 'failed', 'canceled', 'partial']);
