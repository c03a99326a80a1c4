import { useEffect, useState } from 'preact/hooks';
import { api, type DepositItem, type OperatorPartnerItem } from '../api/client';
import { Button, ErrorNote, Loading, Row, Section } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { useUnsavedInput } from '../hooks/use-unsaved-input';
import { t } from '../i18n';
import { fmtTime } from '../lib/format';
import type { Nav } from '../nav';
import { confirmDialog, haptic } from '../tg';

const STATUSES = ['unmatched', 'credited', 'closed', 'ignored'];

/** An unmatched transfer: credit it to a partner found by name, or close it with a note; each asks first. */
function DepositCard({ d, onDone }: { d: DepositItem; onDone: () => void }) {
  const c = t.console;
  const [mode, setMode] = useState<'' | 'credit' | 'close'>('');
  const [q, setQ] = useState('');
  const [found, setFound] = useState<OperatorPartnerItem[]>([]);
  const [note, setNote] = useState('');
  const [error, setError] = useState<unknown>(null);
  useUnsavedInput(note.trim() !== '' || q.trim() !== '');
  useEffect(() => {
    if (mode !== 'credit' || q.trim().length < 1) return setFound([]);
    const timer = setTimeout(() => api.partners({ q: q.trim(), limit: 5 }).then((r) => setFound(r.items), setError), 250);
    return () => clearTimeout(timer);
  }, [q, mode]);
  const run = async (question: string, body: Parameters<typeof api.resolveDeposit>[1]) => {
    if (!(await confirmDialog(question))) return;
    setError(null);
    try {
      await api.resolveDeposit(d.deposit_id, body);
      haptic('success');
      setNote('');
      setQ('');
      onDone();
    } catch (e) {
      haptic('error');
      setError(e);
    }
  };
  const amount = `${d.amount} ${d.asset}`;
  return (
    <div class="deposit" data-testid={`deposit-${d.deposit_id}`}>
      <Row
        label={
          <>
            <b>{amount}</b>
            <small class="muted block">
              {d.network} · {fmtTime(d.created_at)}
            </small>
          </>
        }
        value={<span class="badge">{c.dep[d.status] ?? d.status}</span>}
      />
      <Row label={c.tx} value={<small>{d.tx_hash}</small>} />
      {d.from && <Row label={c.from} value={<small>{d.from}</small>} />}
      {d.comment && <Row label={t.comment} value={<small>{d.comment}</small>} />}
      {d.partner_id !== null && <Row label={c.partner} value={`#${d.partner_id}`} />}
      {d.status === 'unmatched' && (
        <>
          {mode === 'credit' && (
            <div class="pad">
              <input type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} placeholder={c.pick} aria-label={c.pick} data-testid="credit-search" />
              {found.map((p) => (
                <Row
                  testid={`credit-to-${p.partner_id}`}
                  label={
                    <>
                      <b>{p.name}</b> <small class="muted">#{p.partner_id}</small>
                    </>
                  }
                  value={<span class="link">{c.credit}</span>}
                  onClick={() => run(c.creditConfirm(amount, p.name), { action: 'credit', partner_id: p.partner_id })}
                />
              ))}
            </div>
          )}
          {mode === 'close' && (
            <div class="pad">
              <label class="field">
                <span>{c.note}</span>
                <input value={note} onInput={(e) => setNote(e.currentTarget.value)} maxLength={1000} data-testid="close-note" />
              </label>
              <Button onClick={() => run(c.closeConfirm, { action: 'close', note: note.trim() })} disabled={!note.trim()} testid="close-confirm">
                {c.close}
              </Button>
            </div>
          )}
          <ErrorNote error={error} />
          <div class="actions">
            <Button kind={mode === 'credit' ? 'primary' : 'plain'} onClick={() => (haptic('tap'), setMode(mode === 'credit' ? '' : 'credit'))} testid="credit">
              {c.credit}
            </Button>
            <Button kind={mode === 'close' ? 'primary' : 'plain'} onClick={() => (haptic('tap'), setMode(mode === 'close' ? '' : 'close'))} testid="close">
              {c.close}
            </Button>
          </div>
        </>
      )}
    </div>
  );
}

/** Deposits by status (unmatched first): the transfers the matcher could not pin on a request. */
export function ConsoleDepositsPage(_: { nav: Nav }) {
  const [status, setStatus] = useState('unmatched');
  const list = useLoad(() => api.deposits(status), [status]);
  return (
    <>
      <div class="segmented wrap" role="tablist">
        {STATUSES.map((s) => (
          <button class={status === s ? 'on' : ''} onClick={() => setStatus(s)} role="tab" data-testid={`deposits-${s}`}>
            {t.console.dep[s]}
          </button>
        ))}
      </div>
      <Section title={t.console.deposits}>
        {!list.data ? (
          list.error ? <ErrorNote error={list.error} /> : <Loading />
        ) : list.data.items.length === 0 ? (
          <p class="muted pad">{t.console.none}</p>
        ) : (
          list.data.items.map((d) => <DepositCard key={d.deposit_id} d={d} onDone={list.reload} />)
        )}
      </Section>
    </>
  );
}
