import { ApiError } from '../../src/domain/errors.js';
import type { Conv, ConvContext } from '../context.js';
import type { ErrorInfo, Texts } from '../texts/index.js';

/**
 * Helpers shared by the conversations. The rules of conversations v2 (docs/notes.md): the function is
 * replayed from the top on every update, so everything that touches the database or services, the clock
 * or randomness runs inside `conversation.external`; `ctx.reply`/`ctx.api` are tracked by the plugin and
 * stay outside. Every wait loop is capped so a conversation always ends.
 */

/** How many invalid inputs a step accepts before the conversation gives up. */
export const MAX_ATTEMPTS = 3;

/** A service call's result as plain JSON (externals are stored; an `ApiError` would lose its fields). */
export type Outcome<T> = { ok: true; value: T } | ({ ok: false } & ErrorInfo);

/** Runs an application service and turns its `ApiError` into data; anything else still throws. */
export async function attempt<T>(fn: () => T | Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, code: e.code, detail: e.detail, extra: { ...e.extra } };
    throw e;
  }
}

export type Input =
  | { kind: 'button'; action: string; ctx: ConvContext }
  | { kind: 'text'; text: string; ctx: ConvContext }
  | { kind: 'cancel'; ctx: ConvContext };

/**
 * Waits for the next thing the user does in this conversation:
 * - a button of this conversation (`c:<nonce>:…`): answered, returned as `button` (`cancel` as `cancel`);
 * - a button of another message (an old menu, /orders paging, an operator button): handed on to the
 *   outside handlers, and this conversation keeps waiting where it is;
 * - `/cancel`: `cancel`; any other command: the conversation ends and the command runs as usual;
 * - text: returned trimmed;
 * - a message without text (a sticker, a photo): a hint; edits and other updates: ignored; the
 *   conversation keeps waiting either way.
 */
export async function waitInput(conversation: Conv, nonce: string, t: Texts): Promise<Input> {
  const ctx = await conversation.wait();
  const data = ctx.callbackQuery?.data;
  if (data !== undefined) {
    const prefix = `c:${nonce}:`;
    if (!data.startsWith(prefix)) return conversation.skip({ next: true });
    await ctx.answerCallbackQuery();
    const action = data.slice(prefix.length);
    return action === 'cancel' ? { kind: 'cancel', ctx } : { kind: 'button', action, ctx };
  }
  const text = ctx.message?.text;
  if (text !== undefined) {
    const trimmed = text.trim();
    if (/^\/cancel(@\w+)?$/i.test(trimmed)) return { kind: 'cancel', ctx };
    if (trimmed.startsWith('/')) return conversation.halt({ next: true });
    return { kind: 'text', text: trimmed, ctx };
  }
  // A sticker or a photo gets a hint; edits and other updates are ignored. Either way the wait goes on.
  if (ctx.message) await ctx.reply(t.common.useButtons);
  return conversation.skip();
}

/** Waits for a button of this conversation; stray texts get a hint, at most MAX_ATTEMPTS times. */
export async function waitButton(conversation: Conv, nonce: string, t: Texts): Promise<Input | null> {
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    const input = await waitInput(conversation, nonce, t);
    if (input.kind !== 'text') return input;
    await input.ctx.reply(t.common.useButtons);
  }
  return null;
}

/** Removes the buttons of a menu once it is answered, leaving `text` in its place. */
export async function closeMenu(ctx: ConvContext, text: string): Promise<void> {
  if (!ctx.callbackQuery?.message) return;
  try {
    await ctx.editMessageText(text);
  } catch {
    // "message is not modified" or a message too old to edit: nothing to fix.
  }
}

export async function cancelled(input: Input, t: Texts): Promise<void> {
  if (input.ctx.callbackQuery) await closeMenu(input.ctx, t.common.cancelled);
  else await input.ctx.reply(t.common.cancelled);
}

/** A fresh nonce for this conversation's buttons (random: inside `external`). */
export function newNonce(conversation: Conv, hex: (bytes: number) => string): Promise<string> {
  return conversation.external(() => hex(4));
}
