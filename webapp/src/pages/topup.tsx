import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { OpenTopupRequestsAnswer, TopupRequestAnswer } from '../../../src/http/app-api/types';
import { Button, Copy, ErrorNote, Loading, Qr, Row, Section } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { t, words } from '../i18n';
import { fmtTime, tonTransferLink } from '../lib/format';
import type { Nav } from '../nav';
import { confirmDialog, haptic } from '../tg';

/** A network's name as the bot writes it (src/presentation/words.ts): "USDT (TRC-20, TRON network)". */
const networkName = (currency: string, network: string) => words.assetLabel(currency === 'TON' ? 'TON' : 'USDT', network);
const assetOf = (currency: string) => (currency === 'USD' ? 'USDT' : 'TON');
const SHORT_NETWORK: Record<string, string> = { ton: 'TON', trc20: 'TRC-20', bep20: 'BEP-20' };
/** A list row's networks, short: "USDT: TON, TRC-20, BEP-20" (the request's own view names each in full). */
const networksOf = (q: TopupRequestAnswer) =>
  q.currency === 'TON' ? networkName('TON', 'ton') : `USDT: ${q.addresses.map((a) => SHORT_NETWORK[a.network] ?? a.network).join(', ')}`;

/** Asks first, then cancels: the request stops taking payment and frees its place at once. */
async function cancelAsked(q: TopupRequestAnswer): Promise<TopupRequestAnswer | null> {
  if (!(await confirmDialog(t.cancelConfirm(`${q.amount_to_send} ${assetOf(q.currency)}`)))) return null;
  const r = await api.cancelTopupRequest(q.request_id);
  haptic('success');
  return r;
}

/**
 * One request: what to send, where, and its state, polled until it is paid, expired or canceled. A USDT
 * request holds every network's address: the network chosen when it was made is shown, else (shown again)
 * the owner picks it here, since a payment sent on another network than the address's is lost.
 */
