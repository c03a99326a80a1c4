import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { CURRENCIES, LEDGER_ENTRY_KINDS } from '../../domain/enums.js';
import { partners } from './partners.js';

/**
 * Balances and the ledger: a balance changes only together with a ledger entry, in one transaction.
 *
 * What the database itself refuses (GET /ledger/check stays as the audit of a file whose guards were
 * bypassed). The row rules are the CHECK constraints below; the rules across rows are triggers written by
 * hand in drizzle/0023_money_guards.sql, which drizzle-kit does not know: a migration that rebuilds
 * `ledger_entries`, `accounts` or `orders` must create them again (test/store/money-guards.test.ts fails
 * without them).
 * - each entry continues its partner's and currency's chain: balance_after = the previous balance_after + amount;
 * - the entry moves the balance (accounts.balance is set by the insert trigger; any other write of it that
 *   disagrees with the last entry is refused, and an account with entries is never deleted);
 * - entries are never updated or deleted (a mistake is corrected by an `adjustment` entry);
 * - one debit and at most one refund per order (unique index), a refund equal to its order's debit, an
 *   order inserted only with its debit, `orders.refunded` set only with its refund entry and never unset;
 * - one credit per top-up (unique index), equal to the top-up row it names.
 */

export const accounts = sqliteTable(
  'accounts',
  {
    partnerId: integer('partner_id').notNull().references(() => partners.partnerId),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    balance: integer('balance').notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.currency] }), check('balance_not_negative', sql`${t.balance} >= 0`)],
);

export const ledgerEntries = sqliteTable(
  'ledger_entries',
  {
    entryId: integer('entry_id').primaryKey({ autoIncrement: true }),
    partnerId: integer('partner_id').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    amount: integer('amount').notNull(),
    kind: text('kind', { enum: LEDGER_ENTRY_KINDS }).notNull(),
    orderId: text('order_id'),
    topupId: text('topup_id'),
    balanceAfter: integer('balance_after').notNull(),
    createdAt: integer('created_at').notNull(),
    /** An adjustment's reason, written by the operator (shown to the partner); null for every other kind. */
    note: text('note'),
  },
  (t) => [
    index('ledger_partner').on(t.partnerId, t.currency, t.entryId),
    // one debit and one refund per order; also the index of an order's entries (`order_id = ?` implies the WHERE)
    uniqueIndex('ledger_order_kind').on(t.orderId, t.kind).where(sql`${t.orderId} is not null`),
    // one credit per top-up
    uniqueIndex('ledger_topup').on(t.topupId).where(sql`${t.topupId} is not null`),
    check('balance_after_not_negative', sql`${t.balanceAfter} >= 0`),
    check('ledger_currency', sql`${t.currency} in ('USD', 'TON')`),
    check(
      'ledger_entry_shape',
      sql`case ${t.kind}
        when 'order_debit' then ${t.amount} <= 0 and ${t.orderId} is not null and ${t.topupId} is null and ${t.note} is null
        when 'order_refund' then ${t.amount} >= 0 and ${t.orderId} is not null and ${t.topupId} is null and ${t.note} is null
        when 'topup' then ${t.amount} > 0 and ${t.topupId} is not null and ${t.orderId} is null and ${t.note} is null
        when 'adjustment' then ${t.amount} <> 0 and ${t.orderId} is null and ${t.topupId} is null and ${t.note} is not null and length(trim(${t.note})) > 0
        else 0 end`,
    ),
  ],
);
