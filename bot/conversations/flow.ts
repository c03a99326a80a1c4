import { GrammyError } from 'grammy';
import type { InlineKeyboardButton } from 'grammy/types';
import { findLink } from '../../src/app/bot-users.js';
import type { Deps } from '../../src/app/deps.js';
import type { Conv, ConvContext } from '../context.js';
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
 * The rules of conversations v2 (grammY docs, "Conversations": replay) apply: the function is replayed from the top on every
 * update, so the clock and randomness come through `conversation.external`. Input that does not move the
 * conversation on (a wrong username, a page turn, a sticker, a command answered outside) is answered and
 * then dropped with `conversation.skip()`, so the stored state does not grow with it and nothing counts
 * attempts: people may correct an entry as often as they like, and a conversation ends only on /cancel,
 * on a command that starts something else, on idleness (IDLE_MS of service clock), or when it is done.
 * Back buttons return to a checkpoint taken before an earlier step (`conversation.rewind`), which also
 * keeps the state small. Every menu this conversation sent is remembered until it is answered, and when
 * the conversation ends its remaining buttons are removed, so no button outlives its conversation.
 *
 * Rights are checked again at every step (operator-api.md section 4): the person's link must still be to the
 * partner it was to when the conversation began, with the role the conversation needs (or, for an operator's
 * flow, the chat must still be an operator chat). Otherwise the conversation stops at that step and does
 * nothing; the actions that issue a secret or move money check again in the same synchronous step as the
 * service call (`guarded`).
 *
 * In a group, typed answers are asked for with force_reply: under Telegram's default privacy mode the bot
 * only receives commands and replies to its own messages there.
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

/**
 * Menus deleted by their Back button ("chat:message"), so the step Back returns to is sent anew rather than
 * edited into a message that is gone. Kept in memory and bounded: after a restart such an edit is refused
 * and the step is sent anew all the same.
 */
const deletedByBack = new Set<string>();
function rememberDeleted(chatId: number, messageId: number): void {
  deletedByBack.add(`${chatId}:${messageId}`);
  if (deletedByBack.size > 1000) deletedByBack.delete(deletedByBack.values().next().value!);
}

export interface Menu {
  chatId: number;
  messageId: number;
  /** Where its Back button returns to. */
  back?: Checkpoint;
  /**
   * The actions its buttons carry, for a menu shown in place of an earlier one in the same message: a tap
   * on the earlier buttons that crossed the edit is then told the menu changed, not taken as an answer.
   */
  actions?: string[];
}

export interface Pressed {
  action: string;
  ctx: ConvContext;
}

type Row = InlineKeyboardButton[];

/** A typed answer that is not accepted: the message says why, and the user may answer again. */
export class Retry {
  constructor(readonly message: string) {}
}
export const retry = (message: string) => new Retry(message);

