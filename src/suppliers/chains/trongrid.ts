import { unitsToDecimal } from '../../domain/deposit-matching.js';
import { canonicalTxHash } from '../../domain/tx-hash.js';
import { CursorWalk, OccurrenceKeys, httpJson, joinUrl, type ChainWatcher, type ObservedTransfer, type TimeCursor } from './chain-watcher.js';

/**
 * TRON through a TronGrid-style API:
 * - `POST /wallet/getnowblock`: the head block (number and timestamp);
 * - `GET /v1/accounts/{address}/transactions/trc20?only_to=true&only_confirmed=true&contract_address=<USDT>
 *   &order_by=block_timestamp,asc&min_timestamp=…&limit=…` and `&fingerprint=…` for the next page: USDT
 *   TRC-20 transfers (6 decimals) into the deposit address.
 *
 * `only_confirmed=true` lists solidified transactions only. On top of that, confirmations are counted
 * from the head block: TRON makes one block every 3 seconds, so a transfer has
 * floor((head timestamp - block timestamp) / 3 s) + 1 blocks on it.
 */

export interface TronWatcherOptions {
  apiUrl: string;
  apiKey?: string;
  contract: string;
  /** The configured TRC-20 deposit address. */
  address: string;
  confirmations: number;
  pageSize?: number;
  maxPages?: number;
  /** Milliseconds re-read on every poll (solidification lag of the index). */
  overlapMs?: number;
}

const BLOCK_MS = 3000;

export class TronWatcher implements ChainWatcher {
  readonly network = 'trc20' as const;
  private readonly pageSize: number;
  private readonly maxPages: number;
  private readonly overlap: number;

  constructor(private readonly o: TronWatcherOptions) {
    this.pageSize = o.pageSize ?? 200;
    this.maxPages = o.maxPages ?? 10;
    this.overlap = o.overlapMs ?? 180_000;
  }

  private headers(): Record<string, string> {
    return this.o.apiKey ? { 'TRON-PRO-API-KEY': this.o.apiKey } : {};
  }

  async poll(position: string | null): Promise<{ transfers: ObservedTransfer[]; position: string }> {
    const head = await httpJson(joinUrl(this.o.apiUrl, '/wallet/getnowblock'), { method: 'POST', body: {}, headers: this.headers() });
    const headTs = Number(head?.block_header?.raw_data?.timestamp);
    if (!Number.isFinite(headTs)) throw new Error('getnowblock: no head block');
    const cursor: TimeCursor = position ? JSON.parse(position) : { t: headTs, floor: headTs, seen: {} };
    const walk = new CursorWalk(cursor, this.overlap);
    const keys = new OccurrenceKeys();
    const transfers: ObservedTransfer[] = [];
    const start = walk.start;
    let fingerprint: string | undefined;
    pages: for (let page = 0; page < this.maxPages; page++) {
      const r = await httpJson(
        joinUrl(this.o.apiUrl, `/v1/accounts/${encodeURIComponent(this.o.address)}/transactions/trc20`, {
          only_to: 'true',
          only_confirmed: 'true',
          contract_address: this.o.contract,
          order_by: 'block_timestamp,asc',
          min_timestamp: start,
          limit: this.pageSize,
          fingerprint,
        }),
        { headers: this.headers() },
      );
      if (r?.success === false) throw new Error(`trc20 listing failed: ${JSON.stringify(r).slice(0, 200)}`);
      const items: any[] = Array.isArray(r?.data) ? r.data : [];
      for (const it of items) {
        const key = keys.key(canonicalTxHash('trc20', String(it.transaction_id)));
        const time = Number(it.block_timestamp);
        if (walk.seen(key) || walk.beforeFloor(time)) continue;
        const conf = Math.floor((headTs - time) / BLOCK_MS) + 1;
        if (conf < this.o.confirmations) break pages; // hold here until it is confirmed
        walk.accept(key, time);
        if (it.type !== undefined && it.type !== 'Transfer') continue;
        if (it.to !== this.o.address) continue;
        const value = String(it.value ?? '');
        if (!/^\d+$/.test(value)) continue;
        const isUsdt = (it.token_info?.address ?? this.o.contract) === this.o.contract;
        const decimals = Number.isInteger(it.token_info?.decimals) ? it.token_info.decimals : 6;
        transfers.push({
          network: 'trc20',
          asset: isUsdt ? 'USDT' : String(it.token_info?.symbol ?? 'TRC20'),
          amount: unitsToDecimal(value, decimals),
          txHash: key,
          from: it.from ?? null,
          to: this.o.address,
          comment: null,
          confirmations: conf,
          chainTime: Number.isFinite(time) ? time : null,
        });
      }
      fingerprint = r?.meta?.fingerprint;
      if (!fingerprint || items.length === 0) break;
    }
    return { transfers, position: JSON.stringify(walk.finish()) };
  }
}
