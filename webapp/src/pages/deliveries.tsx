import { useState } from 'preact/hooks';
import { api } from '../api';
import { t } from '../i18n';
import type { Nav } from '../main';
import { Button, ErrorNote, fmtTime, Loading, Section, useLoad } from '../ui';

/** One delivery of the partner API's delivery log (GET /webhook-deliveries). */
export interface Delivery {
  delivery_id: string;
  event: string;
  order_id: string | null;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: { number: number; manual: boolean; sent_at: string; http_status: number | null; error: string | null; duration_ms: number | null }[];
  next_attempt_at: string | null;
  rejected_reason: string | null;
  last_error: string | null;
  created_at: string;
}

const BADGE = { delivered: 'completed', failed: 'failed', pending: 'processing' } as const;

/**
 * A delivery with every attempt (number, time, HTTP status or error, duration) and "send again"
 * (POST /webhook-deliveries/{id}/redeliver: the same webhook now, outside its schedule).
 */
export function DeliveryCard({ d, onChange, nav }: { d: Delivery; onChange: (d: Delivery) => void; nav?: Nav }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const again = async () => {
    setBusy(true);
    setError(null);
    try {
      onChange(await api<Delivery>('POST', `/webhook-deliveries/${d.delivery_id}/redeliver`, {}));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="delivery" data-testid={`delivery-${d.delivery_id}`}>
      <div class="row">
        <span class="label">
          <b>{d.event}</b>
          {nav && d.order_id && (
            <a class="block small" href="#" onClick={(e) => (e.preventDefault(), nav.go({ page: 'order-detail', id: d.order_id! }))}>
              {d.order_id}
            </a>
          )}
          <small class="muted block">{d.url}</small>
        </span>
        <span class="value">
          <span class={`badge ${BADGE[d.status]}`} data-testid="delivery-status">
            {t.dl[d.status] ?? d.status}
          </span>
        </span>
      </div>
      <ol class="attempts">
        {d.attempts.map((a) => (
          <li class={a.http_status !== null && a.http_status < 300 ? 'good' : 'bad'}>
            <span>
              #{a.number}
              {a.manual ? ` · ${t.manual}` : ''} · {a.http_status !== null ? `HTTP ${a.http_status}` : a.error}
              {a.duration_ms !== null && <span class="muted"> · {a.duration_ms} ms</span>}
            </span>
            <small class="muted">{fmtTime(a.sent_at)}</small>
          </li>
        ))}
        {d.attempts.length === 0 && d.rejected_reason && <li class="bad">{d.rejected_reason}</li>}
      </ol>
      {d.next_attempt_at && (
        <p class="muted small pad-x">
          {t.nextAttempt}: {fmtTime(d.next_attempt_at)}
        </p>
      )}
      <ErrorNote error={error} />
      <div class="pad-x">
        <Button kind="plain" onClick={again} disabled={busy} testid="redeliver">
          {t.sendAgain}
        </Button>
      </div>
    </div>
  );
}

/** The delivery log (owners): every event sent to the webhook, newest first, by status, paged. */
export function DeliveriesPage({ nav }: { nav: Nav }) {
  const [status, setStatus] = useState('');
  const [items, setItems] = useState<Delivery[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const q = () => `/webhook-deliveries?limit=20${status ? `&status=${status}` : ''}`;
  const list = useLoad(async () => {
    const r = await api('GET', q());
    setItems(r.items);
    setCursor(r.next_cursor);
    return r;
  }, [status]);
  const more = async () => {
    const r = await api('GET', `${q()}&cursor=${cursor}`);
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
