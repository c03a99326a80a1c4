import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { CURRENCIES, LEDGER_ENTRY_KINDS } from '../../domain/enums.js';
import { partners } from './partners.js';

/** Balances and the ledger: a balance changes only together with a ledger entry, in one transaction. */

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
  },
  (t) => [
    index('ledger_partner').on(t.partnerId, t.currency, t.entryId),
    index('ledger_order').on(t.orderId),
    check('balance_after_not_negative', sql`${t.balanceAfter} >= 0`),
  ],
);
