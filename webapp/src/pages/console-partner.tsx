import { useState } from 'preact/hooks';
import { api, ApiError } from '../api/client';
import { InviteCard } from '../components/invite-card';
import { Button, ErrorNote, Loading, Row, Section, Status } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { useUnsavedInput } from '../hooks/use-unsaved-input';
import { t, words } from '../i18n';
import { fmtTime } from '../lib/format';
import { orderTitle } from '../lib/order-title';
import type { Nav } from '../nav';
import { confirmDialog, downloadFile, haptic } from '../tg';
import { usePaged } from '../hooks/use-paged';

/**
 * Support's correction of a mistaken credit or debit: a signed amount and a note, asked once more before it
 * is posted (the operator API's adjustment: a ledger entry of its own, audited).
 */
function AdjustBalance({ id, onDone }: { id: number; onDone: () => void }) {
  const c = t.console;
  const [open, setOpen] = useState(false);
  const [currency, setCurrency] = useState<'USD' | 'TON'>('USD');
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useUnsavedInput(amount.trim() !== '' || note.trim() !== '');
  const submit = async () => {
    if (!(await confirmDialog(c.adjustConfirm(`${amount.trim()} ${currency}`)))) return;
    setBusy(true);
    setError(null);
    try {
      await api.adjust(id, { currency, amount: amount.trim(), note: note.trim() });
      haptic('success');
      setAmount('');
      setNote('');
      setOpen(false);
      onDone();
    } catch (e) {
      haptic('error');
      // the app's own words for insufficient_balance speak to a partner: an operator is told the balance
      setError(e instanceof ApiError && e.code === 'insufficient_balance' ? c.adjustNegative(currency, String(e.body.balance ?? '')) : e);
    } finally {
      setBusy(false);
    }
  };
  if (!open)
    return (
      <div class="actions">
        <Button kind="plain" onClick={() => (haptic('tap'), setOpen(true))} testid="adjust">
          {c.adjust}
        </Button>
      </div>
    );
  return (
    <Section title={c.adjust}>
      <div class="pad" data-testid="adjust-form">
        <p class="muted">{c.adjustHint}</p>
        <div class="segmented" role="tablist">
          {(['USD', 'TON'] as const).map((cur) => (
            <button class={currency === cur ? 'on' : ''} onClick={() => setCurrency(cur)} role="tab" data-testid={`adjust-${cur}`}>
              {cur}
            </button>
          ))}
        </div>
        <label class="field">
          <span>{c.adjustAmount}</span>
          <input value={amount} onInput={(e) => setAmount(e.currentTarget.value)} placeholder="-10.00" data-testid="adjust-amount" />
        </label>
        <label class="field">
          <span>{c.note}</span>
          <input value={note} onInput={(e) => setNote(e.currentTarget.value)} maxLength={500} data-testid="adjust-note" />
        </label>
        {typeof error === 'string' ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : (
          <ErrorNote error={error} />
        )}
        <div class="actions">
          <Button onClick={submit} disabled={busy || !amount.trim() || !note.trim()} testid="adjust-confirm">
            {c.adjustSave}
          </Button>
          <Button kind="plain" onClick={() => setOpen(false)}>
            {c.cancel}
          </Button>
        </div>
      </div>
    </Section>
  );
}

/** One partner in the console: balances, status, key and webhook, invites, its orders and ledger (paged), CSV exports. */
export function ConsolePartnerPage({ id }: { nav: Nav; id: number }) {
  const c = t.console;
  // bumped by an adjustment: the balances and the ledger are read again
  const [version, setVersion] = useState(0);
  const v = useLoad(() => api.partner(id), [id, version]);
  const orders = usePaged((cursor) => api.partnerOrders(id, { limit: 10, cursor }), [id]);
  const ledger = usePaged((cursor) => api.partnerLedger(id, { limit: 10, cursor }), [id, version]);
  const [exporting, setExporting] = useState<string | null>(null);
  const [exportError, setExportError] = useState<unknown>(null);
  const export_ = async (what: 'orders' | 'ledger') => {
    setExportError(null);
    setExporting(what);
    try {
      const link = await api.exportLink(id, what);
      await downloadFile(link.url, link.filename);
      haptic('success');
    } catch (e) {
      haptic('error');
      setExportError(e);
    } finally {
      setExporting(null);
    }
  };
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
      <AdjustBalance id={id} onDone={() => setVersion((n) => n + 1)} />
      {invite && <InviteCard title={`${words.role[invite.role] ?? invite.role}: ${t.inviteLink}`} link={invite.link} />}
      <Section title={c.orders}>
        <div data-testid="partner-orders">
          {!orders.items ? (
            <Loading />
          ) : orders.items.length === 0 ? (
            <p class="muted pad">{t.noOrders}</p>
          ) : (
            orders.items.map((o) => (
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
        </div>
      </Section>
      {orders.more && (
        <Button kind="plain" onClick={orders.more} testid="more-orders">
          {t.more}
        </Button>
      )}
      <Section title={c.ledger}>
        <div data-testid="partner-ledger">
          {!ledger.items ? (
            <Loading />
          ) : ledger.items.length === 0 ? (
            <p class="muted pad">{t.noEntries}</p>
          ) : (
            ledger.items.map((e) => (
              <Row
                label={
                  <>
                    {t.kind[e.kind] ?? e.kind}
                    <small class="muted block">
                      {fmtTime(e.created_at)}
                      {e.note ? ` · ${e.note}` : ''}
                    </small>
                  </>
                }
                value={<b>{`${e.amount} ${e.currency}`}</b>}
              />
            ))
          )}
        </div>
      </Section>
      {ledger.more && (
        <Button kind="plain" onClick={ledger.more} testid="more-ledger">
          {t.more}
        </Button>
      )}
      <Section title={c.exports}>
        <p class="muted pad">{c.exportsHint}</p>
        <div class="actions pad">
          <Button kind="plain" onClick={() => export_('orders')} disabled={exporting !== null} testid="export-orders">
            {c.exportOrders}
          </Button>
          <Button kind="plain" onClick={() => export_('ledger')} disabled={exporting !== null} testid="export-ledger">
            {c.exportLedger}
          </Button>
        </div>
      </Section>
      <ErrorNote error={exportError} />
    </>
  );
}