function RequestView({ id, network: chosenAtStart, onBack }: { id: string; network: string | null; onBack: () => void }) {
  const r = useLoad(() => api.topupRequest(id), [id], 4000);
  const [network, setNetwork] = useState<string | null>(chosenAtStart);
  const [canceled, setCanceled] = useState<TopupRequestAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const q = canceled ?? r.data;
  if (!q) return r.error ? <ErrorNote error={r.error} /> : <Loading />;
  const shown = network ?? (q.addresses.length === 1 ? q.addresses[0].network : null);
  const addr = q.addresses.find((a) => a.network === shown);
  const link = q.currency === 'TON' && addr ? tonTransferLink(addr.address, q.amount_to_send, q.comment_code) : null;
  const cancel = async () => {
    setError(null);
    try {
      const done = await cancelAsked(q);
      if (done) setCanceled(done);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <Section>
        <Row label={t.status} value={<b data-testid="request-status" class={q.status === 'paid' ? 'good' : q.status === 'open' ? '' : 'bad'}>{t.rq[q.status]}</b>} />
        <Row label={t.sendExactly} value={<b class="big" data-testid="amount-to-send">{`${q.amount_to_send} ${assetOf(q.currency)}`}</b>} />
        {shown && <Row label={t.network} value={<span data-testid="request-network">{networkName(q.currency, shown)}</span>} />}
        <Row label={t.expires} value={fmtTime(q.expires_at)} />
      </Section>
      {!shown && (
        <Section title={t.network}>
          <div class="pad">
            <div class="chips">
              {q.addresses.map((a) => (
                <button class="chip" onClick={() => setNetwork(a.network)} data-testid={`network-${a.network}`}>
                  {networkName(q.currency, a.network)}
                </button>
              ))}
            </div>
            <small class="muted">{t.chooseNetwork}</small>
          </div>
        </Section>
      )}
      {addr && q.status === 'open' && (
        <Section title={t.to}>
          <div class="pad">
            <Copy text={addr.address} testid="address" />
            {q.comment_code && (
              <>
                <span class="label">{t.comment}</span>
                <Copy text={q.comment_code} testid="comment-code" />
              </>
            )}
            <Qr text={link ?? addr.address} testid="qr" />
            {link && (
              <a class="btn primary" href={link} data-testid="ton-link">
                {t.openWallet}
              </a>
            )}
          </div>
        </Section>
      )}
      <ErrorNote error={error} />
      {q.status === 'open' && (
        <Button kind="plain" onClick={cancel} testid="cancel-request">
          {t.cancelRequest}
        </Button>
      )}
      <Button kind="plain" onClick={onBack} testid="all-requests">
        {t.allRequests}
      </Button>
    </>
  );
}

/** The open requests, each with its amount to send, network(s), time left, "Show again" and "Cancel". */
function OpenRequests({ open, onShow, onCanceled }: { open: OpenTopupRequestsAnswer; onShow: (id: string) => void; onCanceled: () => void }) {
  const [error, setError] = useState<unknown>(null);
  if (open.items.length === 0) return null;
  const cancel = async (q: TopupRequestAnswer) => {
    setError(null);
    try {
      if (await cancelAsked(q)) onCanceled();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <Section title={t.openRequests}>
      {open.items.map((q) => (
        <div class="request" data-testid={`open-request-${q.request_id}`}>
          <Row
            label={
              <>
                <b data-testid="open-amount">{`${q.amount_to_send} ${assetOf(q.currency)}`}</b>
                <br />
                <small class="muted" data-testid="open-networks">
                  {networksOf(q)}
                </small>
              </>
            }
            value={<small class="muted" data-testid="open-left">{t.timeLeft(q.seconds_left)}</small>}
          />
          <div class="actions">
            <button class="btn plain small" onClick={() => onShow(q.request_id)} data-testid={`show-${q.request_id}`}>
              {t.showAgain}
            </button>
            <button class="btn danger small" onClick={() => cancel(q)} data-testid={`cancel-${q.request_id}`}>
              {t.cancelRequest}
            </button>
          </div>
        </div>
      ))}
      <ErrorNote error={error} />
    </Section>
  );
}

/**
 * Top-up (owners): first the open requests (each shown again or canceled), then a new exact-amount request,
 * offered only for a currency with room under TOPUP_REQUESTS_MAX_OPEN. USDT asks for the network first (a
 * payment sent on another network than the address's is lost); the request then shows that network's
 * address only.
 */
export function TopupPage(_: { nav: Nav }) {
  const info = useLoad(() => api.funding(), []);
  // polled: the time left moves, and a request paid or expired meanwhile leaves the list
  const open = useLoad(() => api.openTopupRequests(), [], 30_000);
  const [currency, setCurrency] = useState<'USD' | 'TON'>('USD');
  const [network, setNetwork] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [request, setRequest] = useState<{ id: string; network: string | null } | null>(null);
  if (request)
    return (
      <RequestView
        id={request.id}
        network={request.network}
        onBack={() => {
          setRequest(null);
          open.reload();
        }}
      />
    );
  if (!info.data || !open.data) return info.error || open.error ? <ErrorNote error={info.error ?? open.error} /> : <Loading />;
  const networks: string[] = info.data.options.filter((o) => o.currency === currency).map((o) => o.network);
  // TON has one network; USDT's is chosen by the owner
  const chosen = currency === 'TON' ? networks[0] ?? null : network;
  const room = open.data.room[currency];
  const submit = async () => {
    setError(null);
    try {
      const r = await api.createTopupRequest({ currency, amount: amount.replace(',', '.') });
      setRequest({ id: r.request_id, network: chosen! });
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <OpenRequests open={open.data} onShow={(id) => setRequest({ id, network: null })} onCanceled={open.reload} />
      <Section title={t.newRequest}>
        <div class="pad chips">
          {info.data.currencies.map((c: 'USD' | 'TON') => (
            <button class={currency === c ? 'chip on' : 'chip'} onClick={() => (setCurrency(c), setNetwork(null))} data-testid={`currency-${c}`}>
              {c === 'USD' ? 'USDT → USD' : 'TON'}
            </button>
          ))}
        </div>
      </Section>
      {room === 0 ? (
        <p class="muted pad" data-testid="no-room">
          {t.noRoom(open.data.max_open, currency)}
        </p>
      ) : (
        <>
          {currency === 'USD' && (
            <Section title={t.network}>
              <div class="pad">
                <div class="chips">
                  {networks.map((n) => (
                    <button class={network === n ? 'chip on' : 'chip'} onClick={() => setNetwork(n)} data-testid={`network-${n}`}>
                      {networkName('USD', n)}
                    </button>
                  ))}
                </div>
                {!network && <small class="muted">{t.chooseNetwork}</small>}
              </div>
            </Section>
          )}
          <Section>
            <div class="pad">
              <label class="field">
                <span>{t.sum}</span>
                <input inputMode="decimal" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} placeholder={info.data.minimums[currency]} data-testid="topup-amount" />
                <small class="muted">{t.minimum(info.data.minimums[currency], currency)}</small>
              </label>
            </div>
          </Section>
          <ErrorNote error={error} />
          <Button onClick={submit} disabled={!amount || !chosen} testid="topup-request">
            {t.request}
          </Button>
        </>
      )}
      <Alerts />
    </>
  );
}

/** Low-balance alert thresholds (the service of the bot's /alerts): one per currency, empty for none. */
function Alerts() {
  const current = useLoad(() => api.alerts(), []);
  // the answer of a save is the thresholds now: shown at once, with no reload in between
  const [savedView, setSavedView] = useState<Record<string, string | null> | null>(null);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const view = savedView ?? current.data;
  if (!view) return current.error ? <ErrorNote error={current.error} /> : null;
  const value = (c: 'USD' | 'TON') => typed[c] ?? view[c] ?? '';
  const save = async () => {
    setError(null);
    setSaved(false);
    const body: Record<string, string | null> = {};
    for (const c of ['USD', 'TON'] as const) if (c in typed) body[c] = typed[c].trim() === '' ? null : typed[c].trim().replace(',', '.');
    try {
      setSavedView(await api.saveAlerts(body));
      setTyped({});
      setSaved(true);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <Section title={t.alerts}>
      <div class="pad">
        <div class="pair">
          {(['USD', 'TON'] as const).map((c) => (
            <label class="field">
              <span>{c}</span>
              <input inputMode="decimal" value={value(c)} placeholder={t.off} onInput={(e) => (setSaved(false), setTyped((x) => ({ ...x, [c]: e.currentTarget.value })))} data-testid={`alert-${c}`} />
            </label>
          ))}
        </div>
        <small class="muted">{t.alertsHint}</small>
        <ErrorNote error={error} />
        {saved && <p class="good" data-testid="alerts-saved">{t.alertsSaved}</p>}
        <Button kind="plain" onClick={save} disabled={Object.keys(typed).length === 0} testid="save-alerts">
          {t.save}
        </Button>
      </div>
    </Section>
  );
}
