import type { Deps } from '../../src/app/deps.js';
import { fundingInfo } from '../../src/app/funding.js';
import { issueKey } from '../../src/app/keys.js';
import { partnerView } from '../../src/app/partners.js';
import { createTopupRequest } from '../../src/app/topup-requests.js';
import { saveWebhook } from '../../src/app/webhooks/config.js';
import type { BotDeps, Conv, ConvContext } from '../context.js';
import { apikeyKeyboard, topupKeyboard, webhookKeyboard } from '../keyboards/owner.js';
import { cancelKeyboard } from '../keyboards/order.js';
import { esc, textsFor } from '../texts/index.js';
import { attempt, cancelled, closeMenu, MAX_ATTEMPTS, newNonce, waitButton, waitInput, type Outcome } from './common.js';

/**
 * Owner conversations: /topup, /apikey and /webhook. The key and the secret are shown once; in the stored
 * conversation state they exist only sealed with the service's secret box (external results are stored).
 */
export const TOPUP_CONVERSATION = 'topup';
export const APIKEY_CONVERSATION = 'apikey';
export const WEBHOOK_CONVERSATION = 'webhook';

/** An external whose result carries one secret field: sealed in storage, plain in the running code. */
function sealedOp<T extends Record<string, unknown>>(deps: Deps, field: keyof T & string, task: () => Promise<Outcome<T>>) {
  const map = (o: Outcome<T>, f: (s: string) => string): Outcome<T> =>
    o.ok && typeof o.value[field] === 'string' ? { ok: true, value: { ...o.value, [field]: f(o.value[field] as string) } } : o;
  return {
    task,
    beforeStore: (o: Outcome<T>) => map(o, (s) => deps.secrets.seal(s)),
    afterLoad: (o: Outcome<T>) => map(o, (s) => deps.secrets.open(s)),
  };
}

const actorOf = (ctx: ConvContext) => `telegram:${ctx.from?.id ?? 'unknown'}`;

export function apikeyConversation(env: BotDeps) {
  const { deps, keys } = env;
  return async function apikey(conversation: Conv, ctx: ConvContext, partnerId: number): Promise<void> {
    const t = textsFor(ctx.from?.language_code);
    const nonce = await newNonce(conversation, deps.ids.hex);
    const actor = actorOf(ctx);
    await ctx.reply(t.owner.apikeyIntro, { reply_markup: apikeyKeyboard(t, nonce) });
    const choice = await waitButton(conversation, nonce, t);
    if (!choice) return void (await ctx.reply(t.common.tooManyAttempts));
    if (choice.kind === 'cancel') return cancelled(choice, t);
    if (choice.kind !== 'button') return;

    const issue = (whitelist: string[]) =>
      conversation.external(sealedOp(deps, 'api_key', () => attempt(() => issueKey(deps, keys, partnerId, whitelist, actor))));

    if (choice.action === 'issue') {
      await closeMenu(choice.ctx, t.owner.btnIssue);
      const r = await issue([]);
      if (!r.ok) return void (await ctx.reply(t.error(r)));
      return void (await ctx.reply(t.owner.keyIssued(r.value.api_key, r.value.ip_whitelist), { parse_mode: 'HTML' }));
    }

    await closeMenu(choice.ctx, t.owner.btnIssueWhitelist);
    await ctx.reply(t.owner.askWhitelist, { reply_markup: cancelKeyboard(t, nonce) });
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const typed = await waitInput(conversation, nonce, t);
      if (typed.kind === 'cancel') return cancelled(typed, t);
      if (typed.kind !== 'text') continue;
      const whitelist = typed.text.split(/[\s,;]+/).filter(Boolean);
      const r = await issue(whitelist);
      if (r.ok) return void (await typed.ctx.reply(t.owner.keyIssued(r.value.api_key, r.value.ip_whitelist), { parse_mode: 'HTML' }));
      // Only a bad whitelist is worth another try; anything else (not activated yet) ends here.
      if (r.code !== 'validation_error') return void (await typed.ctx.reply(t.error(r)));
      await typed.ctx.reply(t.error(r));
    }
    await ctx.reply(t.common.tooManyAttempts);
  };
}

