import { describe, expect, it } from 'vitest';
import {
  BOT_ROLES,
  CURRENCIES,
  DEPOSIT_STATUSES,
  LEDGER_ENTRY_KINDS,
  ORDER_STATUSES,
  ORDER_TYPES,
  PARTNER_STATUSES,
  TOPUP_REQUEST_STATUSES,
  isCurrency,
  isOrderStatus,
  isOrderType,
} from '../../src/domain/enums.js';

/** The enumerations against the contract's words (partner-api.md, operator-api.md). */
describe('the lists', () => {
  it.each([
    // "the type field accepts exactly these three values; there are no others"
    ['order types', ORDER_TYPES, ['stars', 'premium', 'nft']],
    // "Order status values: processing, completed, partial, canceled, failed."
    ['order statuses', ORDER_STATUSES, ['processing', 'completed', 'partial', 'canceled', 'failed']],
    // rule 1: a dollar balance (USD) and a TON balance (TON)
    ['currencies', CURRENCIES, ['USD', 'TON']],
    // operator-api.md partner view: status inactive | active
    ['partner statuses', PARTNER_STATUSES, ['inactive', 'active']],
    // operator-api.md ledger items: kind
    ['ledger entry kinds', LEDGER_ENTRY_KINDS, ['topup', 'order_debit', 'order_refund', 'adjustment']],
    // operator-api.md invites: role owner | staff
    ['bot roles', BOT_ROLES, ['owner', 'staff']],
    // operator-api.md GET /deposits status filter (unmatched, credited, closed, ignored) plus pending
    // confirmation (docs/top-up-matching.md)
    ['deposit statuses', DEPOSIT_STATUSES, ['pending', 'unmatched', 'credited', 'closed', 'ignored']],
    ['top-up request statuses', TOPUP_REQUEST_STATUSES, ['open', 'credited', 'expired', 'canceled']],
  ] as const)('%s', (_name, list, expected) => {
    expect([...list].sort()).toEqual([...expected].sort());
    expect(new Set(list).size).toBe(list.length);
  });
});

describe('guards', () => {
  it.each([
    ['stars', true],
    ['premium', true],
    ['nft', true],
    ['Stars', false],
    ['STARS', false],
    [' stars', false],
    ['gift', false],
    ['game', false],
    ['', false],
    [null, false],
    [1, false],
    [['stars'], false],
  ])('isOrderType(%j) → %s', (v, ok) => {
    expect(isOrderType(v)).toBe(ok);
  });

  it.each([
    ['processing', true],
    ['completed', true],
    ['partial', true],
    ['canceled', true],
    ['failed', true],
    ['cancelled', false], // the contract spells it with one l
    ['refunded', false],
    ['review', false],
    ['Completed', false],
    [undefined, false],
  ])('isOrderStatus(%j) → %s', (v, ok) => {
    expect(isOrderStatus(v)).toBe(ok);
  });

  it.each([
    ['USD', true],
    ['TON', true],
    ['usd', false],
    ['Ton', false],
    ['USDT', false],
    ['EUR', false],
    ['', false],
    [null, false],
  ])('isCurrency(%j) → %s', (v, ok) => {
    expect(isCurrency(v)).toBe(ok);
  });
});
