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
  /** the wallet accepted the message and its action phase succeeded */
  success: boolean;
  /** actions the action phase skipped (a V5R1 wallet skips a message it cannot pay instead of failing) */
  skippedActions: number;
  /**
   * `hash`: the message's hash as the index gives it, to find its transaction at the destination; `body`:
   * its body cell (base64 BOC), which carries the payment's comment
   */
  outMessages: { destination: string; valueNano: bigint; hash?: string; body?: string }[];
}

/** A transaction caused by one of a transaction's outgoing messages (its receipt at the destination). */
export interface ChildTransaction {
  /** hash of the message it received */
  inMessageHash: string;
  /** computed and not aborted: the destination took the message (false: it bounced it back) */
  success: boolean;
}

/** toncenter's v3 index answers at most this many transactions per page. */
const PAGE = 128;

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
    return {
      hash: String(t.hash),
      lt: String(t.lt),
      utime: Number(t.now ?? 0),
      success: succeeded(t),
      skippedActions: Number(t.description?.action?.skipped_actions ?? 0) || 0,
      outMessages: (Array.isArray(t.out_msgs) ? t.out_msgs : []).map((m: Record<string, unknown>) => {
        const body = (m.message_content as { body?: unknown } | undefined)?.body;
        return {
          destination: String(m.destination ?? ''),
          valueNano: BigInt(String(m.value ?? '0')),
          ...(typeof m.hash === 'string' && m.hash ? { hash: m.hash } : {}),
          ...(typeof body === 'string' && body ? { body } : {}),
        };
      }),
    };
  }

  /**
   * The transactions caused by a transaction's outgoing messages (`/api/v3/adjacentTransactions`,
   * direction `out`), page by page: one call for a batch's receipts rather than one per message.
   */
  async childTransactions(txHash: string): Promise<ChildTransaction[]> {
    const out: ChildTransaction[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const j = await httpJson(joinUrl(this.baseUrl, '/api/v3/adjacentTransactions', { hash: txHash, direction: 'out', limit: PAGE, offset }), { headers: this.headers() });
      const list: Record<string, any>[] = Array.isArray(j?.transactions) ? j.transactions : [];
      for (const t of list) {
        const h = t.in_msg?.hash;
        if (typeof h === 'string' && h) out.push({ inMessageHash: h, success: succeeded(t) });
      }
      if (list.length < PAGE) return out;
    }
  }
}

function succeeded(t: Record<string, any>): boolean {
  const d = t.description ?? {};
  return d.aborted === false && d.compute_ph?.success === true && (d.action?.success ?? true) === true;
}
