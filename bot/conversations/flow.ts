import { GrammyError } from 'grammy';
import type { InlineKeyboardButton } from 'grammy/types';
import { findLink } from '../../src/app/bot-users.js';
import type { Deps } from '../../src/app/deps.js';
import { partnerView } from '../../src/app/partners.js';
import { displayName } from '../../src/domain/display-name.js';
import type { Conv, ConvContext } from '../context.js';
import { rememberFlowOwner } from '../flow-owners.js';
import { convData } from '../keyboards/data.js';
import { isPrivateChat, isPrivateOnly } from '../private-chat.js';
import { textsFor, textsOf, type Texts } from '../texts/index.js';
import { esc } from '../views/format.js';
import { configuredLanguage } from '../operator-language.js';
import { attempt, type Outcome } from './common.js';
import { may, PERMISSIONS, type Action } from '../../src/domain/permissions.js';
import { COMMAND_ACTION, type RoleCommand } from '../permissions.js';
import * as commonView from '../views/common.js';

/**
 * One conversation's dialogue with its user: the menus it shows, the user's answers, and how it ends.
 *
 * One message per task. The steps of a conversation are shown in one message, each in place of the one
 * before (`menu` edits the task message); an answer that is wrong, a hint, the outcome and a cancel are
 * written into that message too (typed answers stay below it: Telegram cannot edit a user's message). A
 * step asks for a new message itself (`fresh`: the order's confirmation, sent below the recipient it
 * confirms). In a group a question that needs a typed answer must be a message of its own (force_reply):
 * the menu before it is deleted (the question says what it said), a wrong answer brings the question back
 * as a new message in place of the old one, and the step after it is a new message.
 *
 * The rules of conversations v2 (grammY docs, "Conversations": replay) apply: the function is replayed from
 * the top on every update, so the clock, randomness and what this process remembers come through
 * `conversation.external`. Input that does not move the conversation on (a wrong username, a page turn, a
 * sticker, a command answered outside) is answered and then dropped with `conversation.skip()`, so the stored
 * state does not grow with it and nothing counts attempts: people may correct an entry as often as they like,
 * and a conversation ends only on /cancel, on a command that starts something else, on idleness (IDLE_MS of
 * service clock), or when it is done. Back buttons return to a checkpoint taken before an earlier step
 * (`conversation.rewind`), which also keeps the state small; the earlier step is shown again in the message
 * it was shown in. Every menu this conversation sent is remembered until it is answered, and when the
 * conversation ends its remaining buttons are removed, so no button outlives its conversation.
 *
 * Rights are checked again at every step (operator-api.md section 4): the person's link must still be to the
 * partner it was to when the conversation began, with the role the conversation needs (or, for an operator's
 * flow, the chat must still be an operator chat). Otherwise the conversation stops at that step, its message
 * says so, and nothing is done; the actions that issue a secret or move money check again in the same
 * synchronous step as the service call (`guarded`).
 */

/** A conversation waiting longer than this (service clock) for its user is left at the next update. */
export const IDLE_MS = 30 * 60_000;

/**
 * Commands that start another conversation, and who may start it: the one under way is left (and says so)
 * before they run, but only for someone they will serve (staff typing /topup are refused by it and keep
 * their order).
 */
const LEAVING: readonly RoleCommand[] = ['order', 'topup', 'apikey', 'webhook', 'alerts', 'team', 'deposits'];

/**
 * What going on with a conversation takes, in the permission table (src/domain/permissions.ts): its
 * command's action, or for the others being a linked person of any role.
 */
function actionOf(command: string): Action {
  return (LEAVING as readonly string[]).includes(command) ? COMMAND_ACTION[command as RoleCommand] : 'orders.view';
}

const isOperatorAction = (action: Action) => !PERMISSIONS[action].some((r) => r !== 'operator');

/** What a Flow itself reads: the link and rights of the person, the clock, ids for its nonce, the log. */
export type FlowDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'ids' | 'log'>;

export type Checkpoint = ReturnType<Conv['checkpoint']>;

/** Where Back returns to: a checkpoint, and the message the step after it is shown in (null: a new one). */
export interface Back {
  cp: Checkpoint;
  at: number | null;
}

