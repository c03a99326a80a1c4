import { useState } from 'preact/hooks';
import { api, type Delivery } from '../api/client';
import { t } from '../i18n';
import { fmtTime } from '../lib/format';
import type { Nav } from '../nav';
import { Button, ErrorNote } from './ui';

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
      onChange(await api.redeliver(d.delivery_id));
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
