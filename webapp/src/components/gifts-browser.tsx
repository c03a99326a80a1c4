import { useEffect, useState } from 'preact/hooks';
import { api, type MarketGift as Gift } from '../api/client';
import { ConfirmFooter, PriceRows, RecipientInput } from './recipient';
import { Button, ErrorNote, Loading, Row, Section } from './ui';
import { useConfirm } from '../hooks/use-confirm';
import { useLoad } from '../hooks/use-load';
import { useRecipientCheck } from '../hooks/use-recipient-check';
import { useUnsavedInput } from '../hooks/use-unsaved-input';
import { t } from '../i18n';
import { maxPriceOf } from '../lib/format';
import type { Nav } from '../nav';
import { inTelegram, setBack } from '../tg';

const TOLERANCES = [0, 1, 3, 5, 10];

function Select(p: { label: string; value: string; options: { value: string; text: string }[]; onChange: (v: string) => void; testid: string }) {
  return (
    <label class="field compact">
      <span>{p.label}</span>
      <select value={p.value} onChange={(e) => p.onChange(e.currentTarget.value)} data-testid={p.testid}>
        <option value="">{t.any}</option>
        {p.options.map((o) => (
          <option value={o.value}>{o.text}</option>
        ))}
      </select>
    </label>
  );
}

/**
 * The gift market as a picture grid: filters by collection, model, backdrop, symbol; sort; number search;
 * paging. `collection`: the collection it opens at (still changeable in its filter).
 */
export function GiftsBrowser({ nav, collection }: { nav: Nav; collection?: string }) {
  const [f, setF] = useState({ collection: collection ?? '', model: '', backdrop: '', symbol: '', sort: 'price_asc', number: '' });
  const [items, setItems] = useState<Gift[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [chosen, setChosen] = useState<Gift | null>(null);
  const facets = useLoad(() => api.giftFilters(f.collection), [f.collection]);
  const query = () => ({ limit: 24, sort: f.sort, collection: f.collection, model: f.model, backdrop: f.backdrop, symbol: f.symbol, number: f.number });
  useEffect(() => {
    let alive = true;
    const timer = setTimeout(() => {
      api.gifts(query()).then(
        (r) => alive && (setItems(r.items), setCursor(r.next_cursor), setTotal(r.total), setError(null)),
        (e) => alive && setError(e),
      );
    }, 150);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [JSON.stringify(f)]);
  const more = async () => {
    const r = await api.gifts({ ...query(), cursor });
    setItems((x) => [...x, ...r.items]);
    setCursor(r.next_cursor);
  };
  const set = (k: keyof typeof f) => (v: string) => setF((x) => ({ ...x, [k]: v, ...(k === 'collection' ? { model: '', backdrop: '', symbol: '' } : {}) }));

  if (chosen) return <GiftDetail nav={nav} gift={chosen} onBack={() => setChosen(null)} />;
  const fc = facets.data;
  const opts = (xs: string[] | undefined) => (xs ?? []).map((x) => ({ value: x, text: x }));
  return (
    <>
      <div class="filters grid-filters">
        <Select label={t.collection} value={f.collection} options={(fc?.collections ?? []).map((c) => ({ value: c.collection, text: c.name }))} onChange={set('collection')} testid="f-collection" />
        <Select label={t.model} value={f.model} options={opts(fc?.models)} onChange={set('model')} testid="f-model" />
        <Select label={t.backdrop} value={f.backdrop} options={opts(fc?.backdrops)} onChange={set('backdrop')} testid="f-backdrop" />
        <Select label={t.symbol} value={f.symbol} options={opts(fc?.symbols)} onChange={set('symbol')} testid="f-symbol" />
        <label class="field compact">
          <span>{t.sort}</span>
          <select value={f.sort} onChange={(e) => set('sort')(e.currentTarget.value)} data-testid="f-sort">
            <option value="price_asc">{t.cheapFirst}</option>
            <option value="price_desc">{t.expensiveFirst}</option>
          </select>
        </label>
        <label class="field compact">
          <span>{t.number}</span>
          <input inputMode="numeric" value={f.number} onInput={(e) => set('number')(e.currentTarget.value.replace(/\D/g, ''))} placeholder="#" data-testid="f-number" />
        </label>
      </div>
      <ErrorNote error={error} />
      {total !== null && <p class="muted count" data-testid="gift-total">{t.found_n(total)}</p>}
      <div class="grid" data-testid="gift-grid">
        {items.map((g) => (
          <button class="tile" onClick={() => setChosen(g)} data-testid={`gift-${g.gift}`}>
            <img src={g.image} alt={`${g.name} #${g.num}`} loading="lazy" width={200} height={200} />
            <span class="tile-name">{g.name}</span>
            <span class="tile-num muted">#{g.num}</span>
            <span class="tile-price">{g.partner_price} TON</span>
          </button>
        ))}
      </div>
      {total === null && !error && <Loading />}
      {cursor && (
        <Button kind="plain" onClick={more} testid="more-gifts">
          {t.more}
        </Button>
      )}
    </>
  );
}

function GiftDetail({ nav, gift, onBack }: { nav: Nav; gift: Gift; onBack: () => void }) {
  const [recipient, setRecipient] = useState('');
  useUnsavedInput(recipient.trim() !== '');
  const [tolerance, setTolerance] = useState(0);
  const checkBody = recipient.trim().length >= 4 ? { type: 'nft', username: recipient.trim(), gift: gift.gift } : null;
  const state = useRecipientCheck(checkBody);
  const price = state.check?.price ?? gift.partner_price;
  const maxPrice = maxPriceOf(price, tolerance);
  const ok = !!state.check && state.check.enough === true && state.check.available && state.check.recipient.can_receive_gifts !== false;
  const order = checkBody ? { type: 'nft', params: { gift: gift.gift, recipient: recipient.trim(), max_price: maxPrice } } : null;
  const { button, error } = useConfirm(nav, order, ok, `${t.buy} · ${price} TON`);
  // Telegram's back button closes the detail view; then the page stack has it again
  useEffect(() => {
    setBack(onBack);
    return () => nav.restoreBack();
  }, []);
  return (
    <>
      {!inTelegram && (
        <Button kind="plain" onClick={onBack}>
          ← {t.back}
        </Button>
      )}
      <header class="hero">
        <img class="detail-img" src={gift.image} alt={gift.gift} />
        <h1 data-testid="gift-title">
          {gift.name} #{gift.num}
        </h1>
      </header>
      <Section title={t.attributes}>
        <Row label={t.model} value={gift.attributes.model} />
        <Row label={t.backdrop} value={gift.attributes.backdrop} />
        <Row label={t.symbol} value={gift.attributes.symbol} />
        <Row label={t.price} value={`${price} TON ≈ ${gift.price_usd_ref} USD`} />
      </Section>
      <Section>
        <div class="pad">
          <RecipientInput value={recipient} onInput={setRecipient} state={state} />
          <label class="field">
            <span>{t.tolerance}</span>
            <select value={String(tolerance)} onChange={(e) => setTolerance(Number(e.currentTarget.value))} data-testid="tolerance">
              {TOLERANCES.map((x) => (
                <option value={String(x)}>{x === 0 ? '0 %' : `+${x} %`}</option>
              ))}
            </select>
          </label>
        </div>
        <Row label={t.maxPrice} value={<span data-testid="max-price">{maxPrice} TON</span>} />
        <PriceRows check={state.check} />
      </Section>
      <ConfirmFooter check={state.check} error={error} button={button} />
    </>
  );
}