type Row = InlineKeyboardButton[];

export interface Menu {
  chatId: number;
  messageId: number;
  /** Where its Back button returns to. */
  back?: Back;
  /**
   * The actions its buttons carry, for a menu shown in place of an earlier one in the same message: a tap
   * on the earlier buttons that crossed the edit is then told the menu changed, not taken as an answer.
   */
  actions?: string[];
  /** What it says (before a group question's mention and hint) and its buttons, as sent. */
  text: string;
  keyboard: Row[];
  parseMode?: 'HTML';
  /** A group's force_reply question: no buttons, and it cannot be edited into a menu. */
  question?: boolean;
  /** A group question answered and rewritten as the one line of its answer (it stays; an unfolded one goes). */
  folded?: boolean;
}

export interface Pressed {
  action: string;
  ctx: ConvContext;
}

/** A typed answer that is not accepted: the message says why, and the user may answer again. */
export class Retry {
  constructor(readonly message: string) {}
}
export const retry = (message: string) => new Retry(message);

/**
 * What this process knows of the messages it shows beyond the replayed log (kept in memory, bounded): the
 * content a message shows now (a page turned in an update that was then dropped), and a group question
 * asked again as a new message. Lost on a restart, which only makes a hint show the step as first drawn.
 */
const MEMORY = 2000;
const showing = new Map<string, { text: string; keyboard: Row[]; parseMode?: 'HTML' }>();
const movedTo = new Map<string, number>();
const keyOf = (chatId: number, messageId: number) => `${chatId}:${messageId}`;
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MEMORY) map.delete(map.keys().next().value!);
}

/** Where the step after a `rewindInto` is shown (by conversation nonce): read once, through `external`. */
const redirect = new Map<string, { chatId: number; messageId: number }>();

const notModified = (err: unknown) => err instanceof GrammyError && /message is not modified/.test(err.description);

export class Flow {
  private readonly open = new Map<number, Menu>();
  /** The message the next step is shown in: the last menu shown, until a typed answer folds it. */
  private task: Menu | null = null;

  private constructor(
    readonly conversation: Conv,
    readonly ctx: ConvContext,
    readonly t: Texts,
    readonly nonce: string,
    private readonly deps: FlowDeps,
    /** The command that starts this conversation again (named when it is left). */
    private readonly resume: string,
    /** The partner the person was linked to when the conversation began (null for an operator's flow). */
    private readonly partnerId: number | null,
  ) {}

  static async start(conversation: Conv, ctx: ConvContext, deps: FlowDeps, resume: string): Promise<Flow> {
    const userId = ctx.from?.id;
    const chatId = ctx.chat?.id;
    const name = (ctx.from && displayName(ctx.from)) ?? String(userId ?? '');
    const begun = await conversation.external(() => {
      const nonce = deps.ids.hex(4);
      const partnerId = userId === undefined ? null : (findLink(deps, userId)?.partnerId ?? null);
      if (userId !== undefined) rememberFlowOwner(deps, nonce, { userId, name, partnerId, resume });
      return {
        nonce,
        partnerId,
        // an operator's flow in a chat whose ADMIN_CHAT_IDS entry names a language
        lang: isOperatorAction(actionOf(resume.slice(1))) && chatId !== undefined ? (configuredLanguage(deps, chatId) ?? null) : null,
      };
    });
    return new Flow(conversation, ctx, begun.lang ? textsOf(begun.lang) : textsFor(ctx.from?.language_code), begun.nonce, deps, resume, begun.partnerId);
  }

  /** A group (or supergroup): no secrets here, and typed answers come as replies. */
  get inGroup(): boolean {
    return !isPrivateChat(this.ctx.chat);
  }

  /** What this conversation is called in words ("order", "top-up"). */
  get activity(): string {
    return this.t.common.activity[this.resume] ?? this.resume;
  }

  /** Whether the person still has what this conversation needs, now (read from the database, not replayed). */
  allowedNow(): boolean {
    const action = actionOf(this.resume.slice(1));
    const chatId = this.ctx.chat?.id;
    const operator = chatId !== undefined && this.deps.config.ADMIN_CHAT_IDS.includes(String(chatId));
    if (isOperatorAction(action)) return may({ role: null, operator }, action);
    const userId = this.ctx.from?.id;
    const link = userId === undefined ? null : findLink(this.deps, userId);
    // the rights of a link to this conversation's partner
    return link !== null && link.partnerId === this.partnerId && may({ role: link.role, operator: false }, action);
  }

