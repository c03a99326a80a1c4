import { useEffect, useState } from 'preact/hooks';
import { api, type OperatorPartnerItem } from '../api/client';
import { InviteCard } from '../components/invite-card';
import { Button, ErrorNote, Loading, Row, Section } from '../components/ui';
import { t } from '../i18n';
import type { Nav } from '../nav';
import { useUnsavedInput } from '../hooks/use-unsaved-input';
import { haptic } from '../tg';

export function PartnerRow(p: { x: OperatorPartnerItem; onClick: () => void }) {
  const { x } = p;
  return (
    <Row
      testid={`partner-${x.partner_id}`}
      onClick={p.onClick}
      label={
        <>
          <b>{x.name}</b>
          <small class="muted block">
            #{x.partner_id} · {x.status === 'active' ? '✓' : '○'} {x.status}
          </small>
        </>
      }
      value={
        <small>
          {x.balances.USD} USD
          <span class="block">{x.balances.TON} TON</span>
        </small>
      }
    />
  );
}

/** Partners: search (by name or id), newest first, paged; create one and hand its owner the invite (link, QR, copy). */
export function ConsolePartnersPage({ nav }: { nav: Nav }) {
  const c = t.console;
  const [q, setQ] = useState('');
  const [items, setItems] = useState<OperatorPartnerItem[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ name: string; link: string } | null>(null);
  const [busy, setBusy] = useState(false);
  useUnsavedInput(name.trim() !== '');
  const load = (more: boolean) =>
    api.partners({ q: q.trim(), cursor: more ? cursor : undefined }).then(
      (r) => (setItems((xs) => (more && xs ? [...xs, ...r.items] : r.items)), setCursor(r.next_cursor), setError(null)),
      setError,
    );
  useEffect(() => {
    const timer = setTimeout(() => load(false), 250);
    return () => clearTimeout(timer);
  }, [q]);
  const create = async () => {
    if (busy || !name.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const r = await api.createPartner(name.trim());
      setCreated({ name: r.name, link: r.invite.link });
      setName('');
      haptic('success');
      load(false);
    } catch (e) {
      haptic('error');
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Section title={c.newPartner}>
        <div class="pad">
          <label class="field">
            <span>{c.name}</span>
            <input value={name} onInput={(e) => setName(e.currentTarget.value)} maxLength={200} data-testid="new-partner-name" />
          </label>
          <Button onClick={create} disabled={busy || !name.trim()} testid="create-partner">
            {c.create}
          </Button>
        </div>
      </Section>
      {created && <InviteCard title={`${created.name}: ${c.ownerInvite}`} link={created.link} />}
      <ErrorNote error={error} />
      <input type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} placeholder={c.search} aria-label={c.search} data-testid="partner-search" />
      <Section title={c.partners}>
        {!items ? <Loading /> : items.length === 0 ? <p class="muted pad">{c.none}</p> : items.map((x) => <PartnerRow x={x} onClick={() => nav.go({ page: 'op-partner', id: x.partner_id })} />)}
      </Section>
      {cursor && (
        <Button kind="plain" onClick={() => load(true)} testid="more-partners">
          {t.more}
        </Button>
      )}
    </>
  );
}
