import { useState } from 'preact/hooks';
import { api } from '../api';
import { t } from '../i18n';
import type { Nav } from '../main';
import { Button, Copy, ErrorNote, fmtTime, Loading, Qr, Row, Section, useLoad } from '../ui';

/** ton://transfer/<address>?amount=<nanotons>&text=<code>: opens a TON wallet with amount and comment filled in. */
export function tonTransferLink(address: string, amountTon: string, code?: string): string {
  const [whole, frac = ''] = amountTon.split('.');
  const nanotons = (BigInt(whole) * 1_000_000_000n + BigInt((frac + '000000000').slice(0, 9))).toString();
  return `ton://transfer/${address}?amount=${nanotons}${code ? `&text=${encodeURIComponent(code)}` : ''}`;
}

function RequestView({ id, onNew }: { id: string; onNew: () => void }) {
  // the request's state follows the chain watcher: polled until credited or expired
  const r = useLoad(() => api('GET', `/topup-requests/${id}`), [id], 4000);
  const [network, setNetwork] = useState<string | null>(null);
  if (!r.data) return r.error ? <ErrorNote error={r.error} /> : <Loading />;
  const q = r.data;
  const addr = q.addresses.find((a: any) => a.network === network) ?? (q.currency === 'TON' ? q.addresses[0] : null);
  return (
    <>
      <Section>
        <Row label={t.status} value={<b data-testid="request-status" class={q.status === 'credited' ? 'good' : q.status === 'expired' ? 'bad' : ''}>{t.rq[q.status]}</b>} />
        <Row label={t.sendExactly} value={<b class="big" data-testid="amount-to-send">{`${q.amount_to_send} ${q.currency === 'USD' ? 'USDT' : 'TON'}`}</b>} />
        <Row label={t.expires} value={fmtTime(q.expires_at)} />
      </Section>
      {q.currency === 'USD' && (
        <Section title={t.network}>
          <div class="pad chips">
            {q.addresses.map((a: any) => (
              <button class={network === a.network ? 'chip on' : 'chip'} onClick={() => setNetwork(a.network)} data-testid={`network-${a.network}`}>
                {{ ton: 'TON', trc20: 'TRC-20', bep20: 'BEP-20' }[a.network as string] ?? a.network}
              </button>
            ))}
          </div>
        </Section>
      )}
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
            <Qr text={q.currency === 'TON' ? tonTransferLink(addr.address, q.amount_to_send, q.comment_code) : addr.address} testid="qr" />
            {q.currency === 'TON' && (
              <a class="btn primary" href={tonTransferLink(addr.address, q.amount_to_send, q.comment_code)} data-testid="ton-link">
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

/** Top-up (owners): an exact-amount request per currency; USDT asks for the network first. */
export function TopupPage(_: { nav: Nav }) {
  const info = useLoad(() => api('GET', '/funding'), []);
  const [currency, setCurrency] = useState<'USD' | 'TON'>('USD');
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [requestId, setRequestId] = useState<string | null>(null);
  if (requestId) return <RequestView id={requestId} onNew={() => setRequestId(null)} />;
  if (!info.data) return info.error ? <ErrorNote error={info.error} /> : <Loading />;
  const submit = async () => {
    setError(null);
    try {
      const r = await api('POST', '/topup-requests', { currency, amount: amount.replace(',', '.') });
      setRequestId(r.request_id);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <Section title={t.currency}>
        <div class="pad chips">
          {info.data.currencies.map((c: 'USD' | 'TON') => (
            <button class={currency === c ? 'chip on' : 'chip'} onClick={() => setCurrency(c)} data-testid={`currency-${c}`}>
              {c === 'USD' ? 'USDT → USD' : 'TON'}
            </button>
          ))}
        </div>
        <div class="pad">
          <label class="field">
            <span>{t.amount}</span>
            <input inputMode="decimal" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} placeholder={info.data.minimums[currency]} data-testid="topup-amount" />
            <small class="muted">{t.minimum(info.data.minimums[currency], currency)}</small>
          </label>
        </div>
      </Section>
      <ErrorNote error={error} />
      <Button onClick={submit} disabled={!amount} testid="topup-request">
        {t.request}
      </Button>
    </>
  );
}
