import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { InviteCard } from '../components/invite-card';
import { Button, ErrorNote, Loading, Row, Section, Status } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { t, words } from '../i18n';
import { fmtTime } from '../lib/format';
import { orderTitle } from '../lib/order-title';
import type { Nav } from '../nav';
import { haptic } from '../tg';

/** One partner in the console: balances, status, key and webhook, invites, recent orders and ledger. */
export function ConsolePartnerPage({ id }: { nav: Nav; id: number }) {
  const c = t.console;
  const v = useLoad(() => api.partner(id), [id]);
  const orders = useLoad(() => api.partnerOrders(id, { limit: 10 }), [id]);
  const ledger = useLoad(() => api.partnerLedger(id, { limit: 10 }), [id]);
  const [invite, setInvite] = useState<{ role: string; link: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const invite_ = async (role: 'owner' | 'staff') => {
    setError(null);
    try {
      setInvite({ role, link: (await api.partnerInvite(id, role)).link });
      haptic('success');
    } catch (e) {
      setError(e);
    }
  };
  if (v.error) return <ErrorNote error={v.error} />;
  if (!v.data) return <Loading />;
  const p = v.data;
  const key = p.keys.find((k) => k.revoked_at === null);
  return (
    <>
      <header class="hero">
        <h1 data-testid="partner-name">{p.name}</h1>
        <small class="muted">
          #{p.partner_id} · {p.status}
        </small>
        <div class="balances">
          <div>
            <span class="big">{p.balances.USD}</span> <span class="muted">USD</span>
          </div>
          <div>
            <span class="big">{p.balances.TON}</span> <span class="muted">TON</span>
          </div>
        </div>
      </header>
      <Section>
        <Row label={c.keys} value={<small>{key ? `${key.prefix}… · ${fmtTime(key.created_at)}` : t.noKey}</small>} />
        <Row label={c.webhookUrl} value={<small>{p.webhook.url || '—'}</small>} />
      </Section>
      <div class="actions">
        <Button onClick={() => invite_('owner')} testid="invite-owner">
          {t.inviteOwner}
        </Button>
        <Button kind="plain" onClick={() => invite_('staff')} testid="invite-staff">
          {t.inviteStaff}
        </Button>
      </div>
      <ErrorNote error={error} />
      {invite && <InviteCard title={`${words.role[invite.role] ?? invite.role}: ${t.inviteLink}`} link={invite.link} />}
      <Section title={c.orders}>
        {!orders.data ? (
          <Loading />
        ) : orders.data.items.length === 0 ? (
          <p class="muted pad">{t.noOrders}</p>
        ) : (
          orders.data.items.map((o) => (
            <Row
              label={
                <>
                  <b>{orderTitle(o)}</b>
                  <small class="muted block">
                    {o.partner_price} {o.currency} · {fmtTime(o.created_at)}
                  </small>
                </>
              }
              value={<Status status={o.status} />}
            />
          ))
        )}
      </Section>
      <Section title={c.ledger}>
        {!ledger.data ? (
          <Loading />
        ) : (
          ledger.data.items.map((e) => (
            <Row
              label={
                <>
                  {t.kind[e.kind] ?? e.kind}
                  <small class="muted block">{fmtTime(e.created_at)}</small>
                </>
              }
              value={<b>{`${e.amount} ${e.currency}`}</b>}
            />
          ))
        )}
      </Section>
    </>
  );
}
