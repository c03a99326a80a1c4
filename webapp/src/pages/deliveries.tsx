import { useState } from 'preact/hooks';
import { api, type Delivery } from '../api/client';
import { DeliveryCard } from '../components/delivery-card';
import { Button, ErrorNote, Loading, Section } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { t } from '../i18n';
import type { Nav } from '../nav';

/** The delivery log (owners): every event sent to the webhook, newest first, by status, paged. */
export function DeliveriesPage({ nav }: { nav: Nav }) {
  const [status, setStatus] = useState('');
  const [items, setItems] = useState<Delivery[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const q = () => ({ limit: 20, status });
  const list = useLoad(async () => {
    const r = await api.deliveries(q());
    setItems(r.items);
    setCursor(r.next_cursor);
    return r;
  }, [status]);
  const more = async () => {
    const r = await api.deliveries({ ...q(), cursor });
    setItems((x) => [...x, ...r.items]);
    setCursor(r.next_cursor);
  };
  const replace = (d: Delivery) => setItems((xs) => xs.map((x) => (x.delivery_id === d.delivery_id ? d : x)));
  return (
    <>
      <div class="segmented" role="tablist">
        {['', 'pending', 'delivered', 'failed'].map((s) => (
          <button class={status === s ? 'on' : ''} onClick={() => setStatus(s)} role="tab" data-testid={`deliveries-${s || 'all'}`}>
            {s ? t.dl[s] : t.all}
          </button>
        ))}
      </div>
      <Section title={t.deliveryLog}>
        <ErrorNote error={list.error} />
        {!list.data ? <Loading /> : items.length === 0 ? <p class="muted pad">{t.noDeliveries}</p> : items.map((d) => <DeliveryCard key={d.delivery_id} d={d} onChange={replace} nav={nav} />)}
      </Section>
      {cursor && (
        <Button kind="plain" onClick={more}>
          {t.more}
        </Button>
      )}
    </>
  );
}
