import { describe, expect, it } from 'vitest';
import { CLIENT_REFERENCE_MAX, isClientReference } from '../../src/domain/client-reference.js';

/**
 * `client_reference` on POST /orders (README "Additions for integrators"): 1–128 printable characters;
 * not printable are control, format, private-use, surrogate and unassigned characters and the line and
 * paragraph separators; the length counts characters (code points), not UTF-16 units.
 */
describe('isClientReference', () => {
  it('allows at most 128 characters', () => {
    expect(CLIENT_REFERENCE_MAX).toBe(128);
  });

  it.each([
    ['a', 'one character'],
    ['order-2024-0001', 'ASCII'],
    ['Заказ №15', 'Cyrillic and a sign'],
    ['注文 42', 'CJK with a space'],
    ['⭐ stars', 'an emoji (a surrogate pair)'],
    ['e\u0301', 'a combining mark'],
    [' padded ', 'spaces are printable'],
    ['x'.repeat(128), '128 ASCII characters'],
    ['⭐'.repeat(128), '128 emoji: 256 UTF-16 units, 128 characters'],
    ['a\u00a0b', 'a no-break space'],
  ])('%j: %s → accepted', (v) => {
    expect(isClientReference(v)).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['x'.repeat(129), '129 characters'],
    ['⭐'.repeat(129), '129 emoji'],
    ['a\u0000b', 'NUL (control)'],
    ['a\nb', 'line feed (control)'],
    ['a\tb', 'tab (control)'],
    ['a\u007fb', 'DEL (control)'],
    ['a\u0085b', 'NEL (C1 control)'],
    ['a\u200bb', 'zero-width space (format)'],
    ['a\u202eb', 'right-to-left override (format)'],
    ['\ufeffa', 'byte order mark (format)'],
    ['a\u2028b', 'line separator'],
    ['a\u2029b', 'paragraph separator'],
    ['a\ue000b', 'private use'],
    ['a\u0378b', 'unassigned'],
    ['a\ud800b', 'a lone high surrogate'],
    ['a\udc00', 'a lone low surrogate'],
  ])('%j: %s → refused', (v) => {
    expect(isClientReference(v)).toBe(false);
  });

  it.each([[null], [undefined], [42], [['ref']], [{ ref: 'x' }], [true]])('not a string: %j → refused', (v) => {
    expect(isClientReference(v)).toBe(false);
  });
});
