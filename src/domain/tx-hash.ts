/**
 * One canonical form of a chain transaction hash per network: the form the watchers record, the form every
 * credit is stored and looked up under (deposits and top-ups are unique by network and this form), whoever
 * writes the hash: a watcher, the sandbox, support's POST /partners/{id}/topups, the console or the bot.
 *
 * - ton:   64 lower-case hex digits. An explorer may show the hash in hex (either case, with or without
 *          `0x`) or in base64 / base64url (44 characters): all are the same 32 bytes.
 * - trc20: 64 lower-case hex digits, no `0x` (TronGrid's and Tronscan's form).
 * - bep20: `0x` and 64 lower-case hex digits (the JSON-RPC form; BscScan shows it so).
 *
 * A watcher that sees a second transfer to us within one transaction keys it `<hash>:<n>` (the log index on
 * BSC, the occurrence on TRON): that suffix is kept as it is. Text that is not a hash of the network's
 * shape (a test's `tx-1`, a sandbox label) is kept as typed, trimmed: it can only ever equal itself.
 */

const HEX32 = /^(?:0x)?([0-9a-f]{64})$/i;
const BASE64_32 = /^[A-Za-z0-9+/_-]{43}=?$/;
const SUFFIX = /^(.+?)(:\d{1,9})$/;

export function canonicalTxHash(network: string, raw: string): string {
  const text = raw.trim();
  const m = SUFFIX.exec(text);
  const [hash, suffix] = m ? [m[1], m[2]] : [text, ''];
  return canonicalHash(network, hash) + suffix;
}

function canonicalHash(network: string, hash: string): string {
  const hex = HEX32.exec(hash)?.[1].toLowerCase();
  if (network === 'bep20') return hex === undefined ? hash : `0x${hex}`;
  if (hex !== undefined) return hex;
  if (network === 'ton' && BASE64_32.test(hash)) {
    const bytes = Buffer.from(hash.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 32) return bytes.toString('hex');
  }
  return hash;
}

export interface ChainTx {
  network: string;
  txHash: string;
}

const NETWORKS = ['ton', 'trc20', 'bep20'] as const;

/**
 * The spellings under which one transaction may already have been credited: itself, and for a 32-byte hex
 * hash the same hash on the other networks. Two networks never share a 32-byte hash in practice, so a
 * match there is a credit made under the wrong network (support left `network` at its default `ton` for a
 * TRC-20 transfer, say): it is the same transfer, and crediting it again would pay it twice.
 */
export function txAliases(tx: ChainTx): ChainTx[] {
  const hash = SUFFIX.exec(tx.txHash)?.[1] ?? tx.txHash;
  if (!HEX32.test(hash)) return [tx];
  const others = NETWORKS.filter((n) => n !== tx.network).map((network) => ({ network, txHash: canonicalTxHash(network, tx.txHash) }));
  return [tx, ...others];
}
