import { api } from '../api/client';
import { HourChart } from '../components/hour-chart';
import { ErrorNote, Loading, Row, Section } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { t } from '../i18n';
import { fmtHour } from '../lib/format';
import type { Nav } from '../nav';

const typeName = (x: string) => ({ stars: t.stars, premium: t.premium, nft: t.gifts })[x] ?? x;

/** The operator's first screen: liabilities against supplier funds with the coverage warning, what waits, the last 24 h. */
export function ConsoleOverviewPage({ nav }: { nav: Nav }) {
  const c = t.console;
  const o = useLoad(() => api.overview(), [], 15000);
  if (o.error) return <ErrorNote error={o.error} />;
  if (!o.data) return <Loading />;
  const d = o.data;
  const uncovered = d.coverage.filter((x) => !x.covered);
  const statuses = Object.entries(d.orders_24h.by_status);
  const types = Object.entries(d.orders_24h.by_type);
  return (
    <>
      {uncovered.map((x) => (
        <div class="banner" role="alert" data-testid="coverage-warning">
          {c.coverageWarn(c.supplier[x.supplier] ?? x.supplier, x.currency)}
        </div>
      ))}
      <div class="figures">
        <button class={`figure${d.reviews_waiting ? ' alert' : ''}`} onClick={() => nav.go({ page: 'op-reviews' })} data-testid="fig-reviews">
          <b>{d.reviews_waiting}</b>
          <small>{c.reviewsWaiting}</small>
        </button>
        <button class={`figure${d.deposits_unmatched ? ' alert' : ''}`} onClick={() => nav.go({ page: 'op-deposits' })} data-testid="fig-deposits">
          <b>{d.deposits_unmatched}</b>
          <small>{c.depositsUnmatched}</small>
        </button>
        <div class={`figure${d.webhooks_gave_up_24h ? ' alert' : ''}`} data-testid="fig-webhooks">
          <b>{d.webhooks_gave_up_24h}</b>
          <small>{c.webhooksGaveUp}</small>
        </div>
      </div>
      <Section title={c.liabilities}>
        <div class="balances pad" data-testid="liabilities">
          <div>
            <span class="big">{d.liabilities.USD}</span> <span class="muted">USD</span>
          </div>
          <div>
            <span class="big">{d.liabilities.TON}</span> <span class="muted">TON</span>
          </div>
        </div>
      </Section>
      <Section title={c.funds}>
        <div data-testid="supplier-funds">
        {d.supplier_funds.length === 0 && <p class="muted pad">{c.none}</p>}
        {d.supplier_funds.map((f) => (
          <Row label={<>{c.supplier[f.supplier] ?? f.supplier}<small class="muted block">{fmtHour(f.updated_at)}</small></>} value={<b>{`${f.amount} ${f.currency}`}</b>} />
        ))}
        </div>
      </Section>
      <Section title={c.coverage}>
        {d.coverage.map((x) => (
          <Row
            testid={`coverage-${x.supplier}-${x.currency}`}
            label={<>{c.supplier[x.supplier] ?? x.supplier}<small class="muted block">{`${x.funds} / ${x.liabilities} ${x.currency}`}</small></>}
            value={<span class={`badge ${x.covered ? 'completed' : 'failed'}`}>{x.covered ? c.covered : c.notCovered}</span>}
          />
        ))}
      </Section>
      <Section title={c.perHour}>
        <div class="pad">
          <HourChart data={d.orders_per_hour} label={c.perHour} fmtHour={fmtHour} />
        </div>
      </Section>
      <Section title={c.orders24}>
        {statuses.length === 0 ? (
          <p class="muted pad">{c.noOrders24}</p>
        ) : (
          <>
            <Row label={c.byStatus} value={<span data-testid="by-status">{statuses.map(([k, n]) => `${t.st[k] ?? k} ${n}`).join(' · ')}</span>} />
            <Row label={c.byType} value={<span data-testid="by-type">{types.map(([k, n]) => `${typeName(k)} ${n}`).join(' · ')}</span>} />
          </>
        )}
        <Row
          label={
            <>
              {c.margin}
              {d.margin_24h_without_cost > 0 && <small class="muted block" data-testid="margin-without-cost">{c.withoutCost(d.margin_24h_without_cost)}</small>}
            </>
          }
          value={<b data-testid="margin">{`${d.margin_24h.USD} USD · ${d.margin_24h.TON} TON`}</b>}
        />
      </Section>
    </>
  );
}
