import { useState } from 'preact/hooks';
import { api, type LedgerEntry as Entry } from '../api/client';
import { Button, ErrorNote, Loading, Row, Section } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { t } from '../i18n';
import { fmtTime } from '../lib/format';
import type { Nav } from '../nav';

/** The ledger (owners): the partner API's GET /ledger, newest first, by currency, paged; an order's entry opens it. */
export function LedgerPage({ nav }: { nav: Nav }) {
  const [currency, setCurrency] = useState('');
  const [extra, setExtra] = useState<Entry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const q = () => ({ limit: 30, currency });
  const list = useLoad(async () => {
    const r = await api.ledger(q());
    setExtra([]);
    setCursor(r.next_cursor);
    return r;
  }, [currency]);
  const more = async () => {
    const r = await api.ledger({ ...q(), cursor });
    setExtra((x) => [...x, ...r.items]);
    setCursor(r.next_cursor);
  };
  const items: Entry[] = list.data ? [...list.data.items, ...extra] : [];
  return (
    <>
      <div class="segmented" role="tablist">
        {['', 'USD', 'TON'].map((c) => (
          <button class={currency === c ? 'on' : ''} onClick={() => setCurrency(c)} role="tab" data-testid={`ledger-${c || 'all'}`}>
            {c || t.all}
          </button>
        ))}
      </div>
      <Section title={t.ledger}>
        <ErrorNote error={list.error} />
        {!list.data ? (
          <Loading />
        ) : items.length === 0 ? (
          <p class="muted pad">{t.noEntries}</p>
        ) : (
          <div data-testid="ledger">
            {items.map((e) => (
              <Row
                key={e.entry_id}
                testid={`entry-${e.entry_id}`}
                onClick={e.order_id ? () => nav.go({ page: 'order-detail', id: e.order_id! }) : undefined}
                label={
                  <>
                    {t.kind[e.kind] ?? e.kind}
                    <small class="muted block">
                      {fmtTime(e.created_at)} · {e.order_id ?? e.topup_id ?? e.note}
                    </small>
                  </>
                }
                value={
                  <>
                    <b class={e.amount.startsWith('-') ? '' : 'good'}>
                      {e.amount.startsWith('-') ? e.amount.replace('-', '−') : `+${e.amount}`} {e.currency}
                    </b>
                    <small class="muted block">
                      {t.balanceAfterShort} {e.balance_after}
                    </small>
                  </>
                }
              />
            ))}
          </div>
        )}
      </Section>
      {cursor && (
        <Button kind="plain" onClick={more} testid="more-entries">
          {t.more}
        </Button>
      )}
    </>
  );
}
