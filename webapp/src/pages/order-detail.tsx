import { api } from '../api/client';
import { DeliveryCard } from '../components/delivery-card';
import { ErrorNote, Loading, Row, Section, Status } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { t, words } from '../i18n';
import { fmtTime } from '../lib/format';
import { labelLine, orderTitle } from '../lib/order-title';
import type { Nav } from '../nav';

/** The bot's clause ("the stars could not be delivered") as a sentence on its own. */
const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1) + '.';

/** One order: its view, the timeline (NFT stages), refund state; for owners its webhook deliveries. Live until it ends. */
export function OrderDetailPage({ nav, id }: { nav: Nav; id: string }) {
  const d = useLoad(() => api.order(id), [id], 3000);
  if (d.error) return <ErrorNote error={d.error} />;
  if (!d.data) return <Loading />;
  const { order, timeline, refund, deliveries } = d.data;
  return (
    <>
      <header class="hero">
        {order.gift?.image && <img class="detail-img" src={order.gift.image} alt={order.gift.gift} />}
        <h1 data-testid="order-title">{orderTitle(order)}</h1>
        {labelLine(order, orderTitle(order)) && <p class="muted" lang="ru" data-testid="order-label">{order.label}</p>}
        <div data-testid="order-status">
          <Status status={order.status} />
        </div>
      </header>
      <Section>
        <Row label={t.price} value={`${order.partner_price} ${order.currency}`} />
        <Row label={t.recipient} value={order.recipient} />
        <Row label={t.created} value={fmtTime(order.created_at)} />
        <Row label="ID" value={<small>{order.order_id}</small>} />
        {order.delivery?.nft_public_url && <Row label="NFT" value={<a href={order.delivery.nft_public_url} target="_blank" rel="noreferrer">{order.delivery.nft_public_url.replace('https://', '')}</a>} />}
        {(order.status === 'failed' || order.status === 'canceled') && (
          <Row label={t.why} value={<span data-testid="failure-why">{sentence(words.failureWhy({ type: order.type, status: order.status, failureReason: order.failure?.reason ?? null }))}</span>} />
        )}
        <Row label={t.refund} value={refund.refunded ? t.refunded : refund.in_review ? t.inReview : '—'} />
      </Section>
      <Section title={t.timeline}>
        <ol class="timeline" data-testid="timeline">
          {timeline.map((x) => (
            <li class={x.name === 'order.failed' ? 'failed' : x.state}>
              <span>{t.stage[x.name] ?? x.name}</span>
              <small class="muted">{x.at ? fmtTime(x.at) : t.stateName[x.state]}</small>
            </li>
          ))}
        </ol>
      </Section>
      {nav.session.user.role === 'owner' && deliveries && (
        <Section title={t.deliveries}>
          {deliveries.length === 0 ? (
            <p class="muted pad">{t.noDeliveries}</p>
          ) : (
            deliveries.map((w) => <DeliveryCard key={w.delivery_id} d={w} onChange={d.reload} />)
          )}
        </Section>
      )}
    </>
  );
}
