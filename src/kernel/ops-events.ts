/**
 * What the service tells its own instruments (metrics, state-change log lines) after a commit, on the
 * in-process bus (`deps.bus`, event `ops`). Ids are carried for the log; metrics never use them as labels.
 */
export type OpsEvent =
  | { kind: 'order_created'; orderId: string; partnerId: number; type: string; status: string }
  // final: the order has its outcome now (order-machine.ts isFinal; a Stars order entering review reads `failed` and is not final)
  | { kind: 'order_state'; orderId: string; partnerId: number; type: string; from: string; to: string; final: boolean; refunded: boolean; reason: string | null; createdAt: number; at: number }
  | { kind: 'webhook_state'; webhookId: string; orderId: string; partnerId: number; event: string; status: 'pending' | 'delivered' | 'failed'; attempt: number; outcome: WebhookOutcome; detail?: string | null; manual?: boolean }
  | { kind: 'supplier_error'; product: string }
  | { kind: 'bot_update'; ok: boolean }
  /** The Bot API answered a call of the bot (connected) or a call failed to reach it (bot/connection.ts). */
  | { kind: 'bot_connection'; connected: boolean };

/**
 * created: the delivery was queued; the others are the result of one attempt (or of a refusal before sending:
 * `refused` for the address, `secret_unreadable` when the partner's secret does not open with the service's key).
 */
export type WebhookOutcome = 'created' | 'delivered' | 'failed_attempt' | 'gave_up' | 'refused' | 'secret_unreadable';