  /**
   * Runs a service call only while the person still has the rights (checked in the same synchronous step as
   * the call, so nothing can unlink them in between); otherwise an `access_lost` refusal, which `t.error` words.
   */
  guarded<T>(fn: () => T | Promise<T>): Promise<Outcome<T>> {
    if (!this.allowedNow()) return Promise.resolve({ ok: false, code: 'access_lost', detail: 'access lost', extra: {} });
    return attempt(fn);
  }

  /** A checkpoint for a Back button: the step after it is shown again in the message it is shown in now. */
  checkpoint(): Back {
    return { cp: this.conversation.checkpoint(), at: this.task?.messageId ?? null };
  }

  /**
   * Goes back to `back`'s checkpoint and shows the step after it in `menu`'s message (where the person is
   * looking: "Choose another" under a confirmation whose gift was sold), not in the message it was shown in.
   */
  async rewindInto(back: Back, menu: Menu): Promise<never> {
    this.open.delete(menu.messageId);
    redirect.set(this.nonce, { chatId: menu.chatId, messageId: menu.messageId });
    return this.conversation.rewind(back.cp);
  }

  /** Callback data of a button of this conversation. */
  data(action: string): string {
    return convData(this.nonce, action);
  }

  button(text: string, action: string): InlineKeyboardButton {
    return { text, callback_data: this.data(action) };
  }

  private keyboard(rows: Row[], back: Back | undefined, cancel: boolean): Row[] {
    const keyboard = rows.filter((r) => r.length > 0);
    if (back) keyboard.push([this.button(this.t.common.btnBack, 'back')]);
    if (cancel) keyboard.push([this.button(this.t.common.btnCancel, 'cancel')]);
    return keyboard;
  }

  /**
   * Shows a step with buttons of this conversation (a Back row with `back`, and a Cancel row), in the task
   * message (in place of the step before), or as a new message when there is none (the first step, or the
   * first after a typed answer) or with `fresh`.
   */
  async menu(text: string, rows: Row[] = [], opts: { back?: Back; parseMode?: 'HTML'; cancel?: boolean; fresh?: boolean } = {}): Promise<Menu> {
    const keyboard = this.keyboard(rows, opts.back, opts.cancel !== false);
    const extra = { reply_markup: { inline_keyboard: keyboard }, ...(opts.parseMode ? { parse_mode: opts.parseMode } : {}) };
    const into = await this.conversation.external(() => {
      const r = redirect.get(this.nonce) ?? null;
      redirect.delete(this.nonce);
      return r;
    });
    const prev = this.task;
    // a group question answered (and not folded into a line worth keeping) goes: the step says what follows
    if (!into && prev?.question && !prev.folded) {
      const shownId = await this.conversation.external(() => movedTo.get(keyOf(prev.chatId, prev.messageId)) ?? prev.messageId);
      await this.remove({ ...prev, messageId: shownId });
    }
    const target = into ? { ...into, text: '', keyboard: [] } : opts.fresh || prev?.question ? null : prev;
    const shown = target ? await this.replace(target, text, extra) : null;
    const m = shown ?? (await this.ctx.reply(text, extra));
    const actions = shown ? keyboard.flat().flatMap((b) => ('callback_data' in b && b.callback_data ? [b.callback_data.slice(`c:${this.nonce}:`.length)] : [])) : undefined;
    const menu: Menu = {
      chatId: m.chat.id,
      messageId: m.message_id,
      text,
      keyboard,
      ...(opts.parseMode ? { parseMode: opts.parseMode } : {}),
      ...(opts.back ? { back: opts.back } : {}),
      ...(actions ? { actions } : {}),
    };
    // (once: a replay of this step must not take back a page turned since)
    await this.conversation.external(() => this.shows(menu, text, keyboard));
    if (keyboard.length) this.open.set(m.message_id, menu);
    this.task = menu;
    return menu;
  }

