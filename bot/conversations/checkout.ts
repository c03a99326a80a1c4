import type { Deps } from '../../src/app/deps.js';
import { createOrder, type CreateOrderDeps } from '../../src/app/orders/create.js';
import { balanceLowNoticeChats } from '../../src/app/notices.js';
import { displayName } from '../../src/domain/display-name.js';
import { textsOf } from '../texts/index.js';
import { validateRecipient } from '../../src/app/orders/recipient.js';
import { rememberOrderMessage } from '../order-messages.js';
import { infoOf } from '../order-numbers.js';
import { attempt, type Outcome } from './common.js';
import { retry, type Back, type Flow } from './flow.js';
import * as commonView from '../views/common.js';
import * as orderView from '../views/order.js';

/** The two steps every product shares: the recipient check and the confirmed order. */

export interface CheckedRecipient {
  /** As the user typed it: the order's `recipient` is the username as given. */
  recipient: string;
  /** The account as the service resolved it (what orders are keyed on). */
  account: string;
  alreadyPremium: boolean;
}

/**
 * Checks a username with `validateRecipient` (the resolution the order path uses): the recipient, or the
 * refusal in words. For gifts, an account that cannot receive gifts is refused too.
 */
export async function checkRecipient(flow: Flow, deps: Pick<Deps, 'suppliers'>, type: 'stars' | 'premium' | 'nft', username: string): Promise<Outcome<CheckedRecipient> & { why?: string }> {
  const { t, conversation } = flow;
  const checked = await conversation.external(() => attempt(() => validateRecipient(deps, { type, username })));
  if (!checked.ok) return { ...checked, why: commonView.errorText(t, checked) };
  const v = checked.value as { username: string; already_premium?: boolean; can_receive_gifts?: boolean };
  if (type === 'nft' && v.can_receive_gifts === false) return { ok: false, code: 'cannot_receive_gifts', detail: '', extra: {}, why: t.gifts.cannotReceive };
  return { ok: true, value: { recipient: username, account: v.username, alreadyPremium: v.already_premium === true } };
}

/**
 * Asks for the recipient in the task message, under what was chosen (`chosen`), and checks it before any
 * confirmation: a wrong name is explained in the same message and another asked for, as often as needed.
 * Once answered, the message folds into one line ("⭐ Stars: 100 → @alice").
 */
export async function askRecipient(flow: Flow, deps: Pick<Deps, 'suppliers'>, type: 'stars' | 'premium' | 'nft', back: Back | undefined, opts: { chosen?: string } = {}): Promise<CheckedRecipient> {
  const { t } = flow;
  const menu = await flow.prompt(orderView.askRecipient(t, opts.chosen), back ? { back } : {});
  const { value } = await flow.ask(menu, async (username) => {
    const r = await checkRecipient(flow, deps, type, username);
    if (!r.ok) return retry(r.code === 'cannot_receive_gifts' ? r.why! : `${r.why}\n${t.order.recipientRetry}`);
    return r.value;
  }, (r) => orderView.recipientChosen(t, r.recipient, opts.chosen));
  return value;
}

/** Errors after which the same confirmation may simply be pressed again. */
const RETRYABLE = new Set(['order_in_progress', 'ledger_unavailable', 'resolver_error', 'rate_limited']);

function retryable(code: string, extra: Record<string, unknown>): boolean {
  return RETRYABLE.has(code) || (code === 'product_unavailable' && extra.reason === 'upstream_unavailable');
}

export type OrderBody = { type: 'stars' | 'premium' | 'nft'; idempotency_key: string; params: Record<string, unknown> };

/** What placing the order came to: placed, refused for good, or (a gift) refused because its price went up. */
export type Placed = { kind: 'placed' } | { kind: 'refused' } | { kind: 'price_changed'; currentPrice: string } | { kind: 'gift_gone'; why: string };

