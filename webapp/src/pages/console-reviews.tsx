import { useState } from 'preact/hooks';
import { api, type ReviewItem } from '../api/client';
import type { ReviewEvidence } from '../../../src/http/app-api/types';
import { Button, ErrorNote, Loading, Row, Section } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { t, words } from '../i18n';
import { fmtTime } from '../lib/format';
import { orderTitle } from '../lib/order-title';
import type { Nav } from '../nav';
import { confirmDialog, haptic } from '../tg';

const Mono = ({ v, testid }: { v: string; testid?: string }) => (
  <code class="mono" data-testid={testid}>
    {v}
  </code>
);

/**
 * What the supplier side recorded for the order: the gift purchase (form, cap, receipt, answer), the Fragment
 * payment (amount, reference, transaction, answer), the cost fixed for the order, the market's transfer record.
 */
function Evidence({ e, onHash }: { e: ReviewEvidence; onHash?: (h: string) => void }) {
  const c = t.console;
  const gp = e.gift_purchase;
  const fp = e.fragment_payment;
  const tr = e.transfer;
  if (!gp && !fp && !e.cost_ton && !tr) return null;
  return (
    <div class="evidence" data-testid="evidence">
      <h3>{c.evidence}</h3>
      {gp && (
        <>
          <Row label={c.purchase} value={<span data-testid="ev-purchase">{c.pstate[gp.state] ?? gp.state}</span>} />
          <Row label={<small class="muted">{c.cap}</small>} value={<small>{gp.cap_ton} TON</small>} />
          {gp.form && <Row label={<small class="muted">{c.form}</small>} value={<small>{gp.form.amount_ton ? `${gp.form.amount_ton} TON` : `${gp.form.amount} ${gp.form.currency}`}</small>} />}
          {gp.receipt && <Row label={<small class="muted">{c.receipt}</small>} value={<Mono v={gp.receipt} testid="ev-receipt" />} />}
          {gp.supplier_answer && <Row label={<small class="muted">{c.answer}</small>} value={<small data-testid="ev-answer">{gp.supplier_answer}</small>} />}
          <Row label={<small class="muted">{c.attempts}</small>} value={<small>{gp.attempts}</small>} />
        </>
      )}
      {fp && (
        <>
          <Row label={c.payment} value={<span data-testid="ev-payment">{`${c.pstate[fp.state] ?? fp.state} · ${fp.amount_ton} TON`}</span>} />
          {fp.ref && <Row label={<small class="muted">{c.paymentRef}</small>} value={<Mono v={fp.ref} />} />}
          {fp.tx_hash && <Row label={<small class="muted">{c.tx}</small>} value={<Mono v={fp.tx_hash} testid="ev-tx" />} />}
          {fp.supplier_answer && <Row label={<small class="muted">{c.answer}</small>} value={<small data-testid="ev-answer">{fp.supplier_answer}</small>} />}
        </>
      )}
      {e.cost_ton && <Row label={<small class="muted">{c.costFixed}</small>} value={<small>{e.cost_ton} TON</small>} />}
      {tr && (
        <Row
          label={c.transfer}
          value={
            tr.status === 'sent' ? (
              <span class="stack">
                <Mono v={tr.transfer_hash} testid="ev-transfer" />
                {onHash && (
                  <button class="link" onClick={() => onHash(tr.transfer_hash)} data-testid="use-hash">
                    {c.useHash}
                  </button>
                )}
              </span>
            ) : (
              <small data-testid="ev-transfer">{c.transferState[tr.status]}</small>
            )
          }
        />
      )}
    </div>
  );
}

/** One order waiting for review: what the supplier reported (stage, since, the gift, the debit, its evidence), deliver or refund behind a popup. */
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
      <Evidence e={o.evidence} onHash={o.type === 'nft' ? (h) => (setHash(h), haptic('tap')) : undefined} />
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
