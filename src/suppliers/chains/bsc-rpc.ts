import { unitsToDecimal } from '../../domain/deposit-matching.js';
import { canonicalTxHash } from '../../domain/tx-hash.js';
import { httpJson, type ChainWatcher, type ObservedTransfer } from './chain-watcher.js';

/**
 * BNB Smart Chain through JSON-RPC: `eth_blockNumber` for the head, then `eth_getLogs` over block ranges
 * with the USDT BEP-20 contract, the ERC-20 Transfer topic and the deposit address (left-padded to 32
 * bytes) as the `to` topic. USDT on BSC has 18 decimals.
 *
 * Only blocks with the required confirmations are read (up to head - confirmations + 1), so a transfer
 * is reported once it is deep enough; the position is the last block read. A first start begins at that
 * safe head rather than reading the past. One transaction can carry several transfers to the address:
 * the first is keyed by the transaction hash, the others by `hash:logIndex`.
 */

export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export interface BscWatcherOptions {
  rpcUrl: string;
  contract: string;
  /** The configured BEP-20 deposit address. */
  address: string;
  confirmations: number;
  /** Blocks per eth_getLogs call. */
  range: number;
  /** eth_getLogs calls per poll at most. */
  maxRanges?: number;
}

export class BscWatcher implements ChainWatcher {
  readonly network = 'bep20' as const;
  private id = 0;

  constructor(private readonly o: BscWatcherOptions) {}

  private async rpc(method: string, params: unknown[]): Promise<any> {
    const r = await httpJson(this.o.rpcUrl, { method: 'POST', body: { jsonrpc: '2.0', id: ++this.id, method, params } });
    if (r?.error) throw new Error(`${method}: ${r.error.message ?? JSON.stringify(r.error)}`);
    if (r?.result === undefined) throw new Error(`${method}: no result`);
    return r.result;
  }

  async poll(position: string | null): Promise<{ transfers: ObservedTransfer[]; position: string }> {
    const head = Number(BigInt(await this.rpc('eth_blockNumber', [])));
    const safe = head - this.o.confirmations + 1;
    if (position === null) return { transfers: [], position: JSON.stringify({ block: safe }) };
    let block = Number(JSON.parse(position).block);
    const toTopic = `0x${this.o.address.toLowerCase().replace(/^0x/, '').padStart(64, '0')}`;
    const transfers: ObservedTransfer[] = [];
    for (let i = 0; i < (this.o.maxRanges ?? 20) && block < safe; i++) {
      const from = block + 1;
      const to = Math.min(from + this.o.range - 1, safe);
      const logs: any[] = await this.rpc('eth_getLogs', [
        { fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}`, address: this.o.contract, topics: [TRANSFER_TOPIC, null, toTopic] },
      ]);
      const sorted = [...logs].sort((a, b) => Number(BigInt(a.blockNumber)) - Number(BigInt(b.blockNumber)) || Number(BigInt(a.logIndex)) - Number(BigInt(b.logIndex)));
      const firstOfTx = new Set<string>();
      for (const log of sorted) {
        if (log.removed === true) continue;
        if (!Array.isArray(log.topics) || log.topics.length !== 3 || String(log.topics[0]).toLowerCase() !== TRANSFER_TOPIC) continue;
        if (String(log.topics[2]).toLowerCase() !== toTopic) continue;
        const hash = canonicalTxHash('bep20', String(log.transactionHash));
        const key = firstOfTx.has(hash) ? `${hash}:${Number(BigInt(log.logIndex))}` : hash;
        firstOfTx.add(hash);
        const data = String(log.data);
        const units = BigInt(data === '0x' ? '0x0' : data);
        const isUsdt = String(log.address).toLowerCase() === this.o.contract.toLowerCase();
        transfers.push({
          network: 'bep20',
          asset: isUsdt ? 'USDT' : `BEP20:${log.address}`,
          amount: unitsToDecimal(units, isUsdt ? 18 : 0),
          txHash: key,
          from: `0x${String(log.topics[1]).slice(-40)}`,
          to: this.o.address,
          comment: null,
          confirmations: head - Number(BigInt(log.blockNumber)) + 1,
          // the block's time, in seconds, where the node adds it to its logs (newer nodes do); else unknown
          chainTime: /^0x[0-9a-f]+$/i.test(String(log.blockTimestamp ?? '')) ? Number(BigInt(log.blockTimestamp)) * 1000 : null,
        });
      }
      block = to;
    }
    return { transfers, position: JSON.stringify({ block }) };
  }
}
