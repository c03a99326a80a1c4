import { alertsView, setAlerts } from '../../src/app/balance-alerts.js';
import { partnerActive } from '../../src/app/partners.js';
import type { Deps } from '../../src/app/deps.js';
import { issueKey, type KeyCache } from '../../src/app/keys.js';
import { partnerView } from '../../src/app/partners.js';
import { saveWebhook, saveWebhookEvents, type SaveWebhookDeps } from '../../src/app/webhooks/config.js';
import { canonicalWhitelist } from '../../src/domain/ip-whitelist.js';
import { parseThreshold } from '../../src/domain/balance-alert.js';
import { ORDER_EVENTS, SUBSCRIBABLE_EVENTS } from '../../src/domain/webhook-delivery.js';
import type { ConvContext } from '../context.js';
import { alertRows, apikeyRows, eventRows, webhookRows } from '../keyboards/owner.js';
import { esc } from '../views/format.js';
import * as commonView from '../views/common.js';
import * as ownerView from '../views/owner.js';
import { SECRET_SAVED_DATA } from '../keyboards/data.js';
import type { Texts } from '../texts/index.js';
import type { Outcome } from './common.js';
import { flowConversation, retry, type Back, type FlowDeps } from './flow.js';

/**
 * Owner conversations: /apikey, /webhook and /alerts (/topup: bot/conversations/topup.ts). The key and the secret are shown once; in the stored
 * conversation state they exist only sealed with the service's secret box (external results are stored).
 */
export const APIKEY_CONVERSATION = 'apikey';
export const WEBHOOK_CONVERSATION = 'webhook';
export const ALERTS_CONVERSATION = 'alerts';

/** An external whose result carries one secret field: sealed in storage, plain in the running code. */
function sealedOp<T extends Record<string, unknown>>(deps: Pick<Deps, 'secrets'>, field: keyof T & string, task: () => Promise<Outcome<T>>) {
  const map = (o: Outcome<T>, f: (s: string) => string): Outcome<T> =>
    o.ok && typeof o.value[field] === 'string' ? { ok: true, value: { ...o.value, [field]: f(o.value[field] as string) } } : o;
  return {
    task,
    beforeStore: (o: Outcome<T>) => map(o, (s) => deps.secrets.seal(s)),
    afterLoad: (o: Outcome<T>) => map(o, (s) => deps.secrets.open(s)),
  };
}

const actorOf = (ctx: ConvContext) => `telegram:${ctx.from?.id ?? 'unknown'}`;

/** How a shown key or secret is shown: HTML (hidden under a spoiler) with the button that deletes its message once saved. */
const secretShown = (t: Texts) => ({ parseMode: 'HTML' as const, rows: [[{ text: t.team.btnSavedIt, callback_data: SECRET_SAVED_DATA }]] });

export function apikeyConversation(env: { deps: FlowDeps & Pick<Deps, 'secrets'>; keys: KeyCache }) {
  const { deps, keys } = env;
  return flowConversation(deps, '/apikey', async (flow, partnerId: number) => {
    const { conversation, t, ctx } = flow;
    const actor = actorOf(ctx);
    // No offer that would then be refused: the key comes after the first top-up.
    const state = await conversation.external(() => ({
      active: partnerActive(deps, partnerId),
      hasKey: partnerView(deps, partnerId).keys.some((k) => k.revoked_at === null),
    }));
    if (!state.active) return void (await flow.done(t.owner.apikeyNeedsTopup));
    const atIntro = flow.checkpoint();
    const intro = await flow.menu(state.hasKey ? t.owner.apikeyIntro : t.owner.apikeyIntroFirst, apikeyRows(flow));
    const choice = await flow.choose(intro);

    /**
     * A key that replaces a working one is asked for once more ("Yes, replace"); then issued and shown in the
     * task's message, which its "Saved it" button deletes.
     */
    const issue = async (whitelist: string[], back: Back) => {
      if (state.hasKey) {
        const sure = await flow.menu(t.team.confirmReplaceKey, [[flow.button(t.team.btnYesReplace, 'replace')]], { back });
        const yes = await flow.choose(sure);
        if (yes.action !== 'replace') return conversation.skip();
      }
      const r = await conversation.external(sealedOp(deps, 'api_key', () => flow.guarded(() => issueKey(deps, keys, partnerId, whitelist, actor))));
      if (!r.ok) return void (await flow.done(commonView.errorText(t, r)));
      await flow.done(ownerView.keyIssued(t, r.value.api_key, r.value.ip_whitelist, state.hasKey), secretShown(t));
    };

    if (choice.action === 'issue') return issue([], atIntro);

    const atWhitelist = flow.checkpoint();
    const ask = await flow.prompt(t.owner.askWhitelist, { back: atIntro });
    // The list is checked here first, so that a typo is explained in the user's words and language.
    const { value: whitelist } = await flow.ask(
      ask,
      async (text) => {
        const entries = text.split(/[\s,;]+/).filter(Boolean);
        const wl = canonicalWhitelist(entries);
        return wl.ok ? entries : retry(t.owner.badWhitelist(wl.bad));
      },
      (entries) => `${t.owner.btnIssueWhitelist}: ${entries.join(', ')}`,
    );
    await issue(whitelist, atWhitelist);
  });
}

