import type { ComponentChildren } from 'preact';
import type { RecipientCheck } from '../api/client';
import type { RecipientState } from '../hooks/use-recipient-check';
import { errorText, t } from '../i18n';
import { ErrorNote, Row } from './ui';

/** Refusals of the recipient check that concern the amount, shown under the amount field instead. */
export const AMOUNT_CODES = new Set(['bad_quantity', 'bad_months']);

export const codeOf = (e: unknown): string => (typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '');

/** The recipient field with its live check (found, not found, already Premium, cannot receive gifts). */
export function RecipientInput(p: { value: string; onInput: (v: string) => void; state: RecipientState }) {
  const { check, error, busy } = p.state;
  let note = null;
  if (busy) note = <small class="muted">{t.checking}</small>;
  else if (error && AMOUNT_CODES.has(codeOf(error))) note = null;
  else if (error) note = <small class="bad" data-testid="recipient-state">{codeOf(error) === 'recipient_not_found' ? t.notFound : errorText(error)}</small>;
  else if (check) {
    const warn = check.recipient.already_premium ? t.alreadyPremium : check.recipient.can_receive_gifts === false ? t.cannotReceive : null;
    note = (
      <small class={warn ? 'warn' : 'good'} data-testid="recipient-state">
        {warn ?? `${t.found}: ${check.recipient.name ?? '@' + check.recipient.username}`}
      </small>
    );
  }
  return (
    <label class="field">
      <span>{t.recipient}</span>
      <input value={p.value} onInput={(e) => p.onInput(e.currentTarget.value)} placeholder={t.recipientHint} autocomplete="off" autocapitalize="off" spellcheck={false} data-testid="recipient" />
      {note}
    </label>
  );
}

export function PriceRows(p: { check: RecipientCheck | null }) {
  if (!p.check || p.check.price === null) return null;
  return (
    <>
      <Row label={t.price} value={<b data-testid="price">{`${p.check.price} ${p.check.currency}`}</b>} />
      <Row label={t.balanceAfter} value={<span class={p.check.enough ? '' : 'bad'}>{`${p.check.balance_after} ${p.check.currency}`}</span>} />
    </>
  );
}

/** Under a confirmation: "not enough balance", the refusal of the last attempt, the in-page button (outside Telegram). */
export function ConfirmFooter(p: { check: RecipientCheck | null; error: unknown; button: ComponentChildren }) {
  return (
    <>
      {p.check && p.check.enough === false && <p class="bad pad">{t.notEnough}</p>}
      <ErrorNote error={p.error} />
      {p.button}
    </>
  );
}
