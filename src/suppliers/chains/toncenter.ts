import { tonRawAddress } from '../../domain/chain-address.js';
import { unitsToDecimal } from '../../domain/deposit-matching.js';
import { canonicalTxHash } from '../../domain/tx-hash.js';
import { CursorWalk, httpJson, joinUrl, type ChainWatcher, type ObservedTransfer, type TimeCursor } from './chain-watcher.js';

/**
 * TON through a toncenter-v3-style index API:
 * - `GET /api/v3/masterchainInfo`: the last masterchain block (its seqno counts confirmations, its
 *   gen_utime is "now" on the chain);
 * - `GET /api/v3/transactions?account=…&start_utime=…&sort=asc&limit=…&offset=…`: TON coin arriving at
 *   each watched address (incoming internal messages with a value; the text comment is read from
 *   `message_content.decoded`);
 * - `GET /api/v3/jetton/transfers?owner_address=…&jetton_master=<USDT>&direction=in&…`: USDT (6 decimals)
 *   arriving at each watched address.
 * Both the USDT and the TON deposit address are watched for both assets, so a transfer of one asset to the
 * other's address is seen (and goes to manual handling as `wrong_address`).
 *
 * Confirmations are masterchain blocks: last seqno - the transaction's mc_block_seqno + 1 (the index only
 * lists transactions committed to the masterchain, so 1 means final). For a jetton transfer the seqno is
 * read with `GET /api/v3/transactions?hash=…` when more than 1 confirmation is required.
 */

export interface TonWatcherOptions {
  apiUrl: string;
  apiKey?: string;
  jettonMaster: string;
  /** Configured TON-network deposit addresses (USDT and TON coin), as written in the environment. */
  addresses: string[];
  confirmations: number;
  pageSize?: number;
  maxPages?: number;
  /** Seconds re-read on every poll (late indexing). */
  overlapSeconds?: number;
}

/** Service messages that carry a little TON but are not payments: jetton notify, excesses, nft ownership. */
const SERVICE_OPCODES = new Set([0x7362d09c, 0xd53276db, 0x05138d91]);
const USDT_TON_DECIMALS = 6;
const TON_DECIMALS = 9;

interface Position {
  streams: Record<string, TimeCursor>;
}

function opcodeOf(x: unknown): number | null {
  if (typeof x === 'number') return x >>> 0;
  if (typeof x === 'string' && /^(0x)?[0-9a-fA-F]{1,8}$/.test(x)) return parseInt(x.replace(/^0x/, ''), 16) >>> 0;
  return null;
}

export class TonWatcher implements ChainWatcher {
  readonly network = 'ton' as const;
  private readonly pageSize: number;
  private readonly maxPages: number;
  private readonly overlap: number;
  private readonly jettonMasterRaw: string | null;

  constructor(private readonly o: TonWatcherOptions) {
    this.pageSize = o.pageSize ?? 100;
    this.maxPages = o.maxPages ?? 10;
    this.overlap = o.overlapSeconds ?? 60;
    this.jettonMasterRaw = tonRawAddress(o.jettonMaster);
  }

  private get(path: string, query: Record<string, string | number | undefined>) {
    return httpJson(joinUrl(this.o.apiUrl, path, query), { headers: this.o.apiKey ? { 'X-API-Key': this.o.apiKey } : {} });
  }

  /** The distinct watched addresses (one per account, whatever form each was written in). */
  private accounts(): { key: string; address: string }[] {
    const out = new Map<string, string>();
    for (const a of this.o.addresses) {
      const key = tonRawAddress(a) ?? a.trim();
      if (!out.has(key)) out.set(key, a.trim());
    }
    return [...out].map(([key, address]) => ({ key, address }));
  }

  async poll(position: string | null): Promise<{ transfers: ObservedTransfer[]; position: string }> {
    const pos: Position = position ? JSON.parse(position) : { streams: {} };
    const info = await this.get('/api/v3/masterchainInfo', {});
    const lastSeqno = Number(info?.last?.seqno);
    const chainNow = Number(info?.last?.gen_utime);
    if (!Number.isFinite(lastSeqno) || !Number.isFinite(chainNow)) throw new Error('masterchainInfo: no last block');
    const transfers: ObservedTransfer[] = [];
    const streams: Record<string, TimeCursor> = {};
    for (const acc of this.accounts()) {
      for (const kind of ['coin', 'jetton'] as const) {
        const id = `${kind}:${acc.key}`;
        const cursor = pos.streams[id] ?? { t: chainNow, floor: chainNow, seen: {} };
        const walk = new CursorWalk(cursor, this.overlap);
        if (kind === 'coin') await this.coinStream(acc.address, walk, lastSeqno, transfers);
        else await this.jettonStream(acc.address, walk, lastSeqno, transfers);
        streams[id] = walk.finish();
      }
    }
    return { transfers, position: JSON.stringify({ streams }) };
  }

