import { useState } from 'preact/hooks';
import { api, type Delivery } from '../api/client';
import { Button, Copy, ErrorNote, Loading, Row, Section } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { t } from '../i18n';
import { fmtTime } from '../lib/format';
import type { Nav } from '../nav';
import { confirmDialog } from '../tg';

/** What the Webhook block's `events` may list (the service answers 400 validation_error for anything else). */
const EVENTS = ['order.completed', 'order.failed', 'order.refunded', 'balance.low'];

/** API (owners): the key, issued or reissued with an optional IP whitelist and shown once; the webhook block (its events too), its test and its delivery log. */
export function ApiPage({ nav }: { nav: Nav }) {
  const key = useLoad(() => api.apiKey(), []);
  const hook = useLoad(() => api.webhook(), []);
  const [whitelist, setWhitelist] = useState('');
  const [issued, setIssued] = useState<string | null>(null);
  const [keyError, setKeyError] = useState<unknown>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [hookError, setHookError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [events, setEvents] = useState<string[] | null>(null);

  const issue = async () => {
    if (key.data?.key && !(await confirmDialog(t.reissueConfirm))) return;
    setKeyError(null);
    try {
      const r = await api.issueKey(whitelist.split(/[\s,;]+/).filter(Boolean));
      setIssued(r.api_key);
      key.reload();
    } catch (e) {
      setKeyError(e);
    }
  };
  const save = async (regenerate: boolean) => {
    if (regenerate && !(await confirmDialog(t.regenerateConfirm))) return;
    setHookError(null);
    setSaved(false);
    try {
      const r = regenerate ? await api.regenerateSecret() : await api.saveWebhook({ url: url ?? hook.data?.url ?? '', ...(events ? { events } : {}) });
      setSecret(r.secret ?? null);
      setSaved(true);
      hook.reload();
    } catch (e) {
      setHookError(e);
    }
  };
  const [tested, setTested] = useState<Delivery | null>(null);
  const [testing, setTesting] = useState(false);
  const test = async () => {
    if (testing) return;
    setTesting(true);
    setHookError(null);
    setTested(null);
    try {
      setTested(await api.testWebhook());
    } catch (e) {
      setHookError(e);
    } finally {
      setTesting(false);
    }
  };
  const k = key.data?.key;
  return (
    <>
      <Section title={t.apiKey}>
        {!key.data ? (
          <Loading />
        ) : k ? (
          <>
            <Row label={t.apiKey} value={<code data-testid="key-prefix">{k.prefix}…</code>} />
            <Row label={t.created} value={fmtTime(k.created_at)} />
            <Row label="IP" value={k.ip_whitelist.length ? k.ip_whitelist.join(', ') : t.any} />
          </>
        ) : (
          <p class="muted pad">{t.noKey}</p>
        )}
        {issued && (
          <div class="pad reveal" data-testid="issued-key">
            <p class="warn">{t.keyShownOnce}</p>
            <Copy text={issued} testid="api-key" />
          </div>
        )}
        <div class="pad">
          <label class="field">
            <span>{t.whitelist}</span>
            <input value={whitelist} onInput={(e) => setWhitelist(e.currentTarget.value)} placeholder={t.whitelistHint} data-testid="whitelist" />
          </label>
          {k && <small class="muted">{t.reissueWarn}</small>}
        </div>
      </Section>
      <ErrorNote error={keyError} />
      <Button onClick={issue} testid="issue-key">
        {k ? t.reissue : t.issue}
      </Button>

      <Section title={t.webhook}>
        {!hook.data ? (
          <Loading />
        ) : (
          <div class="pad">
            <label class="field">
              <span>{t.url}</span>
              <input type="url" value={url ?? hook.data.url ?? ''} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://example.com/webhooks" data-testid="webhook-url" />
            </label>
            <small class="muted">{hook.data.has_secret ? t.hasSecret : t.noSecret}</small>
            <fieldset class="field events" data-testid="webhook-events">
              <span>{t.events}</span>
              {EVENTS.map((e) => {
                const now: string[] = events ?? hook.data?.events ?? [];
                const on = now.includes(e);
                return (
                  <label key={e}>
                    <input type="checkbox" checked={on} onChange={() => setEvents(on ? now.filter((x) => x !== e) : [...now, e])} data-testid={`event-${e}`} /> {t.ev[e]}
                  </label>
                );
              })}
            </fieldset>
            {saved && !secret && <p class="good">{t.saved}</p>}
            {secret && (
              <div class="reveal" data-testid="webhook-secret">
                <p class="warn">{t.secretShownOnce}</p>
                <Copy text={secret} testid="secret" />
              </div>
            )}
          </div>
        )}
      </Section>
      <ErrorNote error={hookError} />
      {hook.data?.has_secret && hook.data.url && (
        <Section>
          <Row label={<span class="link">{t.testWebhook}</span>} value={testing ? <span class="muted">…</span> : undefined} onClick={test} testid="test-webhook" />
          {tested && (
            <p class={`pad ${tested.status === 'delivered' ? 'good' : 'bad'}`} data-testid="test-result">
              {t.testResult(tested.status === 'delivered')}
              {tested.status !== 'delivered' && ` ${tested.attempts.at(-1)?.error ?? tested.rejected_reason ?? ''}`}
            </p>
          )}
          <Row label={<>{t.deliveryLog}<small class="muted block">{t.deliveryLogHint}</small></>} value={<span class="muted">›</span>} onClick={() => nav.go({ page: 'deliveries' })} testid="open-deliveries" />
        </Section>
      )}
      <div class="actions">
        <Button onClick={() => save(false)} testid="save-webhook">
          {t.save}
        </Button>
        {hook.data?.has_secret && (
          <Button kind="plain" onClick={() => save(true)} testid="regenerate">
            {t.regenerate}
          </Button>
        )}
      </div>
    </>
  );
}