  private shows(m: { chatId: number; messageId: number; parseMode?: 'HTML' }, text: string, keyboard: Row[]): void {
    remember(showing, keyOf(m.chatId, m.messageId), { text, keyboard, ...(m.parseMode ? { parseMode: m.parseMode } : {}) });
  }

  /** A step shown in the message of the step before; null when that message is gone (deleted, or too old to edit). */
  private async replace(prev: Menu, text: string, extra: object): Promise<{ chat: { id: number }; message_id: number } | null> {
    this.open.delete(prev.messageId);
    try {
      await this.ctx.api.editMessageText(prev.chatId, prev.messageId, text, extra);
    } catch (err) {
      if (!notModified(err)) {
        this.deps.log.info({ err }, 'bot step not shown in place');
        return null;
      }
    }
    return { chat: { id: prev.chatId }, message_id: prev.messageId };
  }

  /**
   * Asks for a typed answer. In a private chat this is a step like any other (its buttons: `rows`, Back and
   * Cancel). In a group it is a new message that names the person and comes with force_reply (selective:
   * their client opens a reply to it), since only replies reach the bot there; the step before it (a menu, or
   * a question answered) is deleted, so `text` must say what matters of it; Back and Cancel are then /cancel.
   */
  async prompt(text: string, opts: { back?: Back; parseMode?: 'HTML'; rows?: Row[] } = {}): Promise<Menu> {
    if (!this.inGroup) return this.menu(text, opts.rows ?? [], opts);
    // the step before (a menu, or a question answered) goes: this question says what matters of it
    const prev = this.task;
    if (prev?.question) {
      const shownId = await this.conversation.external(() => movedTo.get(keyOf(prev.chatId, prev.messageId)) ?? prev.messageId);
      await this.remove({ ...prev, messageId: shownId });
    } else if (prev) await this.remove(prev);
    const m = await this.ctx.reply(this.forGroup(text, opts.parseMode), { parse_mode: 'HTML', reply_markup: { force_reply: true, selective: true } });
    const q: Menu = { chatId: m.chat.id, messageId: m.message_id, text, keyboard: [], question: true, ...(opts.parseMode ? { parseMode: opts.parseMode } : {}), ...(opts.back ? { back: opts.back } : {}) };
    this.task = q;
    return q;
  }

  /** Deletes a message of this conversation (a step whose place a new message takes); without rights to, its buttons go. */
  private async remove(menu: Menu): Promise<void> {
    this.open.delete(menu.messageId);
    try {
      await this.ctx.api.deleteMessage(menu.chatId, menu.messageId);
    } catch {
      if (menu.keyboard.length) await this.ctx.api.editMessageReplyMarkup(menu.chatId, menu.messageId, { reply_markup: { inline_keyboard: [] } }).catch(() => undefined);
    }
  }

  /**
   * A question for the person in a group: their name as a mention (which `selective` needs), the text (a
   * sentence goes on after the name: "Sam, send the number…"), the hint.
   */
  private forGroup(text: string, parseMode?: 'HTML'): string {
    const from = this.ctx.from;
    const name = esc([from?.first_name, from?.last_name].filter(Boolean).join(' ') || this.t.common.you);
    const body = /^\p{Lu}\p{Ll}/u.test(text) ? text[0].toLowerCase() + text.slice(1) : text;
    return `<a href="tg://user?id=${from?.id ?? 0}">${name}</a>, ${parseMode === 'HTML' ? body : esc(body)}\n\n${esc(this.t.common.replyHint)}`;
  }

  /** Shows another content in a menu that stays open (a page turn, a new search). */
  async redraw(menu: Menu, text: string, rows: Row[]): Promise<void> {
    const keyboard = this.keyboard(rows, menu.back, true);
    try {
      await this.ctx.api.editMessageText(menu.chatId, menu.messageId, text, { reply_markup: { inline_keyboard: keyboard }, ...(menu.parseMode ? { parse_mode: menu.parseMode } : {}) });
    } catch (err) {
      // Two taps that crossed ask for the same content: the message already shows it.
      if (!notModified(err)) throw err;
    }
    this.shows(menu, text, keyboard);
  }

