import crypto from 'node:crypto';

/**
 * Chain addresses of the three deposit networks, compared the way each network means them:
 * - `ton`: one account has a raw form (`0:6f3a…`) and user-friendly forms (`EQ…` bounceable, `UQ…`
 *   non-bounceable, base64 or base64url); all of them normalise to the raw form `wc:hex` (lower case).
 * - `trc20`: base58check (`T…`), case-sensitive, compared as written.
 * - `bep20`: `0x` + 40 hex digits, compared case-insensitively (EIP-55 checksums are only a spelling).
 */
export type DepositNetwork = 'ton' | 'trc20' | 'bep20';
export const DEPOSIT_NETWORKS: readonly DepositNetwork[] = ['ton', 'trc20', 'bep20'];

/** CRC-16/XMODEM, the checksum of TON user-friendly addresses. */
export function crc16xmodem(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** Any TON address form → `wc:hex` (lower case), or null when it is not a TON address. */
export function tonRawAddress(text: string): string | null {
  const s = text.trim();
  const raw = /^(-?\d{1,3}):([0-9a-fA-F]{64})$/.exec(s);
  if (raw) return `${Number(raw[1])}:${raw[2].toLowerCase()}`;
  if (!/^[A-Za-z0-9+/_-]{48}$/.test(s)) return null;
  const bytes = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length !== 36) return null;
  if (crc16xmodem(bytes.subarray(0, 34)) !== bytes.readUInt16BE(34)) return null;
  const tag = bytes[0] & 0x7f; // 0x80 marks a testnet address
  if (tag !== 0x11 && tag !== 0x51) return null;
  return `${bytes.readInt8(1)}:${bytes.subarray(2, 34).toString('hex')}`;
}

/** Raw TON address → user-friendly form (base64url; non-bounceable `UQ…` by default). */
export function tonFriendlyAddress(raw: string, bounceable = false): string {
  const norm = tonRawAddress(raw);
  if (!norm) throw new Error(`not a TON address: ${raw}`);
  const [wc, hex] = norm.split(':');
  const bytes = Buffer.alloc(36);
  bytes[0] = bounceable ? 0x11 : 0x51;
  bytes.writeInt8(Number(wc), 1);
  Buffer.from(hex, 'hex').copy(bytes, 2);
  bytes.writeUInt16BE(crc16xmodem(bytes.subarray(0, 34)), 34);
  return bytes.toString('base64url');
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function sha256(b: Uint8Array): Buffer {
  return crypto.createHash('sha256').update(b).digest();
}

/** True for a base58check TRON address (`T…`, 34 characters, valid checksum). */
export function isTronAddress(text: string): boolean {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(text)) return false;
  let n = 0n;
  for (const ch of text) n = n * 58n + BigInt(B58.indexOf(ch));
  const hex = n.toString(16).padStart(50, '0');
  const bytes = Buffer.from(hex, 'hex');
  if (bytes.length !== 25 || bytes[0] !== 0x41) return false;
  return sha256(sha256(bytes.subarray(0, 21))).subarray(0, 4).equals(bytes.subarray(21));
}

/** The comparable form of an address on a network (see the header). */
export function normalizeAddress(network: string, address: string): string {
  const s = address.trim();
  if (network === 'ton') return tonRawAddress(s) ?? s;
  if (network === 'bep20') return s.toLowerCase();
  return s;
}

export function sameAddress(network: string, a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  return normalizeAddress(network, a) === normalizeAddress(network, b);
}
