import { z } from 'zod';
import { CURRENCIES } from '../domain/enums.js';
import { ApiError, fail } from '../domain/errors.js';
import { InsufficientBalance } from '../domain/ledger-rules.js';
import { DECIMALS, formatAmount, parseAmount, type Currency } from '../domain/money.js';
import { audit } from '../store/audit-repo.js';
import { postEntry } from '../store/ledger-repo.js';
import type { Deps } from './deps.js';
import { entryView } from './ledger.js';
import { requirePartner } from './partners.js';
import { unitOfWork } from './unit-of-work.js';
import { parseOrFail } from './requests/parse.js';

/**
 * Support's correction of a mistaken credit or debit (operator-api.md POST /partners/{id}/adjustments):
 * one `adjustment` entry of a signed amount with the operator's note, never an edit of existing rows (the
 * database refuses those). The operator API, the console and the bot call this one service; each
 * adjustment is in the audit log with who made it.
 */

/** The longest note kept: it is shown to the partner in the ledger and its exports. */
export const ADJUSTMENT_NOTE_MAX = 500;

const adjustmentSchema = z
  .object({
    currency: z.enum(CURRENCIES, { error: 'must be USD or TON' }),
    amount: z.union([z.string(), z.number()], { error: 'must be a signed decimal string' }),
    note: z.string({ error: 'is required: say why the balance is corrected' }).trim().min(1, 'must not be empty').max(ADJUSTMENT_NOTE_MAX),
  })
  .strict();

export interface AdjustmentInput {
  currency: Currency;
  /** Signed minor units, never zero. */
  amount: number;
  note: string;
}

/** "-12.5" → -1250 (USD); null unless a signed decimal with at most the currency's places, not zero. */
export function parseSignedAmount(text: unknown, currency: Currency): number | null {
  if (typeof text !== 'string' && typeof text !== 'number') return null;
  const m = /^([+-]?)\s*(\S+)$/.exec(String(text).trim());
  if (!m) return null;
  const minor = parseAmount(m[2], currency);
  if (minor === null || minor === 0) return null;
  return m[1] === '-' ? -minor : minor;
}

/** A request body (the API's, the console's) as an adjustment; 400 validation_error or bad_amount. */
export function parseAdjustment(body: unknown): AdjustmentInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) fail('validation_error', 'The body must be a JSON object.');
  const input = parseOrFail(adjustmentSchema, body);
  const amount = parseSignedAmount(input.amount, input.currency);
  if (amount === null)
    fail('bad_amount', `amount must be a signed decimal with at most ${DECIMALS[input.currency]} places, not zero: "-10.00" takes money off, "10.00" gives it.`);
  return { currency: input.currency, amount, note: input.note };
}

/** What adjustBalance uses of the service. */
export type AdjustBalanceDeps = Pick<Deps, 'db' | 'log'>;

/**
 * Posts the adjustment and audits it (`ledger.adjust`, by `actor`); 201's body is the entry. An adjustment
 * that would take the balance below zero is 409 insufficient_balance with the balance it met.
 */
export function adjustBalance(deps: AdjustBalanceDeps & Pick<Deps, 'clock'>, partnerId: number, body: unknown, actor: string) {
  requirePartner(deps, partnerId);
  const a = parseAdjustment(body);
  return unitOfWork(deps, (tx) => {
    const now = deps.clock.now();
    let entry;
    try {
      entry = postEntry(tx, { partnerId, currency: a.currency, kind: 'adjustment', amount: a.amount, note: a.note, now });
    } catch (e) {
      if (!(e instanceof InsufficientBalance)) throw e;
      // the order path answers 402 for the same code (partner-api.md); an operator's correction is a conflict with the balance
      throw new ApiError('insufficient_balance', `The ${e.currency} balance is ${formatAmount(e.balance, e.currency)}: this adjustment would make it negative.`, { currency: e.currency, balance: formatAmount(e.balance, e.currency) }, {}, { status: 409 });
    }
    const view = entryView(entry);
    audit(tx, now, actor, 'ledger.adjust', String(partnerId), { entry_id: entry.entryId, currency: a.currency, amount: view.amount, balance_after: view.balance_after, note: a.note });
    return view;
  });
}
