import { describe, expect, it } from 'vitest';
import { canonicalTxHash, txAliases } from '../../src/domain/tx-hash.js';

const hex = '0f'.repeat(16) + 'ab'.repeat(16);

describe('the canonical transaction hash of each network', () => {
  it('ton: lower-case hex from hex in either case (with or without 0x), base64 or base64url', () => {
    const b64 = Buffer.from(hex, 'hex').toString('base64');
    const b64url = Buffer.from(hex, 'hex').toString('base64url');
    for (const s of [hex, hex.toUpperCase(), `0x${hex}`, `0X${hex.toUpperCase()}`, b64, b64url, ` ${b64} `]) expect(canonicalTxHash('ton', s), s).toBe(hex);
  });

  it('trc20: lower-case hex without 0x', () => {
    for (const s of [hex, hex.toUpperCase(), `0x${hex}`, `\t0X${hex}\n`]) expect(canonicalTxHash('trc20', s), s).toBe(hex);
  });

  it('bep20: 0x and lower-case hex', () => {
    for (const s of [hex, hex.toUpperCase(), `0x${hex}`, `0X${hex.toUpperCase()}`]) expect(canonicalTxHash('bep20', s), s).toBe(`0x${hex}`);
  });

  it('keeps a watcher’s occurrence suffix and leaves text of another shape as typed (trimmed)', () => {
    expect(canonicalTxHash('bep20', `0X${hex.toUpperCase()}:12`)).toBe(`0x${hex}:12`);
    expect(canonicalTxHash('trc20', `${hex.toUpperCase()}:2`)).toBe(`${hex}:2`);
    expect(canonicalTxHash('ton', ' tx-Label-1 ')).toBe('tx-Label-1');
    expect(canonicalTxHash('trc20', 'ABC')).toBe('ABC');
    // base64 is a TON spelling only
    expect(canonicalTxHash('trc20', Buffer.from(hex, 'hex').toString('base64'))).toBe(Buffer.from(hex, 'hex').toString('base64'));
    // not 32 bytes
    expect(canonicalTxHash('ton', `${hex}ab`)).toBe(`${hex}ab`);
  });

  it('a 32-byte hash has one spelling on every network; other text only its own', () => {
    expect(txAliases({ network: 'trc20', txHash: hex })).toEqual([
      { network: 'trc20', txHash: hex },
      { network: 'ton', txHash: hex },
      { network: 'bep20', txHash: `0x${hex}` },
    ]);
    expect(txAliases({ network: 'bep20', txHash: `0x${hex}:3` })).toEqual([
      { network: 'bep20', txHash: `0x${hex}:3` },
      { network: 'ton', txHash: `${hex}:3` },
      { network: 'trc20', txHash: `${hex}:3` },
    ]);
    expect(txAliases({ network: 'ton', txHash: 'sandbox-1' })).toEqual([{ network: 'ton', txHash: 'sandbox-1' }]);
  });
});
