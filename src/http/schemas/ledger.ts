import { z } from 'zod';
import { CURRENCIES, LEDGER_ENTRY_KINDS } from '../../domain/enums.js';
import { offsetTime, reg } from './fields.js';

/** GET /ledger. */

export const LedgerEntry = reg(
  'LedgerEntry',
  z.object({
    entry_id: z.number().int(),
    kind: z.enum(LEDGER_ENTRY_KINDS).meta({
      description: "topup: a credited deposit; order_debit: an order's price; order_refund: its return; adjustment: support's correction of a mistaken credit or debit, either sign, with its `note`",
    }),
    currency: z.enum(CURRENCIES),
    amount: z.string().regex(/^-?\d+\.\d{2,3}$/).meta({ description: 'signed: negative for a debit (2 decimals USD, 3 TON)', example: '-1.58' }),
    balance_after: z.string().regex(/^\d+\.\d{2,3}$/).meta({ description: 'the balance of `currency` right after this entry', example: '48.42' }),
    order_id: z.string().nullable().meta({ description: 'the order of a debit or refund' }),
    topup_id: z.string().nullable().meta({ description: 'the top-up of a credit' }),
    note: z.string().nullable().meta({ description: 'why support adjusted the balance (an adjustment only; null otherwise)' }),
    created_at: offsetTime,
  }),
  'One entry of the partner\'s ledger.',
);
export const LedgerList = reg(
  'LedgerList',
  z.object({ items: z.array(LedgerEntry), count: z.number().int(), next_cursor: z.string().nullable() }),
  'GET /ledger: newest first; pass next_cursor back as `cursor` for the next page (null on the last page).',
);
