import { getOnce } from '../api';
import { t } from '../i18n';
import type { Nav } from '../main';
import { ErrorNote, Loading, Row, Section, Status, useLoad } from '../ui';

export function OrderRows(p: { items: any[]; nav: Nav }) {
  if (!p.items.length) return <p class="muted pad">{t.noOrders}</p>;
  return (
    <>
      {p.items.map((o) => (
        <Row
          key={o.order_id}
          testid={`order-${o.order_id}`}
          label={
            <>
              <b>{o.label}</b>
              <small class="muted block">
                {o.partner_price} {o.currency} · {o.order_id}
              </small>
            </>
          }
          value={<Status status={o.status} />}
          onClick={() => p.nav.go({ page: 'order-detail', id: o.order_id })}
        />
      ))}
    </>
  );
}

/** Both balances and the recent orders, refreshed every few seconds (live status). */
export function HomePage({ nav }: { nav: Nav }) {
  const bal = useLoad(() => getOnce('/balances'), [], 5000);
  const orders = useLoad(() => getOnce('/orders?limit=5'), [], 5000);
  return (
    <>
      <header class="hero">
        <small class="muted">{nav.session.partner.name}</small>
        <div class="balances" data-testid="balances">
          {bal.data ? (
            <>
              <div>
                <span class="big">{bal.data.balances.USD}</span> <span class="muted">USD</span>
              </div>
              <div>
                <span class="big">{bal.data.balances.TON}</span> <span class="muted">TON</span>
              </div>
            </>
          ) : (
            <Loading />
          )}
        </div>
        {nav.session.partner.status !== 'active' && <p class="warn">{t.inactive}</p>}
      </header>
      {nav.session.user.role === 'owner' && (
        <Section>
          <Row label={<>{t.ledger}<small class="muted block">{t.ledgerHint}</small></>} value={<span class="muted">›</span>} onClick={() => nav.go({ page: 'ledger' })} testid="open-ledger" />
        </Section>
      )}
      <Section title={t.recent}>
        <ErrorNote error={orders.error} />
        {orders.data ? <OrderRows items={orders.data.items} nav={nav} /> : <Loading />}
      </Section>
    </>
  );
}