  /**
   * A line under a step that waits on (a wrong answer, a hint): the step's message shows it below what it
   * shows now, with the same buttons. In a group a question is asked again as a new message in place of the
   * old one (only a reply reaches the bot there, and force_reply opens one only on a new message).
   */
  async hint(menu: Menu, line: string): Promise<void> {
    if (menu.question) return this.askAgain(menu, line);
    // what the step shows now (a page turned meanwhile), without an earlier hint: the hint replaces it
    const now = showing.get(keyOf(menu.chatId, menu.messageId)) ?? { text: menu.text, keyboard: menu.keyboard, parseMode: menu.parseMode };
    const text = `${now.text}\n\n${now.parseMode === 'HTML' ? esc(line) : line}`;
    try {
      await this.ctx.api.editMessageText(menu.chatId, menu.messageId, text, { reply_markup: { inline_keyboard: now.keyboard }, ...(now.parseMode ? { parse_mode: now.parseMode } : {}) });
    } catch (err) {
      if (!notModified(err)) this.deps.log.info({ err }, 'bot hint not shown');
    }
  }

  /** A group question asked again with `line`: the question shown now goes, a new one takes its place. */
  private async askAgain(q: Menu, line: string): Promise<void> {
    const key = keyOf(q.chatId, q.messageId);
    const shownId = movedTo.get(key) ?? q.messageId;
    await this.ctx.api.deleteMessage(q.chatId, shownId).catch(() => undefined);
    const text = `${q.parseMode === 'HTML' ? q.text : esc(q.text)}\n\n${esc(line)}`;
    const m = await this.ctx.reply(this.forGroup(text, 'HTML'), { parse_mode: 'HTML', reply_markup: { force_reply: true, selective: true } });
    remember(movedTo, key, m.message_id);
  }

  /** Closes a menu: its buttons go, and with `text` the message shows what was chosen. */
  async settle(menu: Menu, text?: string): Promise<void> {
    if (!this.open.delete(menu.messageId)) return;
    try {
      if (text !== undefined) await this.ctx.api.editMessageText(menu.chatId, menu.messageId, text);
      else await this.ctx.api.editMessageReplyMarkup(menu.chatId, menu.messageId, { reply_markup: { inline_keyboard: [] } });
    } catch (err) {
      // Deleted by the user, or too old to edit (48 h): nothing left to fix.
      if (!notModified(err)) this.deps.log.info({ err }, 'bot menu not closed');
    }
  }

  /** A menu's outcome shown in its place (its buttons go); sent as a new message when it cannot be edited. */
  async result(menu: Menu, text: string, rows: Row[] = []): Promise<{ chatId: number; messageId: number }> {
    this.open.delete(menu.messageId);
    if (this.task?.messageId === menu.messageId) this.task = null;
    try {
      await this.ctx.api.editMessageText(menu.chatId, menu.messageId, text, { reply_markup: { inline_keyboard: rows } });
      return { chatId: menu.chatId, messageId: menu.messageId };
    } catch (err) {
      if (notModified(err)) return { chatId: menu.chatId, messageId: menu.messageId };
      this.deps.log.info({ err }, 'bot menu not edited into its result');
      const m = await this.ctx.api.sendMessage(menu.chatId, text, { reply_markup: { inline_keyboard: rows } });
      return { chatId: m.chat.id, messageId: m.message_id };
    }
  }

  /**
   * The task's outcome: in the task message when there is one (a step with buttons: they go), else as a new
   * message (after a typed answer). `rows` are buttons that outlive the conversation (links, copy buttons).
   */
  async done(text: string, opts: { parseMode?: 'HTML'; rows?: Row[]; ctx?: ConvContext; linkPreview?: false } = {}): Promise<{ chatId: number; messageId: number }> {
    const rows = opts.rows ?? [];
    const extra = {
      reply_markup: { inline_keyboard: rows },
      ...(opts.parseMode ? { parse_mode: opts.parseMode } : {}),
      ...(opts.linkPreview === false ? { link_preview_options: { is_disabled: true } } : {}),
    };
    // a group's question takes a text, not buttons: with buttons the outcome is a new message in its place
    const task = this.task;
    const target = task && (!task.question || rows.length === 0) ? task : null;
    this.task = null;
    if (task?.question && !target) {
      const shownId = await this.conversation.external(() => movedTo.get(keyOf(task.chatId, task.messageId)) ?? task.messageId);
      await this.remove({ ...task, messageId: shownId });
    }
    if (target) {
      this.open.delete(target.messageId);
      const id = target.question ? await this.conversation.external(() => movedTo.get(keyOf(target.chatId, target.messageId)) ?? target.messageId) : target.messageId;
      try {
        await this.ctx.api.editMessageText(target.chatId, id, text, extra);
        return { chatId: target.chatId, messageId: id };
      } catch (err) {
        if (notModified(err)) return { chatId: target.chatId, messageId: id };
        this.deps.log.info({ err }, 'bot outcome not shown in place');
      }
    }
    const m = await (opts.ctx ?? this.ctx).reply(text, extra);
    return { chatId: m.chat.id, messageId: m.message_id };
  }

