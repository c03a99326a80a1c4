/**
 * What the delivery log's use cases need from the webhook dispatcher (deliver.ts),
 * which sends through the transport with the address checks of every attempt.
 */
export interface TestWebhook {
  partnerId: number;
  webhookId: string;
  event: string;
  url: string;
  body: string;
  /** null: the saved secret does not open with this service's key (nothing is sent; the operators are alerted) */
  secret: string | null;
}

export interface DeliverySender {
  /** Sends an existing delivery again now; resolves once its outcome is recorded. */
  redeliver(webhookId: string): Promise<void>;
  /** Sends a test webhook once and records it as a delivery with its outcome. */
  sendTest(t: TestWebhook): Promise<void>;
}
