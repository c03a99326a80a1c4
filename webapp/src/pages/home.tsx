import { api } from '../api/client';
import { OrderRows } from '../components/order-rows';
import { ErrorNote, Loading, Row, Section } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { t } from '../i18n';
import type { Nav } from '../nav';

/** Both balances and the recent orders, refreshed every few seconds (live status). */
export function HomePage({ nav }: { nav: Nav }) {
  const bal = useLoad(() => api.balances(), [], 5000);
  const orders = useLoad(() => api.recentOrders(), [], 5000);
  return (
    <>
      <header class="hero">
        <small class="muted">{nav.session.partner?.name}</small>
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
        {nav.session.partner?.status !== 'active' && <p class="warn">{t.inactive}</p>}
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
