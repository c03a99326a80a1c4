import { EventEmitter } from 'node:events';
import type { OpsEvent } from './ops-events.js';

/**
 * In-process notifications raised after a transaction commits: order outcomes for the partner's chat
 * and operator alerts. The durable record is the outbox (`events`, `webhook_deliveries`); this bus only
 * tells live listeners (the bot) sooner.
 */
export type Alert =
  | { kind: 'review'; orderId: string; partnerId: number; stage: string }
  | { kind: 'order_failure'; orderId: string; partnerId: number; reason: string }
  | { kind: 'webhook_gave_up'; webhookId: string; orderId: string; partnerId: number; event: string; reason: string }
  /** A webhook not sent because the partner's secret does not open with the service's key: the operators' to fix. */
  | { kind: 'webhook_secret_unreadable'; webhookId: string; orderId: string; partnerId: number; event: string; detail: string }
  | { kind: 'unmatched_deposit'; depositId: string; network: string; asset: string; amount: string; reason: string }
  | { kind: 'storage_unavailable'; reason: string; detail: string }
  | { kind: 'storage_recovered'; reason: string; downSeconds: number }
  /** A supplier problem the operators must act on (src/suppliers/fragment): session, KYC, reachability, wallet funds. */
  | { kind: 'supplier'; supplier: string; problem: string; detail: string; balance_ton?: string; need_ton?: string };

export interface OrderOutcome {
  partnerId: number;
  orderId: string;
  event: 'order.completed' | 'order.failed' | 'order.refunded';
}

/** A top-up credited from a chain deposit, for the partner's owner chat (src/app/deposits/record.ts). */
export interface TopupCredited {
  partnerId: number;
  topupId: string;
  currency: 'USD' | 'TON';
  amount: string;
  /** This top-up was the partner's first: it activated the account. */
  activated?: boolean;
  /** The top-up request it paid, when a transfer matched one (its message in the bot then reads "paid"). */
  requestId?: string;
}

/** A debit took a balance below its alert threshold (src/app/balance-alerts.ts), for the owners' chats. */
export interface BalanceLow {
  partnerId: number;
  currency: 'USD' | 'TON';
  balance: string;
  threshold: string;
  orderId: string;
}

export interface BusEvents {
  alert: [Alert];
  order: [OrderOutcome];
  topup_credited: [TopupCredited];
  balance_low: [BalanceLow];
  /** For metrics and the state-change log (src/ops/). */
  ops: [OpsEvent];
}

export class EventBus extends EventEmitter<BusEvents> {}
