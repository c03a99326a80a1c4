import { useState } from 'preact/hooks';
import { api, type ProductSwitch } from '../api/client';
import { ErrorNote, Loading, Row, Section } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { t } from '../i18n';
import type { Nav } from '../nav';
import { confirmDialog, haptic } from '../tg';

const NAME: Record<string, () => string> = { stars: () => t.stars, premium: () => t.premium, nft: () => t.gifts };

function figures(p: ProductSwitch, kind: 'costs' | 'prices') {
  const c = t.console;
  const lines = Object.entries(p[kind]).map(([k, v]) =>
    k === 'per_1000' ? `${v} USD ${c.per1000}` : k === 'fees_per_gift' ? `${v} TON ${c.fees}` : k === 'margin' ? `${c.marginWord} ${v}` : `${t.months(Number(k))}: ${v} USD`,
  );
  return lines.length ? lines.map((x) => <span class="block">{x}</span>) : '—';
}

/** Each product's switch with its current costs and partner prices; switching off asks first. */
export function ConsoleProductsPage(_: { nav: Nav }) {
  const c = t.console;
  const list = useLoad(() => api.operatorProducts(), []);
  const [error, setError] = useState<unknown>(null);
  const flip = async (p: ProductSwitch) => {
    if (p.enabled && !(await confirmDialog(c.offConfirm(NAME[p.product]())))) return list.reload();
    setError(null);
    try {
      await api.switchProduct(p.product, !p.enabled);
      haptic('success');
    } catch (e) {
      haptic('error');
      setError(e);
    }
    list.reload();
  };
  if (!list.data) return list.error ? <ErrorNote error={list.error} /> : <Loading />;
  return (
    <>
      <ErrorNote error={error} />
      {list.data.items.map((p) => (
        <Section title={NAME[p.product]()}>
          <Row
            label={<b>{p.enabled ? c.on : c.off}</b>}
            value={<input type="checkbox" class="toggle" role="switch" checked={p.enabled} aria-checked={p.enabled} onChange={() => flip(p)} data-testid={`switch-${p.product}`} aria-label={NAME[p.product]()} />}
          />
          <Row label={c.cost} value={<small>{figures(p, 'costs')}</small>} />
          <Row label={c.price} value={<small>{figures(p, 'prices')}</small>} />
        </Section>
      ))}
    </>
  );
}
