import { useState } from 'preact/hooks';
import { api } from '../api';
import { t, words } from '../i18n';
import type { Nav } from '../main';
import { Button, ErrorNote, fmtTime, Loading, Row, Section, Status, useLoad } from '../ui';
import { DeliveryCard, type Delivery } from './deliveries';
import { OrderRows } from './home';

/** The bot's clause ("the stars could not be delivered") as a sentence on its own. */
const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1) + '.';

const STATUSES = ['', 'processing', 'completed', 'failed', 'canceled'];
const TYPES = ['', 'stars', 'premium', 'nft'];

/** Orders with filters by status and type, paged. */
export function OrdersPage({ nav }: { nav: Nav }) {
  const [status, setStatus] = useState('');
  const [type, setType] = useState('');
  const [extra, setExtra] = useState<any[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const q = () => `/orders?limit=20${status ? `&status=${status}` : ''}${type ? `&type=${type}` : ''}`;
  const list = useLoad(async () => {
    const r = await api('GET', q());
    setExtra([]);
    setCursor(r.next_cursor);
    return r;
  }, [status, type]);
  const more = async () => {
    const r = await api('GET', `${q()}&cursor=${cursor}`);
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

/** One order: its view, the timeline (NFT stages), refund state; for owners its webhook deliveries. Live until it ends. */
export function OrderDetailPage({ nav, id }: { nav: Nav; id: string }) {
  const d = useLoad(() => api('GET', `/orders/${encodeURIComponent(id)}`), [id], 3000);
  if (d.error) return <ErrorNote error={d.error} />;
  if (!d.data) return <Loading />;
  const { order, timeline, refund, deliveries } = d.data;
  return (
    <>
      <header class="hero">
        {order.gift?.image && <img class="detail-img" src={order.gift.image} alt={order.gift.gift} />}
        <h1>{order.label}</h1>
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
          {timeline.map((x: any) => (
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
            deliveries.map((w: Delivery) => <DeliveryCard key={w.delivery_id} d={w} onChange={d.reload} />)
          )}
        </Section>
      )}
    </>
  );
}