  /** An answered question: rewritten as `text` (a group's question too, which has no buttons), else closed. */
  async fold(menu: Menu, text?: string): Promise<void> {
    if (!menu.question) return this.settle(menu, text);
    if (text === undefined) return;
    menu.folded = true;
    // a group question asked again is shown under another message id
    const shownId = await this.conversation.external(() => movedTo.get(keyOf(menu.chatId, menu.messageId)) ?? menu.messageId);
    try {
      await this.ctx.api.editMessageText(menu.chatId, shownId, text);
    } catch (err) {
      this.deps.log.info({ err }, 'bot question not folded');
    }
  }

  /** Removes the buttons of every menu still open (the conversation ends). */
  async clear(): Promise<void> {
    for (const m of [...this.open.values()]) await this.settle(m);
  }

  /**
   * Waits for a button of `menu`. Typed text goes to `words` (an answer typed instead of pressed: its action,
   * or null), then to `typed` (a new search that redraws the menu), else gets a hint in the menu. `turn` may
   * handle a button in place (a page turn). Either way the update is then dropped, so the menu's content
   * lives only in its message and its buttons.
   */
  async choose(
    menu: Menu,
    opts: { turn?: (p: Pressed) => Promise<boolean>; typed?: (text: string, ctx: ConvContext) => Promise<void>; words?: (text: string) => string | null } = {},
  ): Promise<Pressed> {
    const input = await this.next(menu);
    if (input.kind === 'text') {
      const action = opts.words?.(input.text) ?? null;
      if (action !== null) return { action, ctx: input.ctx };
      if (!opts.typed) {
        await this.hint(menu, this.t.common.useButtons);
        return this.conversation.skip();
      }
      await opts.typed(input.text, input.ctx);
      return this.conversation.skip();
    }
    if (opts.turn && (await opts.turn(input))) return this.conversation.skip();
    return input;
  }

  /**
   * Waits for a typed answer to `menu`. `parse` returns the value, or the message that explains what is
   * wrong (shown in the question's message; the user may try again, as often as they like). Once answered,
   * the question folds away: with `fold` it is rewritten as the one line of what was answered, else its
   * buttons go (the next step is shown in its place, unless it is a new message: `menu`'s `fresh`).
   */
  async ask<T>(menu: Menu, parse: (text: string, ctx: ConvContext) => Promise<T | Retry>, fold?: (value: T) => string | undefined): Promise<{ value: T; ctx: ConvContext }> {
    const input = await this.next(menu);
    if (input.kind !== 'text') return this.conversation.skip();
    return this.answered(menu, input, parse, fold);
  }

  /** `ask`, where a button of the question (its `rows`) answers too: the pressed action comes back as is. */
  async askOrPress<T>(
    menu: Menu,
    parse: (text: string, ctx: ConvContext) => Promise<T | Retry>,
    fold?: (value: T) => string | undefined,
  ): Promise<{ value: T; ctx: ConvContext } | { action: string; ctx: ConvContext }> {
    const input = await this.next(menu);
    if (input.kind === 'button') return { action: input.action, ctx: input.ctx };
    return this.answered(menu, input, parse, fold);
  }

