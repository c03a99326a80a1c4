import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../src/app/orders/idempotency.js';
import { pythonStyleJson } from '../../src/domain/python-style-json.js';

/**
 * The request fingerprint is stored with every bound idempotency key: it must never change for the same
 * request, or a partner's retry after an upgrade would be refused as idempotency_key_reuse.
 */
describe('request fingerprint', () => {
  it('is the same value as the stored fingerprints of earlier versions', () => {
    expect(fingerprintOf({ type: 'stars', params: { recipient: '@Zoë', quantity: 100, extra: [1, 'a', null, { b: true, a: 1.5 }] }, webhook_url: null })).toBe(
      '1117f7645d8f65dfcd655bd6307fe8190e2024b8a17a2c2bcf2116f48507d675',
    );
    expect(fingerprintOf({ type: 'nft', params: null, webhook_url: 'https://x.example/h' })).toBe('f827b6366a4cc39c9f7095cd72acacc67f3ecb92f3aff963e365e68b8036a9b4');
    // keys that look like array indexes came first, in numeric order (computed with the first version)
    expect(
      fingerprintOf({ type: 'stars', params: { quantity: 100, recipient: 'x', meta: { '10': 1, '2': 2, b: 3, $: 4, '-1': 5, '01': 6, ' ': 7, '4294967295': 8, '4294967294': 9 } }, webhook_url: null }),
    ).toBe('65925087e2153b760614a7eac361b31f0af75f31cdf7d5b91971cf1f5ca881f4');
  });

  it('is unchanged for a request without client_reference (absent or null), and differs with one', () => {
    const base = { type: 'stars', params: { recipient: '@Zoë', quantity: 100, extra: [1, 'a', null, { b: true, a: 1.5 }] }, webhook_url: null };
    expect(fingerprintOf({ ...base, client_reference: null })).toBe('1117f7645d8f65dfcd655bd6307fe8190e2024b8a17a2c2bcf2116f48507d675');
    expect(fingerprintOf({ ...base, client_reference: 'A-1' })).not.toBe('1117f7645d8f65dfcd655bd6307fe8190e2024b8a17a2c2bcf2116f48507d675');
    expect(fingerprintOf({ ...base, client_reference: 'A-1' })).not.toBe(fingerprintOf({ ...base, client_reference: 'A-2' }));
  });

  it('ignores the order of keys at every level and nothing else', () => {
    const a = fingerprintOf({ type: 'stars', params: { quantity: 100, recipient: 'x', meta: { b: 1, a: [2, { d: 1, c: 2 }] } }, webhook_url: null });
    const b = fingerprintOf({ webhook_url: null, params: { meta: { a: [2, { c: 2, d: 1 }], b: 1 }, recipient: 'x', quantity: 100 }, type: 'stars' } as never);
    expect(a).toBe(b);
    expect(fingerprintOf({ type: 'stars', params: { quantity: 101, recipient: 'x' }, webhook_url: null })).not.toBe(fingerprintOf({ type: 'stars', params: { quantity: 100, recipient: 'x' }, webhook_url: null }));
    expect(fingerprintOf({ type: 'stars', params: { a: [1, 2] }, webhook_url: null })).not.toBe(fingerprintOf({ type: 'stars', params: { a: [2, 1] }, webhook_url: null }));
  });

  it('serialises like Python json.dumps(sort_keys=True, ensure_ascii=False)', () => {
    expect(pythonStyleJson({ b: [1, 'é', null], a: { d: false, c: 0.5 } }, { sortKeys: true })).toBe('{"a": {"c": 0.5, "d": false}, "b": [1, "é", null]}');
    expect(pythonStyleJson({ b: 1, a: 2 })).toBe('{"b": 1, "a": 2}');
  });
});
