import { api } from '../api/client';
import { OrderRows } from '../components/order-rows';
import { ErrorNote, Loading, Row, Section } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { t } from '../i18n';
import type { Nav } from '../nav';
import { haptic } from '../tg';

/** Both balances and the recent orders, refreshed every few seconds (live status). */
export function HomePage({ nav }: { nav: Nav }) {
  const bal = useLoad(() => api.balances(), [], 5000);
  const orders = useLoad(() => api.recentOrders(), [], 5000);
  const spend = useLoad(() => api.spend(), [], 30000);
  const owner = nav.session.user.role === 'owner';
  const quick = [
    { label: t.stars, go: () => nav.go({ page: 'order', product: 'stars' }), id: 'stars' },
    { label: t.premium, go: () => nav.go({ page: 'order', product: 'premium' }), id: 'premium' },
    { label: t.gift, go: () => nav.go({ page: 'order', product: 'nft' }), id: 'nft' },
    ...(owner ? [{ label: t.topup, go: () => nav.go({ page: 'topup' }), id: 'topup' }] : []),
  ];
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
      <div class="quick" data-testid="quick-actions">
        {quick.map((q) => (
          <button class="chip" onClick={() => (haptic('tap'), q.go())} data-testid={`quick-${q.id}`}>
            {q.label}
          </button>
        ))}
      </div>
      <Section title={t.spend7}>
        <div data-testid="spend-7d">
          {!spend.data ? (
            <Loading />
          ) : (
            (['USD', 'TON'] as const).map((c) => {
              const x = spend.data!.totals.find((s) => s.currency === c);
              return <Row label={c} value={<>{<b>{x ? x.net_spend : c === 'USD' ? '0.00' : '0.000'}</b>}<small class="muted block">{t.ordersN(x?.count ?? 0)}</small></>} testid={`spend-${c}`} />;
            })
          )}
        </div>
      </Section>
      {owner && (
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