  private async coinStream(address: string, walk: CursorWalk, lastSeqno: number, out: ObservedTransfer[]): Promise<void> {
    const start = walk.start;
    for (let page = 0; page < this.maxPages; page++) {
      const r = await this.get('/api/v3/transactions', { account: address, start_utime: start, sort: 'asc', limit: this.pageSize, offset: page * this.pageSize });
      const txs: any[] = Array.isArray(r?.transactions) ? r.transactions : [];
      const book: Record<string, { user_friendly?: string }> = r?.address_book ?? {};
      for (const tx of txs) {
        const key = canonicalTxHash('ton', String(tx.hash));
        const time = Number(tx.now);
        if (walk.seen(key) || walk.beforeFloor(time)) continue;
        const conf = tx.mc_block_seqno == null ? 0 : lastSeqno - Number(tx.mc_block_seqno) + 1;
        if (conf < this.o.confirmations) return; // hold here until it is confirmed
        walk.accept(key, time);
        const m = tx.in_msg;
        if (!m || !m.source || tx.description?.aborted === true || m.bounced === true) continue;
        const value = String(m.value ?? '0');
        if (!/^\d+$/.test(value) || BigInt(value) === 0n) continue;
        const op = opcodeOf(m.opcode);
        if (op !== null && SERVICE_OPCODES.has(op)) continue;
        const decoded = m.message_content?.decoded;
        const comment = decoded && decoded.type === 'text_comment' && typeof decoded.comment === 'string' ? decoded.comment : null;
        out.push({
          network: 'ton',
          asset: 'TON',
          amount: unitsToDecimal(value, TON_DECIMALS),
          txHash: key,
          from: book[m.source]?.user_friendly ?? m.source,
          to: address,
          comment,
          confirmations: conf,
          chainTime: Number.isFinite(time) ? time * 1000 : null,
        });
      }
      if (txs.length < this.pageSize) return;
    }
  }

  private async jettonStream(address: string, walk: CursorWalk, lastSeqno: number, out: ObservedTransfer[]): Promise<void> {
    const start = walk.start;
    for (let page = 0; page < this.maxPages; page++) {
      const r = await this.get('/api/v3/jetton/transfers', {
        owner_address: address,
        jetton_master: this.o.jettonMaster,
        direction: 'in',
        start_utime: start,
        sort: 'asc',
        limit: this.pageSize,
        offset: page * this.pageSize,
      });
      const items: any[] = Array.isArray(r?.jetton_transfers) ? r.jetton_transfers : [];
      const book: Record<string, { user_friendly?: string }> = r?.address_book ?? {};
      for (const it of items) {
        const key = canonicalTxHash('ton', String(it.transaction_hash));
        const time = Number(it.transaction_now);
        if (walk.seen(key) || walk.beforeFloor(time)) continue;
        let conf = 1;
        if (this.o.confirmations > 1) {
          const t = await this.get('/api/v3/transactions', { hash: String(it.transaction_hash), limit: 1 });
          const seqno = t?.transactions?.[0]?.mc_block_seqno;
          conf = seqno == null ? 0 : lastSeqno - Number(seqno) + 1;
        }
        if (conf < this.o.confirmations) return;
        walk.accept(key, time);
        if (it.transaction_aborted === true) continue;
        const amount = String(it.amount ?? '');
        if (!/^\d+$/.test(amount)) continue;
        const master = tonRawAddress(String(it.jetton_master ?? ''));
        const isUsdt = master !== null && master === this.jettonMasterRaw;
        const decodedComment = it.decoded_forward_payload?.comment ?? it.forward_payload_comment;
        out.push({
          network: 'ton',
          asset: isUsdt ? 'USDT' : `JETTON:${it.jetton_master}`,
          amount: isUsdt ? unitsToDecimal(amount, USDT_TON_DECIMALS) : amount,
          txHash: key,
          from: it.source ? (book[it.source]?.user_friendly ?? it.source) : null,
          to: address,
          comment: typeof decodedComment === 'string' ? decodedComment : null,
          confirmations: conf,
          chainTime: Number.isFinite(time) ? time * 1000 : null,
        });
      }
      if (items.length < this.pageSize) return;
    }
  }
}
