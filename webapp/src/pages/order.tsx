import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, newKey } from '../api';
import { errorText, t } from '../i18n';
import type { Nav } from '../main';
import { inTelegram, haptic, setMain } from '../tg';
import { Button, ErrorNote, Row, Section, useLoad } from '../ui';
import { GiftsBrowser } from './gifts';

const PRESETS = [50, 100, 500, 1000, 5000];

export interface Check {
  recipient: { username: string; name: string | null; already_premium?: boolean; can_receive_gifts?: boolean };
  price: string | null;
  currency: string;
  balance: string;
  balance_after: string | null;
  enough: boolean | null;
  available: boolean;
}

/** The recipient field with its live check (found, not found, already Premium, cannot receive gifts) and the price. */
export function useRecipientCheck(body: Record<string, unknown> | null) {
  const [check, setCheck] = useState<Check | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const key = JSON.stringify(body);
  useEffect(() => {
    setCheck(null);
    setError(null);
    if (!body) return;
    setBusy(true);
    let alive = true;
    const timer = setTimeout(() => {
      api<Check>('POST', '/recipient-check', body).then(
        (c) => alive && (setCheck(c), setBusy(false)),
        (e) => alive && (setError(e), setBusy(false)),
      );
    }, 350);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [key]);
  return { check, error, busy };
}

/** Refusals of the recipient check that concern the amount, shown under the amount field instead. */
export const AMOUNT_CODES = new Set(['bad_quantity', 'bad_months']);

export function RecipientInput(p: { value: string; onInput: (v: string) => void; state: ReturnType<typeof useRecipientCheck>; type: string }) {
  const { check, error, busy } = p.state;
  let note = null;
  if (busy) note = <small class="muted">{t.checking}</small>;
  else if (error && AMOUNT_CODES.has((error as { code?: string }).code ?? '')) note = null;
  else if (error) note = <small class="bad" data-testid="recipient-state">{(error as { code?: string }).code === 'recipient_not_found' ? t.notFound : errorText(error)}</small>;
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

export function PriceRows(p: { check: Check | null }) {
  if (!p.check || p.check.price === null) return null;
  return (
    <>
      <Row label={t.price} value={<b data-testid="price">{`${p.check.price} ${p.check.currency}`}</b>} />
      <Row label={t.balanceAfter} value={<span class={p.check.enough ? '' : 'bad'}>{`${p.check.balance_after} ${p.check.currency}`}</span>} />
    </>
  );
}

/**
 * The confirmation: one idempotency key per confirmation screen (a new key only when what is ordered
 * changes), so a double tap or a retry makes one order. In Telegram it is the main button.
 */
export function useConfirm(nav: Nav, body: Record<string, unknown> | null, ready: boolean, label: string) {
  const key = useMemo(() => newKey(), [JSON.stringify(body)]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const inFlight = useRef(false);
  const submit = async () => {
    if (!body || !ready || inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setError(null);
    try {
      const o = await api('POST', '/orders', { ...body, idempotency_key: key });
      haptic('success');
      nav.go({ page: 'order-detail', id: o.order_id });
    } catch (e) {
      haptic('error');
      setError(e);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };
  useEffect(() => {
    setMain(body ? { text: label, onClick: submit, busy, disabled: !ready } : null);
  }, [label, ready, busy, key]);
  useEffect(() => () => setMain(null), []);
  const button = inTelegram ? null : (
    <Button onClick={submit} disabled={!ready || busy} testid="confirm">
      {label}
    </Button>
  );
  return { button, error };
}

/** Under a confirmation: "not enough balance", the refusal of the last attempt, the in-page button (outside Telegram). */
export function ConfirmFooter(p: { check: Check | null; error: unknown; button: ComponentChildren }) {
  return (
    <>
      {p.check && p.check.enough === false && <p class="bad pad">{t.notEnough}</p>}
      <ErrorNote error={p.error} />
      {p.button}
    </>
  );
}

function GoodsForm({ nav, type }: { nav: Nav; type: 'stars' | 'premium' }) {
  // the limits of the partner API's GET /products (STARS_MIN_PER_ORDER / STARS_MAX_PER_ORDER)
  const products = useLoad(() => api('GET', '/products'), []);
  const limits = products.data?.stars as { min_per_order: number; max_per_order: number } | undefined;
  const [quantity, setQuantity] = useState(100);
  const [typed, setTyped] = useState('');
  const [months, setMonths] = useState(3);
  const [recipient, setRecipient] = useState('');
  const qty = typed ? Number(typed) : quantity;
  const params = type === 'stars' ? { quantity: qty } : { months };
  const checkBody = recipient.trim().length >= 4 ? { type, username: recipient.trim(), ...params } : null;
  const state = useRecipientCheck(checkBody);
  const ok = !!state.check && state.check.enough === true;
  const order = checkBody ? { type, params: { ...params, recipient: recipient.trim() } } : null;
  const { button, error } = useConfirm(nav, order, ok, state.check?.price ? t.confirmPay(`${state.check.price} ${state.check.currency}`) : t.confirm);
  const amountError = state.error && AMOUNT_CODES.has((state.error as { code?: string }).code ?? '') ? state.error : null;
  return (
    <>
      <Section>
        {type === 'stars' ? (
          <div class="pad">
            <span class="label">{t.amount}</span>
            <div class="chips">
              {PRESETS.map((n) => (
                <button class={!typed && quantity === n ? 'chip on' : 'chip'} onClick={() => (setTyped(''), setQuantity(n))}>
                  {n}
                </button>
              ))}
            </div>
            <input inputMode="numeric" value={typed} onInput={(e) => setTyped(e.currentTarget.value.replace(/\D/g, ''))} placeholder={limits ? t.limits(limits.min_per_order, limits.max_per_order) : ''} aria-label={t.amount} data-testid="stars-amount" />
            {amountError && (
              <small class="bad" data-testid="amount-error">
                {errorText(amountError)}
              </small>
            )}
          </div>
        ) : (
          <div class="pad chips">
            {[3, 6, 12].map((m) => (
              <button class={months === m ? 'chip on' : 'chip'} onClick={() => setMonths(m)} data-testid={`months-${m}`}>
                {t.months(m)}
              </button>
            ))}
          </div>
        )}
      </Section>
      <Section>
        <div class="pad">
          <RecipientInput value={recipient} onInput={setRecipient} state={state} type={type} />
        </div>
        <PriceRows check={state.check} />
      </Section>
      <ConfirmFooter check={state.check} error={error} button={button} />
    </>
  );
}

export function OrderPage({ nav }: { nav: Nav }) {
  const [tab, setTab] = useState<'stars' | 'premium' | 'nft'>('nft');
  return (
    <>
      <div class="segmented" role="tablist">
        {(['nft', 'stars', 'premium'] as const).map((x) => (
          <button class={tab === x ? 'on' : ''} onClick={() => setTab(x)} role="tab" data-testid={`product-${x}`}>
            {x === 'nft' ? t.gifts : x === 'stars' ? t.stars : t.premium}
          </button>
        ))}
      </div>
      {tab === 'nft' ? <GiftsBrowser nav={nav} /> : <GoodsForm key={tab} nav={nav} type={tab} />}
    </>
  );
}
