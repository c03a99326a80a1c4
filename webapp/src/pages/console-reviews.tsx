import { useState } from 'preact/hooks';
import { api, type ReviewItem } from '../api/client';
import { Button, ErrorNote, Loading, Row, Section } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { t, words } from '../i18n';
import { fmtTime } from '../lib/format';
import { orderTitle } from '../lib/order-title';
import type { Nav } from '../nav';
import { confirmDialog, haptic } from '../tg';

/** One order waiting for review: what the supplier reported (stage, since, the gift, the debit), deliver or refund behind a popup. */
function ReviewCard({ o, onDone }: { o: ReviewItem; onDone: () => void }) {
  const c = t.console;
  const [hash, setHash] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const act = async (outcome: 'delivered' | 'refunded') => {
    const q = outcome === 'delivered' ? c.deliverConfirm(o.order_id) : c.refundConfirm(o.order_id, `${o.partner_price} ${o.currency}`);
    if (busy || !(await confirmDialog(q))) return;
    setBusy(true);
    setError(null);
    try {
      await api.resolve(o.order_id, { outcome, ...(outcome === 'delivered' && hash.trim() ? { transfer_hash: hash.trim() } : {}) });
      haptic('success');
      onDone();
    } catch (e) {
      haptic('error');
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="review" data-testid={`review-${o.order_id}`}>
      <Row
        label={
          <>
            <b>{orderTitle(o)}</b>
            <small class="muted block">
              {c.partner} #{o.partner_id} · {o.partner_price} {o.currency} · {o.order_id}
            </small>
          </>
        }
        value={o.gift?.image ? <img src={o.gift.image} alt={o.gift.gift} width={48} height={48} style="border-radius:8px" /> : undefined}
      />
      <Row label={c.stage} value={<span data-testid="review-stage">{o.review ? `${o.review.stage} · ${c.since} ${fmtTime(o.review.since)}` : '—'}</span>} />
      {o.failure && <Row label={t.why} value={words.failureWhy({ type: o.type, status: o.status, failureReason: o.failure.reason })} />}
      {o.ledger.map((e) => (
        <Row label={<small class="muted">{`${t.kind[e.kind] ?? e.kind} · ${fmtTime(e.created_at)}`}</small>} value={<small>{`${e.amount} ${e.currency}`}</small>} />
      ))}
      {o.type === 'nft' && (
        <div class="pad">
          <label class="field">
            <span>{c.transferHash}</span>
            <input value={hash} onInput={(e) => setHash(e.currentTarget.value)} autocomplete="off" spellcheck={false} data-testid="transfer-hash" />
          </label>
        </div>
      )}
      <ErrorNote error={error} />
      <div class="actions">
        <Button onClick={() => act('delivered')} disabled={busy} testid="deliver">
          {c.deliver}
        </Button>
        <Button kind="plain" onClick={() => act('refunded')} disabled={busy} testid="refund">
          {c.refund}
        </Button>
      </div>
    </div>
  );
}

/** Orders waiting for manual review, oldest first as the operator API lists them. */
export function ConsoleReviewsPage(_: { nav: Nav }) {
  const list = useLoad(() => api.reviews(), [], 15000);
  if (!list.data) return list.error ? <ErrorNote error={list.error} /> : <Loading />;
  return (
    <Section title={t.console.reviews}>
      <div data-testid="reviews-list">
      {list.data.items.length === 0 ? <p class="muted pad">{t.console.none}</p> : list.data.items.map((o) => <ReviewCard key={o.order_id} o={o} onDone={list.reload} />)}
      </div>
    </Section>
  );
}
