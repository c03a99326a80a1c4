import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { Button, Copy, ErrorNote, Loading, Qr, Row, Section } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { t, words } from '../i18n';
import { fmtTime, tonTransferLink } from '../lib/format';
import type { Nav } from '../nav';

/** A network's name as the bot writes it (src/domain/words.ts): "USDT (TRC-20, TRON network)". */
const networkName = (currency: string, network: string) => words.assetLabel(currency === 'TON' ? 'TON' : 'USDT', network);

function RequestView({ id, network, onNew }: { id: string; network: string; onNew: () => void }) {
  // the request's state follows the chain watcher: polled until credited or expired
  const r = useLoad(() => api.topupRequest(id), [id], 4000);
  if (!r.data) return r.error ? <ErrorNote error={r.error} /> : <Loading />;
  const q = r.data;
  const addr = q.addresses.find((a) => a.network === network);
  const link = q.currency === 'TON' && addr ? tonTransferLink(addr.address, q.amount_to_send, q.comment_code) : null;
  return (
    <>
      <Section>
        <Row label={t.status} value={<b data-testid="request-status" class={q.status === 'paid' ? 'good' : q.status === 'open' ? '' : 'bad'}>{t.rq[q.status]}</b>} />
        <Row label={t.sendExactly} value={<b class="big" data-testid="amount-to-send">{`${q.amount_to_send} ${q.currency === 'USD' ? 'USDT' : 'TON'}`}</b>} />
        <Row label={t.network} value={<span data-testid="request-network">{networkName(q.currency, network)}</span>} />
        <Row label={t.expires} value={fmtTime(q.expires_at)} />
      </Section>
      {addr && (
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
      <Button kind="plain" onClick={onNew}>
        {t.newRequest}
      </Button>
    </>
  );
}

/**
 * Top-up (owners): an exact-amount request per currency. USDT asks for the network first (a payment sent on
 * another network than the address's is lost); the request then shows that network's address only.
 */
export function TopupPage(_: { nav: Nav }) {
  const info = useLoad(() => api.funding(), []);
  const [currency, setCurrency] = useState<'USD' | 'TON'>('USD');
  const [network, setNetwork] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [request, setRequest] = useState<{ id: string; network: string } | null>(null);
  if (request) return <RequestView id={request.id} network={request.network} onNew={() => setRequest(null)} />;
  if (!info.data) return info.error ? <ErrorNote error={info.error} /> : <Loading />;
  const networks: string[] = info.data.options.filter((o) => o.currency === currency).map((o) => o.network);
  // TON has one network; USDT's is chosen by the owner
  const chosen = currency === 'TON' ? networks[0] ?? null : network;
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
      <Section title={t.currency}>
        <div class="pad chips">
          {info.data.currencies.map((c: 'USD' | 'TON') => (
            <button class={currency === c ? 'chip on' : 'chip'} onClick={() => (setCurrency(c), setNetwork(null))} data-testid={`currency-${c}`}>
              {c === 'USD' ? 'USDT → USD' : 'TON'}
            </button>
          ))}
        </div>
      </Section>
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
