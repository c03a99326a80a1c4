import { useState } from 'preact/hooks';
import { api, type Catalog } from '../api/client';
import { AMOUNT_CODES, codeOf, ConfirmFooter, PriceRows, RecipientInput } from '../components/recipient';
import { Section } from '../components/ui';
import { useConfirm } from '../hooks/use-confirm';
import { useLoad } from '../hooks/use-load';
import { useRecipientCheck } from '../hooks/use-recipient-check';
import { useUnsavedInput } from '../hooks/use-unsaved-input';
import { errorText, t } from '../i18n';
import type { Nav } from '../nav';
import { GiftsBrowser } from '../components/gifts-browser';

const PRESETS = [50, 100, 500, 1000, 5000];

function GoodsForm({ nav, type }: { nav: Nav; type: 'stars' | 'premium' }) {
  // the limits of the partner API's GET /products (STARS_MIN_PER_ORDER / STARS_MAX_PER_ORDER)
  const products = useLoad(() => api.products(), []);
  const limits = products.data && 'stars' in products.data ? (products.data as Catalog).stars : undefined;
  const [quantity, setQuantity] = useState(100);
  const [typed, setTyped] = useState('');
  const [months, setMonths] = useState(3);
  const [recipient, setRecipient] = useState('');
  useUnsavedInput(recipient.trim() !== '');
  const qty = typed ? Number(typed) : quantity;
  const params = type === 'stars' ? { quantity: qty } : { months };
  const checkBody = recipient.trim().length >= 4 ? { type, username: recipient.trim(), ...params } : null;
  const state = useRecipientCheck(checkBody);
  const ok = !!state.check && state.check.enough === true;
  const order = checkBody ? { type, params: { ...params, recipient: recipient.trim() } } : null;
  const { button, error } = useConfirm(nav, order, ok, state.check?.price ? t.confirmPay(`${state.check.price} ${state.check.currency}`) : t.confirm);
  const amountError = state.error && AMOUNT_CODES.has(codeOf(state.error)) ? state.error : null;
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
          <RecipientInput value={recipient} onInput={setRecipient} state={state} />
        </div>
        <PriceRows check={state.check} />
      </Section>
      <ConfirmFooter check={state.check} error={error} button={button} />
    </>
  );
}

/** `collection`: the gift grid opens filtered to it (the bot's "Open in the app"). */
export function OrderPage({ nav, product, collection }: { nav: Nav; product?: 'stars' | 'premium' | 'nft'; collection?: string }) {
  const [tab, setTab] = useState<'stars' | 'premium' | 'nft'>(product ?? 'nft');
  return (
    <>
      <div class="segmented" role="tablist">
        {(['nft', 'stars', 'premium'] as const).map((x) => (
          <button class={tab === x ? 'on' : ''} onClick={() => setTab(x)} role="tab" data-testid={`product-${x}`}>
            {x === 'nft' ? t.gifts : x === 'stars' ? t.stars : t.premium}
          </button>
        ))}
      </div>
      {tab === 'nft' ? <GiftsBrowser nav={nav} collection={collection} /> : <GoodsForm key={tab} nav={nav} type={tab} />}
    </>
  );
}
