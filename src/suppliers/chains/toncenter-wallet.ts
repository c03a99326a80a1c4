import { ChainApiError, httpJson, joinUrl } from './chain-watcher.js';

/**
 * The three toncenter calls the hot wallet needs. Written over plain HTTP rather than @ton/ton's
 * TonClient: TonClient has no lookup of a transaction by the normalised hash of its external message
 * (toncenter's v3 index has), and we must tell "the request failed" apart from "the answer said no".
 */

export { ChainApiError as ToncenterError };

export interface WalletState {
  balanceNano: bigint;
  /** 0 for a wallet not deployed yet. */
  seqno: number;
  deployed: boolean;
}

export interface ChainTransaction {
  hash: string;
  lt: string;
  utime: number;
  /** the wallet accepted the message and every outgoing message was sent */
  success: boolean;
  /** `hash`: the message's hash as the index gives it, to look up its transaction at the destination */
  outMessages: { destination: string; valueNano: bigint; hash?: string }[];
}

export class Toncenter {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey?: string,
  ) {}

  private headers(): Record<string, string> {
    return this.apiKey ? { 'x-api-key': this.apiKey } : {};
  }

  async wallet(address: string): Promise<WalletState> {
    const j = await httpJson(joinUrl(this.baseUrl, '/api/v2/getWalletInformation', { address }), { headers: this.headers() });
    const r = j?.result;
    if (!j?.ok || !r || typeof r.balance !== 'string' && typeof r.balance !== 'number') throw new ChainApiError('getWalletInformation: unexpected answer');
    const deployed = r.account_state === 'active';
    return { balanceNano: BigInt(r.balance), seqno: deployed ? Number(r.seqno ?? 0) : 0, deployed };
  }

  /** Hands the signed external message to toncenter. Any failure leaves the outcome unknown. */
  async send(bocBase64: string): Promise<void> {
    const j = await httpJson(joinUrl(this.baseUrl, '/api/v2/sendBoc'), { method: 'POST', body: { boc: bocBase64 }, headers: this.headers() });
    if (!j?.ok) throw new ChainApiError(`sendBoc: ${String(j?.error ?? 'not ok')}`);
  }

  /**
   * The transaction that received a message, or null: the wallet's own for an external message (by its
   * normalised hash, hex), or the destination's for an outgoing one (by the hash the index gave).
   */
  async transactionByMessage(normHashHex: string): Promise<ChainTransaction | null> {
    let j;
    try {
      j = await httpJson(joinUrl(this.baseUrl, '/api/v3/transactionsByMessage', { msg_hash: normHashHex, direction: 'in', limit: 1 }), { headers: this.headers() });
    } catch (e) {
      if (e instanceof ChainApiError && / HTTP 404 /.test(e.message)) return null;
      throw e;
    }
    const t = Array.isArray(j?.transactions) ? j.transactions[0] : undefined;
    if (!t) return null;
    const d = t.description ?? {};
    const success = d.aborted === false && d.compute_ph?.success === true && (d.action?.success ?? true) === true;
    return {
      hash: String(t.hash),
      lt: String(t.lt),
      utime: Number(t.now ?? 0),
      success,
      outMessages: (Array.isArray(t.out_msgs) ? t.out_msgs : []).map((m: Record<string, unknown>) => ({
        destination: String(m.destination ?? ''),
        valueNano: BigInt(String(m.value ?? '0')),
        ...(typeof m.hash === 'string' && m.hash ? { hash: m.hash } : {}),
      })),
    };
  }
}
