import { useState } from 'preact/hooks';
import { api, type Order } from '../api/client';
import { OrderRows } from '../components/order-rows';
import { Button, ErrorNote, Loading, Section } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { t } from '../i18n';
import type { Nav } from '../nav';

const STATUSES = ['', 'processing', 'completed', 'failed', 'canceled'];
const TYPES = ['', 'stars', 'premium', 'nft'];

/** Orders with filters by status and type, paged. */
export function OrdersPage({ nav }: { nav: Nav }) {
  const [status, setStatus] = useState('');
  const [type, setType] = useState('');
  const [extra, setExtra] = useState<Order[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const q = () => ({ limit: 20, status, type });
  const list = useLoad(async () => {
    const r = await api.orders(q());
    setExtra([]);
    setCursor(r.next_cursor);
    return r;
  }, [status, type]);
  const more = async () => {
    const r = await api.orders({ ...q(), cursor });
    setExtra((x) => [...x, ...r.items]);
    setCursor(r.next_cursor);
  };
  return (
    <>
      <div class="filters">
        <select value={status} onChange={(e) => setStatus(e.currentTarget.value)} aria-label={t.status}>
          {STATUSES.map((s) => (
            <option value={s}>{s ? t.st[s] : `${t.status}: ${t.all}`}</option>
          ))}
        </select>
        <select value={type} onChange={(e) => setType(e.currentTarget.value)} aria-label={t.type}>
          {TYPES.map((s) => (
            <option value={s}>{s ? ({ stars: t.stars, premium: t.premium, nft: t.gifts } as Record<string, string>)[s] : `${t.type}: ${t.all}`}</option>
          ))}
        </select>
      </div>
      <Section>
        <ErrorNote error={list.error} />
        {list.data ? <OrderRows items={[...list.data.items, ...extra]} nav={nav} /> : <Loading />}
      </Section>
      {cursor && (
        <Button kind="plain" onClick={more}>
          {t.more}
        </Button>
      )}
    </>
  );
}