/**
 * Shows the confirmation and places the order through `createOrder` (the code of POST /orders) when its
 * button is pressed. The button carries `key`, the idempotency key made once for this confirmation: a
 * second tap, a retry after a transient error, or a replay all send the same key and get the same order
 * with one debit. Without enough balance there is no confirm button, only the way to ask the owners for a
 * top-up. Every refusal is explained in words, in the confirmation's message; a transient one leaves the
 * confirmation to press again. The accepted order is remembered with its message, so that its outcome is
 * told in the chat it was placed from, as a reply to it.
 */
export async function confirmAndPlace(
  flow: Flow,
  deps: CreateOrderDeps,
  partnerId: number,
  confirmText: string,
  body: OrderBody,
  opts: { back?: Back; fresh?: boolean; enough: boolean; confirmLabel?: string; short?: { by: string; currency: string } },
): Promise<Placed> {
  const { t, conversation } = flow;
  const key = body.idempotency_key;
  // Not enough money: no ✅, but the way to ask the owners for a top-up.
  const rows = opts.enough ? [[flow.button(opts.confirmLabel ?? t.order.btnConfirm, `ok:${key}`)]] : opts.short ? [[flow.button(t.order.btnAskOwner, 'ask')]] : [];
  const menu = await flow.menu(confirmText, rows, { ...(opts.back ? { back: opts.back } : {}), ...(opts.fresh ? { fresh: true } : {}) });
  const pressed = await flow.choose(menu);
  if (pressed.action === 'ask' && opts.short) {
    const short = opts.short;
    const who = pressed.ctx.from ? (displayName(pressed.ctx.from) ?? String(pressed.ctx.from.id)) : '?';
    const here = pressed.ctx.chat?.id;
    const owners = await conversation.external(() => balanceLowNoticeChats(deps, partnerId).filter((c) => c.chatId !== here));
    let told = 0;
    for (const c of owners) {
      try {
        await pressed.ctx.api.sendMessage(c.chatId, orderView.askedForTopup(textsOf(c.language), who, short.by, short.currency));
        told++;
      } catch (err) {
        deps.log.info({ err, chatId: c.chatId }, 'top-up request to an owner not delivered');
      }
    }
    await flow.result(menu, `${confirmText}\n\n${told ? t.order.ownerAsked : t.order.noOwnerToAsk}`);
    return { kind: 'refused' };
  }
  if (pressed.action !== `ok:${key}`) return conversation.skip();
  const chat = pressed.ctx.chat;
  const placed = await conversation.external(() =>
    // audited with the person who pressed the button, as the Mini App's orders are
    flow.guarded(() => createOrder(deps, partnerId, body, { actor: pressed.ctx.from ? `telegram:${pressed.ctx.from.id}` : undefined })),
  );
  if (!placed.ok && retryable(placed.code, placed.extra)) {
    // the confirmation stays, with why it did not go through and that it may be pressed again
    await flow.hint(menu, `${commonView.errorText(t, placed)}\n${t.order.retryHint}`);
    return conversation.skip();
  }
  // The confirmation becomes the result in place: one message for the order, not a second one below it.
  if (placed.ok) {
    const shown = await flow.result(menu, orderView.accepted(t, infoOf(deps, placed.value.order)));
    const orderId = String(placed.value.order.order_id);
    await conversation.external(() =>
      rememberOrderMessage(deps, orderId, { chatId: shown.chatId, messageId: shown.messageId, group: chat?.type !== 'private', language: t.lang }),
    );
    return { kind: 'placed' };
  }
  if (placed.code === 'price_changed' && typeof placed.extra.current_price === 'string') return { kind: 'price_changed', currentPrice: placed.extra.current_price };
  // A gift sold or taken meanwhile: the gift flow offers another of the same collection.
  if (placed.code === 'gift_not_for_sale' || placed.code === 'gift_reserved') return { kind: 'gift_gone', why: commonView.errorText(t, placed) };
  await flow.result(menu, `${confirmText}\n\n${commonView.errorText(t, placed)}`);
  return { kind: 'refused' };
}