export class Flow {
  private readonly open = new Map<number, Menu>();

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
    const begun = await conversation.external(() => ({
      nonce: deps.ids.hex(4),
      partnerId: userId === undefined ? null : (findLink(deps, userId)?.partnerId ?? null),
      // an operator's flow in a chat whose ADMIN_CHAT_IDS entry names a language
      lang: isOperatorAction(actionOf(resume.slice(1))) && chatId !== undefined ? (configuredLanguage(deps, chatId) ?? null) : null,
    }));
    return new Flow(conversation, ctx, begun.lang ? textsOf(begun.lang) : textsFor(ctx.from?.language_code), begun.nonce, deps, resume, begun.partnerId);
  }

  /** A group (or supergroup): no secrets here, and typed answers come as replies. */
  get inGroup(): boolean {
    return !isPrivateChat(this.ctx.chat);
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

  /** Callback data of a button of this conversation. */
  data(action: string): string {
    return convData(this.nonce, action);
  }

  button(text: string, action: string): InlineKeyboardButton {
    return { text, callback_data: this.data(action) };
  }

  /** Sends a message with buttons of this conversation; a Back row (with `back`) and a Cancel row are added. */
  async menu(text: string, rows: Row[] = [], opts: { back?: Checkpoint; parseMode?: 'HTML'; cancel?: boolean; replacing?: Menu } = {}): Promise<Menu> {
    const keyboard = rows.filter((r) => r.length > 0);
    if (opts.back) keyboard.push([this.button(this.t.common.btnBack, 'back')]);
    if (opts.cancel !== false) keyboard.push([this.button(this.t.common.btnCancel, 'cancel')]);
    const extra = { reply_markup: { inline_keyboard: keyboard }, ...(opts.parseMode ? { parse_mode: opts.parseMode } : {}) };
    const shown = opts.replacing ? await this.replace(opts.replacing, text, extra) : null;
    const m = shown ?? (await this.ctx.reply(text, extra));
    const actions = opts.replacing ? keyboard.flat().flatMap((b) => ('callback_data' in b && b.callback_data ? [b.callback_data.slice(`c:${this.nonce}:`.length)] : [])) : undefined;
    const menu: Menu = { chatId: m.chat.id, messageId: m.message_id, ...(opts.back ? { back: opts.back } : {}), ...(actions ? { actions } : {}) };
    if (keyboard.length) this.open.set(m.message_id, menu);
    return menu;
  }

  /**
   * The next step shown in the message of the step before (fewer messages for one order); null when that
   * message is gone (deleted by Back, or too old to edit): then the step is sent as a new message.
   */
  private async replace(prev: Menu, text: string, extra: object): Promise<{ chat: { id: number }; message_id: number } | null> {
    this.open.delete(prev.messageId);
    // read through `external`, so a replay (after a restart too) takes the path the first run took
    if (await this.conversation.external(() => deletedByBack.has(`${prev.chatId}:${prev.messageId}`))) return null;
    try {
      await this.ctx.api.editMessageText(prev.chatId, prev.messageId, text, extra);
      return { chat: { id: prev.chatId }, message_id: prev.messageId };
    } catch (err) {
      this.deps.log.info({ err }, 'bot menu not replaced');
      return null;
    }
  }

  /**
   * Asks for a typed answer. In a private chat the question has its Back and Cancel buttons; in a group it
   * names the person and comes with force_reply (selective: their client opens a reply to it), since only
   * replies reach the bot there; Back and Cancel are then /cancel. `rows`: buttons that answer instead of a
   * text (private chats only: see `askOrPress`).
   */
  async prompt(text: string, opts: { back?: Checkpoint; parseMode?: 'HTML'; rows?: Row[]; replacing?: Menu; replacedAs?: string } = {}): Promise<Menu> {
    if (!this.inGroup) return this.menu(text, opts.rows ?? [], opts);
    // force_reply cannot be added by an edit: in a group the question is a new message, the step before
    // settles (into `replacedAs`, its answer, so it does not stay an unanswered question)
    if (opts.replacing) await this.settle(opts.replacing, opts.replacedAs);
    const m = await this.ctx.reply(this.forGroup(text, opts.parseMode), { parse_mode: 'HTML', reply_markup: { force_reply: true, selective: true } });
    return { chatId: m.chat.id, messageId: m.message_id };
  }

  /**
   * A one-line question or hint beside a menu that waits on (its typed answer goes to `choose`'s `typed`):
   * in a group as a force_reply question, since only replies reach the bot there.
   */
  async note(ctx: ConvContext, text: string): Promise<void> {
    if (this.inGroup) await ctx.reply(this.forGroup(text), { parse_mode: 'HTML', reply_markup: { force_reply: true, selective: true } });
    else await ctx.reply(text);
  }

  /** A question for the person in a group: their name as a mention (which `selective` needs), the text, the hint. */
  private forGroup(text: string, parseMode?: 'HTML'): string {
    const from = this.ctx.from;
    const name = esc([from?.first_name, from?.last_name].filter(Boolean).join(' ') || this.t.common.you);
    return `<a href="tg://user?id=${from?.id ?? 0}">${name}</a>, ${parseMode === 'HTML' ? text : esc(text)}\n\n${esc(this.t.common.replyHint)}`;
  }

  /** Shows another content in a menu that stays open (a page turn). */
  async redraw(menu: Menu, text: string, rows: Row[]): Promise<void> {
    const keyboard = rows.filter((r) => r.length > 0);
    if (menu.back) keyboard.push([this.button(this.t.common.btnBack, 'back')]);
    keyboard.push([this.button(this.t.common.btnCancel, 'cancel')]);
    try {
      await this.ctx.api.editMessageText(menu.chatId, menu.messageId, text, { reply_markup: { inline_keyboard: keyboard } });
    } catch (err) {
      // Two taps that crossed ask for the same content: the message already shows it.
      if (!(err instanceof GrammyError && /message is not modified/.test(err.description))) throw err;
    }
  }

  /** Closes a menu: its buttons go, and with `text` the message shows what was chosen. */
  async settle(menu: Menu, text?: string): Promise<void> {
    if (!this.open.delete(menu.messageId)) return;
    try {
      if (text !== undefined) await this.ctx.api.editMessageText(menu.chatId, menu.messageId, text);
      else await this.ctx.api.editMessageReplyMarkup(menu.chatId, menu.messageId, { reply_markup: { inline_keyboard: [] } });
    } catch (err) {
      // Deleted by the user, or too old to edit (48 h): nothing left to fix.
      this.deps.log.info({ err }, 'bot menu not closed');
    }
  }

  /** A menu's outcome shown in its place (its buttons go); sent as a new message when it cannot be edited. */
  async result(menu: Menu, text: string): Promise<void> {
    this.open.delete(menu.messageId);
    try {
      await this.ctx.api.editMessageText(menu.chatId, menu.messageId, text);
    } catch (err) {
      this.deps.log.info({ err }, 'bot menu not edited into its result');
      await this.ctx.api.sendMessage(menu.chatId, text);
    }
  }

  /** An answered question: rewritten as `text` (a group's question too, which has no buttons), else closed. */
  async fold(menu: Menu, text?: string): Promise<void> {
    if (text === undefined || this.open.has(menu.messageId)) return this.settle(menu, text);
    try {
      await this.ctx.api.editMessageText(menu.chatId, menu.messageId, text);
    } catch (err) {
      this.deps.log.info({ err }, 'bot question not folded');
    }
  }

  /** Removes the buttons of every menu still open (the conversation ends). */
  async clear(): Promise<void> {
    for (const m of [...this.open.values()]) await this.settle(m);
  }

  /**
   * Waits for a button of `menu`; typed text gets a hint, or goes to `typed` when given (a new search that
   * redraws the menu). `turn` may handle a button in place (a page turn). Either way the update is then
   * dropped, so the menu's content lives only in its message and its buttons.
   */
  async choose(menu: Menu, turn?: (p: Pressed) => Promise<boolean>, typed?: (text: string, ctx: ConvContext) => Promise<void>): Promise<Pressed> {
    const input = await this.next(menu);
    if (input.kind === 'text') {
      if (!typed) return this.again(input.ctx, this.t.common.useButtons);
      await typed(input.text, input.ctx);
      return this.conversation.skip();
    }
    if (turn && (await turn(input))) return this.conversation.skip();
    return input;
  }

  /**
   * Waits for a typed answer to `menu`. `parse` returns the value, or the message that explains what is
   * wrong (then the user may try again, as often as they like). Once answered, the question folds away: with
   * `fold` it is rewritten as the one line of what was answered, else its buttons go.
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
      // In a group the correction must be a reply again.
      if (this.inGroup) {
        await input.ctx.reply(this.forGroup(r.message), { parse_mode: 'HTML', reply_markup: { force_reply: true, selective: true } });
        return this.conversation.skip();
      }
      return this.again(input.ctx, r.message);
    }
    await this.fold(menu, fold?.(r));
    return { value: r, ctx: input.ctx };
  }

  /** Answers an input that does not move the conversation on, and forgets it. */
  async again(ctx: ConvContext, text: string, parseMode?: 'HTML'): Promise<never> {
    await ctx.reply(text, parseMode ? { parse_mode: parseMode } : {});
    return this.conversation.skip();
  }

  /** Ends the conversation after a cancel: the pressed menu says so, the others lose their buttons. */
  private async cancel(ctx: ConvContext): Promise<never> {
    const pressed = ctx.callbackQuery?.message?.message_id;
    const menu = pressed === undefined ? undefined : this.open.get(pressed);
    if (menu) await this.settle(menu, this.t.common.cancelled);
    await this.clear();
    if (!menu) await ctx.reply(this.t.common.cancelled);
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
    const deep = typed?.[1]?.toLowerCase() === 'start' && typed[3] !== undefined && isPrivateOnly(typed[3]) ? typed[3] : undefined;
    const command = deep ?? typed?.[1]?.toLowerCase();

    if (at - since >= IDLE_MS) {
      // Idle too long: the menus go; the user hears why, and anything else is handled as usual.
      const notice = commonView.idle(t, this.resume);
      const tapped = ours ? this.open.get(ctx.callbackQuery?.message?.message_id ?? -1) : undefined;
      // A tap on a menu: the toast, and the menu itself says why (not a second message saying it again).
      if (tapped) await this.settle(tapped, notice);
      await this.clear();
      if (ours) {
        await ctx.answerCallbackQuery({ text: notice.slice(0, 200) });
        if (!tapped) await ctx.reply(notice);
        return conversation.halt();
      }
      if (text !== undefined && command === undefined) {
        await ctx.reply(notice);
        return conversation.halt();
      }
      return conversation.halt({ next: true });
    }

    // Unlinked, moved to another partner, or no longer an owner: the conversation stops here and does nothing.
    if (!(await conversation.external(() => this.allowedNow()))) {
      await this.clear();
      if (ours) {
        await ctx.answerCallbackQuery({ text: t.common.accessLost.slice(0, 200), show_alert: true });
        return conversation.halt();
      }
      if (text !== undefined && command === undefined) {
        await ctx.reply(t.common.accessLost);
        return conversation.halt();
      }
      return conversation.halt({ next: true });
    }

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
      if (action === 'back' && menu.back) {
        this.open.delete(menu.messageId);
        try {
          await ctx.api.deleteMessage(menu.chatId, menu.messageId);
          rememberDeleted(menu.chatId, menu.messageId);
        } catch {
          await ctx.api.editMessageReplyMarkup(menu.chatId, menu.messageId, { reply_markup: { inline_keyboard: [] } }).catch(() => undefined);
        }
        return conversation.rewind(menu.back);
      }
      if (ctx.callbackQuery?.message?.message_id !== menu.messageId) return conversation.skip();
      // a button of the step this message showed before (a tap that crossed the edit)
      if (menu.actions && !menu.actions.includes(action)) return conversation.skip();
      return { kind: 'button', action, ctx };
    }

    if (text !== undefined) {
      if (command === 'cancel') return this.cancel(ctx);
      if (command !== undefined && (LEAVING as readonly string[]).includes(command) && (await this.mayStart(command, ctx))) {
        await this.clear();
        await ctx.reply(`/${command}` === this.resume ? commonView.restarted(t, this.resume) : commonView.left(t, this.resume));
        return conversation.halt({ next: true });
      }
      // Other commands (/balance, /orders, /help …) are answered as usual and this conversation waits on.
      if (command !== undefined) return conversation.skip({ next: true });
      return { kind: 'text', text, ctx };
    }
    // A sticker or a photo gets a hint; edits and other updates are ignored.
    if (ctx.message) return this.again(ctx, t.common.useButtons);
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