export function webhookConversation(env: BotDeps) {
  const { deps } = env;
  return async function webhook(conversation: Conv, ctx: ConvContext, partnerId: number): Promise<void> {
    const t = textsFor(ctx.from?.language_code);
    const nonce = await newNonce(conversation, deps.ids.hex);
    const actor = actorOf(ctx);
    const current = await conversation.external(() => {
      const v = partnerView(deps, partnerId);
      return { url: v.webhook.url, hasSecret: v.webhook.has_secret };
    });
    await ctx.reply(t.owner.webhookIntro(current.url, current.hasSecret), {
      reply_markup: webhookKeyboard(t, nonce, current.url !== null || current.hasSecret),
    });
    const choice = await waitButton(conversation, nonce, t);
    if (!choice) return void (await ctx.reply(t.common.tooManyAttempts));
    if (choice.kind === 'cancel') return cancelled(choice, t);
    if (choice.kind !== 'button') return;

    const save = (body: { url: string; regenerate_secret?: boolean }) =>
      conversation.external(sealedOp(deps, 'secret', () => attempt(() => saveWebhook(deps, partnerId, body, actor) as Record<string, unknown> & { url: string; secret?: string })));
    const report = (c: ConvContext, r: { url: string; secret?: string }) =>
      c.reply(r.secret ? `${esc(t.owner.urlSaved(r.url))}\n\n${t.owner.secretShown(r.secret)}` : t.owner.urlSaved(r.url), r.secret ? { parse_mode: 'HTML' } : {});

    if (choice.action === 'regen') {
      await closeMenu(choice.ctx, t.owner.btnRegenerate);
      const r = await save({ url: current.url ?? '', regenerate_secret: true });
      if (!r.ok) return void (await ctx.reply(t.error(r)));
      return void (await report(ctx, r.value));
    }

    await closeMenu(choice.ctx, t.owner.btnSetUrl);
    await ctx.reply(t.owner.askUrl, { reply_markup: cancelKeyboard(t, nonce) });
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const typed = await waitInput(conversation, nonce, t);
      if (typed.kind === 'cancel') return cancelled(typed, t);
      if (typed.kind !== 'text') continue;
      const r = await save({ url: typed.text === '-' ? '' : typed.text });
      if (r.ok) return void (await report(typed.ctx, r.value));
      if (r.code !== 'bad_webhook_url' && r.code !== 'validation_error') return void (await typed.ctx.reply(t.error(r)));
      await typed.ctx.reply(t.error(r));
    }
    await ctx.reply(t.common.tooManyAttempts);
  };
}

/**
 * /topup: how to fund each balance, the minimums and the addresses; a button per currency then asks for
 * the amount and makes a top-up request (`createTopupRequest`, as the operator API does): the exact amount
 * to send, by which the payment is recognised, and for TON a comment code.
 */
export function topupConversation(env: BotDeps) {
  const { deps } = env;
  return async function topup(conversation: Conv, ctx: ConvContext, partnerId: number): Promise<void> {
    const t = textsFor(ctx.from?.language_code);
    const nonce = await newNonce(conversation, deps.ids.hex);
    const actor = actorOf(ctx);
    const info = await conversation.external(() => fundingInfo(deps, partnerId));
    if (!info.currencies.length) return void (await ctx.reply(t.owner.topup(info)));
    await ctx.reply(t.owner.topup(info), { reply_markup: topupKeyboard(t, nonce, info.currencies) });

    const choice = await waitInput(conversation, nonce, t);
    // The buttons are an offer: anything else the user does is handled as usual.
    if (choice.kind === 'text') return conversation.halt({ next: true });
    if (choice.kind === 'cancel') return cancelled(choice, t);
    const currency = choice.action === 'tc:TON' ? 'TON' : choice.action === 'tc:USD' ? 'USD' : null;
    if (!currency) return;
    await ctx.reply(t.owner.askAmount(currency, info.minimums[currency]), { reply_markup: cancelKeyboard(t, nonce) });
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const typed = await waitInput(conversation, nonce, t);
      if (typed.kind === 'cancel') return cancelled(typed, t);
      if (typed.kind !== 'text') continue;
      const amount = typed.text.replace(',', '.').replace(/\s/g, '');
      const r = await conversation.external(() => attempt(() => createTopupRequest(deps, partnerId, { currency, amount }, actor)));
      if (r.ok) return void (await typed.ctx.reply(t.owner.topupRequest(r.value)));
      await typed.ctx.reply(t.error(r));
      if (!['topup_below_minimum', 'validation_error', 'topup_amount_unavailable'].includes(r.code)) return;
    }
    await ctx.reply(t.common.tooManyAttempts);
  };
}
