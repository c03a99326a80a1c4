import { describe, expect, it } from 'vitest';
import { jsonOf } from '../../src/http/frozen-json.js';

/** The answers built from cached texts must be byte for byte what JSON.stringify makes. */
describe('jsonOf', () => {
  it('equals JSON.stringify for plain values, nested objects and arrays', () => {
    const samples: unknown[] = [
      null,
      0,
      -1.5,
      'é "quoted" \n',
      true,
      [],
      {},
      [1, undefined, null, 'a'],
      { a: 1, b: undefined, c: [{ d: 'x' }, null], e: { f: false }, g: () => 1 },
      { items: [Object.freeze({ order_id: 'PA-1', partner_price: '1.58', refunded: false })], count: 1, next_cursor: null },
    ];
    for (const v of samples) expect(jsonOf(v)).toBe(JSON.stringify(v));
  });

  it('serialises a frozen object once and reuses the text', () => {
    const view = Object.freeze({ order_id: 'PA-2', status: 'processing' });
    const first = jsonOf({ items: [view, view] });
    expect(first).toBe('{"items":[{"order_id":"PA-2","status":"processing"},{"order_id":"PA-2","status":"processing"}]}');
    expect(jsonOf(view)).toBe(JSON.stringify(view));
    // a changed order is a new object, hence a new text
    const next = Object.freeze({ ...view, status: 'completed' });
    expect(jsonOf(next)).toBe('{"order_id":"PA-2","status":"completed"}');
  });
});