export function webhookConversation(env: { deps: FlowDeps & SaveWebhookDeps }) {
  const { deps } = env;
  return flowConversation(deps, '/webhook', async (flow, partnerId: number) => {
    const { conversation, t, ctx } = flow;
    const actor = actorOf(ctx);
    const current = await conversation.external(() => {
      const v = partnerView(deps, partnerId);
      return { url: v.webhook.url, hasSecret: v.webhook.has_secret, events: v.webhook.events };
    });
    const atIntro = flow.checkpoint();
    const intro = await flow.menu(ownerView.webhookIntro(t, current.url, current.hasSecret, current.events), webhookRows(flow, current.url !== null || current.hasSecret));
    const choice = await flow.choose(intro);

    const save = (body: { url: string; regenerate_secret?: boolean; events?: string[] }) =>
      conversation.external(
        sealedOp(deps, 'secret', () => flow.guarded(() => saveWebhook(deps, partnerId, body, actor) as Record<string, unknown> & { url: string; events: string[]; secret?: string })),
      );
    // The outcome in the task's message; with a secret, HTML under a spoiler and the button that deletes it.
    // "The previous secret no longer works" only when there was one.
    const report = (r: { url: string; secret?: string }) =>
      r.secret ? flow.done(`${esc(ownerView.urlSaved(t, r.url))}\n\n${ownerView.secretShown(t, r.secret, current.hasSecret)}`, secretShown(t)) : flow.done(ownerView.urlSaved(t, r.url));

    if (choice.action === 'regen') {
      // the secret in use stops working: asked once more
      const sure = await flow.menu(t.team.confirmReplaceSecret, [[flow.button(t.team.btnYesReplace, 'replace')]], { back: atIntro });
      const yes = await flow.choose(sure);
      if (yes.action !== 'replace') return conversation.skip();
      const r = await save({ url: current.url ?? '', regenerate_secret: true });
      if (!r.ok) return void (await flow.done(commonView.errorText(t, r)));
      return void (await report(r.value));
    }

    if (choice.action === 'events') {
      const which = await flow.menu(t.owner.chooseEvents, eventRows(flow), { back: atIntro });
      const picked = await flow.choose(which);
      const events = picked.action === 'ev:low' ? [...SUBSCRIBABLE_EVENTS] : picked.action === 'ev:orders' ? [...ORDER_EVENTS] : null;
      if (!events) return conversation.skip();
      // the address and the secret stay as they are: choosing events before any address makes no secret
      const r = await conversation.external(() => flow.guarded(() => saveWebhookEvents(deps, partnerId, events, actor)));
      if (!r.ok) return void (await flow.done(commonView.errorText(t, r)));
      return void (await flow.done(ownerView.eventsSaved(t, r.value.events)));
    }

    // an address that is set may be cleared with a button (deliveries stop)
    const canClear = Boolean(current.url);
    const ask = await flow.prompt(canClear ? t.owner.askUrlOrClear : t.owner.askUrl, { back: atIntro, rows: canClear ? [[flow.button(t.owner.btnClearUrl, 'clear')]] : [] });
    const saved = await flow.askOrPress(ask, async (text) => {
      const r = await save({ url: text === '-' ? '' : text });
      if (r.ok) return { ok: true as const, saved: r.value };
      // A bad address may be corrected; anything else is told and ends the conversation below.
      return r.code === 'bad_webhook_url' || r.code === 'validation_error' ? retry(commonView.errorText(t, r)) : { ok: false as const, error: commonView.errorText(t, r) };
    });
    if ('action' in saved) {
      if (saved.action !== 'clear' || !canClear) return conversation.skip();
      const r = await save({ url: '' });
      if (!r.ok) return void (await flow.done(commonView.errorText(t, r)));
      return void (await report(r.value));
    }
    const v = saved.value;
    if (!v.ok) return void (await flow.done(v.error));
    await report(v.saved);
  });
}

/**
 * /alerts: the low-balance thresholds (setAlerts, as the operator API sets them): a button per currency,
 * then the amount, or "-" to switch that alert off.
 */
export function alertsConversation(env: { deps: FlowDeps }) {
  const { deps } = env;
  return flowConversation(deps, '/alerts', async (flow, partnerId: number) => {
    const { conversation, t, ctx } = flow;
    const actor = actorOf(ctx);
    const current = await conversation.external(() => alertsView(deps, partnerId));
    const atIntro = flow.checkpoint();
    const intro = await flow.menu(ownerView.alertsIntro(t, current), alertRows(flow));
    const choice = await flow.choose(intro);
    const currency = choice.action === 'al:USD' ? 'USD' : choice.action === 'al:TON' ? 'TON' : null;
    if (!currency) return conversation.skip();
    const ask = await flow.prompt(ownerView.askThreshold(t, currency), { back: atIntro });
    const saved = await flow.ask(ask, async (text) => {
      const value = text === '-' ? null : text.replace(',', '.').replace(/\s/g, '');
      // Checked here first, so that the user reads what is wrong in their own language.
      if (value !== null && parseThreshold(value, currency) === null) return retry(ownerView.badThreshold(t, currency));
      const r = await conversation.external(() => flow.guarded(() => setAlerts(deps, partnerId, { [currency]: value }, actor)));
      return r.ok ? { ok: true as const, view: r.value } : { ok: false as const, error: commonView.errorText(t, r) };
    });
    const v = saved.value;
    if (!v.ok) return void (await flow.done(v.error));
    await flow.done(ownerView.thresholdSaved(t, currency, v.view[currency]));
  });
}