  private async answered<T>(
    menu: Menu,
    input: { text: string; ctx: ConvContext },
    parse: (text: string, ctx: ConvContext) => Promise<T | Retry>,
    fold?: (value: T) => string | undefined,
  ): Promise<{ value: T; ctx: ConvContext }> {
    const r = await parse(input.text, input.ctx);
    if (r instanceof Retry) {
      // what was typed is quoted, so a second wrong answer changes the message too
      const typed = [...input.text].length > 40 ? `${[...input.text].slice(0, 39).join('')}…` : input.text;
      await this.hint(menu, this.t.common.notAccepted(typed, r.message));
      return this.conversation.skip();
    }
    await this.fold(menu, fold?.(r));
    return { value: r, ctx: input.ctx };
  }

  /** The message that says how the conversation ended: the pressed menu, else the task message. */
  private shownMenu(pressedId?: number): Menu | undefined {
    return (pressedId === undefined ? undefined : this.open.get(pressedId)) ?? this.task ?? undefined;
  }

  /** Writes how the conversation ended into its message (its buttons go, the others' too); a new message when there is none. */
  private async end(text: string, pressedId: number | undefined, ctx: ConvContext, replyIfNone: boolean): Promise<void> {
    const m = this.shownMenu(pressedId);
    if (m) {
      // a group question asked again is shown under another id; a question has no buttons to wait for
      const id = m.question ? (movedTo.get(keyOf(m.chatId, m.messageId)) ?? m.messageId) : m.messageId;
      this.open.delete(m.messageId);
      this.open.set(id, { ...m, messageId: id });
      await this.settle({ ...m, messageId: id }, text);
    }
    await this.clear();
    if (!m && replyIfNone) await ctx.reply(text);
  }

  /** Ends the conversation after a cancel (a button or a typed /cancel): its message says so. */
  private async cancel(ctx: ConvContext): Promise<never> {
    await this.end(this.t.common.cancelled, ctx.callbackQuery?.message?.message_id, ctx, true);
    return this.conversation.halt();
  }

  /**
   * Whether the command would start its conversation for this user (it refuses otherwise; in a group the
   * owner's secret flows only offer the private chat, so they leave nothing here).
   */
  private async mayStart(command: string, ctx: ConvContext): Promise<boolean> {
    const action = actionOf(command);
    const userId = ctx.from?.id;
    const chatId = ctx.chat?.id;
    if (isPrivateOnly(command) && !isPrivateChat(ctx.chat)) return false;
    return this.conversation.external(() => {
      if (isOperatorAction(action)) return may({ role: null, operator: chatId !== undefined && this.deps.config.ADMIN_CHAT_IDS.includes(String(chatId)) }, action);
      const link = userId === undefined ? null : findLink(this.deps, userId);
      return link !== null && may({ role: link.role, operator: false }, action);
    });
  }

  /** Why this conversation stopped when the person lost what it needs, naming the partner (read now). */
  private async accessEnded(): Promise<string> {
    const r = await this.conversation.external(() => {
      const userId = this.ctx.from?.id;
      const link = userId === undefined ? null : findLink(this.deps, userId);
      const why = link === null ? ('removed' as const) : link.partnerId !== this.partnerId ? ('moved' as const) : ('role' as const);
      if (this.partnerId === null) return { name: null, why };
      try {
        return { name: partnerView(this.deps, this.partnerId).name, why };
      } catch {
        return { name: null, why };
      }
    });
    return commonView.accessEnded(this.t, r.name, this.resume, r.why);
  }

