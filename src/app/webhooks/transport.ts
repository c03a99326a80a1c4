/**
 * What webhook delivery (deliver.ts) needs from the network, declared here and implemented by src/http-out/webhook-transport.ts:
 * resolve a host and check every address it resolves to, then post only to those checked addresses.
 */
export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolution =
  | { ok: true; addresses: PinnedAddress[] }
  | { ok: false; kind: 'dns_failure'; detail: string }
  | { ok: false; kind: 'private'; detail: string };

export type PostResult = { kind: 'response'; status: number } | { kind: 'timeout' } | { kind: 'error'; detail: string };

/** A post's result with the real time the exchange took (the delivery log shows it). */
export type TimedPostResult = PostResult & { durationMs: number };

export interface WebhookTransport {
  /** `literalIp`: the URL's host when it is an IP address (checked as given, never looked up). */
  resolve(host: string, literalIp: string | null): Promise<Resolution>;
  post(url: string, addresses: PinnedAddress[], body: string, headers: Record<string, string>, timeoutMs: number): Promise<TimedPostResult>;
  close(): Promise<void>;
}