  private async next(menu: Menu): Promise<{ kind: 'button'; action: string; ctx: ConvContext } | { kind: 'text'; text: string; ctx: ConvContext }> {
    const { conversation, t } = this;
    const since = await conversation.external(() => this.deps.clock.now());
    const ctx = await conversation.wait();
    const at = await conversation.external(() => this.deps.clock.now());
    const data = ctx.callbackQuery?.data;
    const text = ctx.message?.text?.trim();
    const ours = data?.startsWith(`c:${this.nonce}:`) === true;
    const typed = text !== undefined ? /^\/([A-Za-z0-9_]+)(@\w+)?(?:\s+(\S+))?/.exec(text) : null;
    // A deep link's /start opens the flow it names (bot/private-chat.ts): the same as that command.
    const deep = typed?.[1]?.toLowerCase() === 'start' && typed[3] !== undefined && isPrivateOnly(typed[3]) ? (typed[3] === 'invite' ? 'team' : typed[3]) : undefined;
    const command = deep ?? typed?.[1]?.toLowerCase();
    const pressedId = ours ? ctx.callbackQuery?.message?.message_id : undefined;

    /** The conversation stops here: its message says `notice`; a tap is answered with it too. */
    const stop = async (notice: string, alert: boolean): Promise<never> => {
      await this.end(notice, pressedId, ctx, text !== undefined && command === undefined);
      if (ours) {
        await ctx.answerCallbackQuery({ text: notice.slice(0, 200), ...(alert ? { show_alert: true } : {}) });
        return conversation.halt();
      }
      if (text !== undefined && command === undefined) return conversation.halt();
      return conversation.halt({ next: true });
    };

    // Idle too long: the message says so; anything else (a command) is handled as usual.
    if (at - since >= IDLE_MS) return stop(commonView.idle(t, this.resume), false);

    // Unlinked, moved to another partner, or no longer an owner: the conversation stops here and does nothing.
    if (!(await conversation.external(() => this.allowedNow()))) return stop(await this.accessEnded(), true);

    if (data !== undefined) {
      // An operator's deposit button starts its own conversation: this one is left first.
      if (data.startsWith('dp:')) {
        await this.clear();
        return conversation.halt({ next: true });
      }
      // Buttons of other messages (/orders paging, an operator's review) are handled outside; this waits on.
      if (!ours) return conversation.skip({ next: true });
      const action = data.slice(`c:${this.nonce}:`.length);
      await ctx.answerCallbackQuery();
      if (action === 'cancel') return this.cancel(ctx);
      if (pressedId !== menu.messageId) return conversation.skip();
      // a button of the step this message showed before (a tap that crossed the edit); a page turned since
      // shows other buttons of the same step
      if (menu.actions) {
        const now = await conversation.external(() => showing.get(keyOf(menu.chatId, menu.messageId))?.keyboard.flat().flatMap((b) => ('callback_data' in b && b.callback_data ? [b.callback_data] : [])) ?? null);
        const actions = now ? now.filter((d) => d.startsWith(`c:${this.nonce}:`)).map((d) => d.slice(`c:${this.nonce}:`.length)) : menu.actions;
        if (!actions.includes(action) && !menu.actions.includes(action)) return conversation.skip();
      }
      if (action === 'back' && menu.back) {
        // The step Back returns to is shown in the message it was shown in; this one goes when that is another.
        this.open.delete(menu.messageId);
        if (menu.messageId !== menu.back.at) await this.remove(menu);
        return conversation.rewind(menu.back.cp);
      }
      return { kind: 'button', action, ctx };
    }

    if (text !== undefined) {
      if (command === 'cancel') return this.cancel(ctx);
      if (command !== undefined && (LEAVING as readonly string[]).includes(command) && (await this.mayStart(command, ctx))) {
        await this.end(`/${command}` === this.resume ? commonView.restarted(t, this.resume) : commonView.left(t, this.resume), undefined, ctx, false);
        return conversation.halt({ next: true });
      }
      // Other commands (/balance, /orders, /help …) are answered as usual and this conversation waits on.
      if (command !== undefined) return conversation.skip({ next: true });
      return { kind: 'text', text, ctx };
    }
    // A sticker or a photo gets a hint; edits and other updates are ignored.
    if (ctx.message) {
      await this.hint(menu, t.common.useButtons);
      return conversation.skip();
    }
    return conversation.skip();
  }
}

/**
 * A conversation built on a Flow: whatever way its body returns or fails, the buttons of its menus go.
 * (A halt, skip or rewind does not come back here: the Flow closes the menus itself before those.)
 */
export function flowConversation<A extends unknown[]>(deps: FlowDeps, resume: string, body: (flow: Flow, ...args: A) => Promise<void>) {
  return async (conversation: Conv, ctx: ConvContext, ...args: A): Promise<void> => {
    const flow = await Flow.start(conversation, ctx, deps, resume);
    try {
      await body(flow, ...args);
    } catch (e) {
      await flow.clear().catch(() => undefined);
      throw e;
    }
    await flow.clear();
  };
}
