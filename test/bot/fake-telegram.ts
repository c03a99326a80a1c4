import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Bot API server over real HTTP that answers like Telegram, for the real grammY client
 * (`client.apiRoot`). It serves queued updates to `getUpdates` (long polling with a short hold and
 * offset confirmation), records what the bot sends, and keeps every sent message with its current text
 * and buttons so a test can press them. Errors follow Telegram's: bad button data, empty text, editing a
 * missing message, and "message is not modified" for an identical edit. Group chats (negative ids) follow
 * Telegram's default privacy mode: only commands and replies to the bot's messages reach the bot.
 */

export const BOT_USER = { id: 7_000_000_001, is_bot: true, first_name: 'Partner Bot', username: 'partner_test_bot' };

export interface TgUser {
  id: number;
  first_name: string;
  last_name?: string;
  language_code?: string;
  username?: string;
}

export interface InlineButton {
  text: string;
  callback_data?: string;
  url?: string;
  copy_text?: { text: string };
  web_app?: { url: string };
}

export interface BotMessage {
  message_id: number;
  chat_id: number;
  text: string;
  parse_mode?: string;
  buttons: InlineButton[][];
  /** A reply_markup other than an inline keyboard (force_reply), as sent. */
  forceReply?: { force_reply: true; selective?: boolean; input_field_placeholder?: string };
  /** The message it answers (reply_parameters). */
  replyTo?: number;
  deleted: boolean;
  /** Every text the message had, in order (sent, then edits). */
  history: string[];
  /** When it was last sent or its text edited (the server's `changes` count then). */
  changed?: number;
}

export interface Call {
  method: string;
  payload: Record<string, any>;
  /** The error description the server answered with, when it refused the call. */
  error?: string;
}

class TgError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
  ) {
    super(description);
  }
}

export class FakeTelegram {
  readonly token: string;
  readonly calls: Call[] = [];
  readonly messages: BotMessage[] = [];
  /** Sent messages and text edits so far (a clock for "shown since"). */
  changes = 0;
  private server!: http.Server;
  private port = 0;
  private updates: any[] = [];
  private nextUpdateId = 1;
  private nextMessageId = 1000;
  private nextUserMessageId = 1;
  private nextCallbackId = 1;
  private waiters = new Set<() => void>();
  /** Longest a getUpdates call is held open (the real server holds up to `timeout` seconds). */
  maxHoldMs = 500;
  /** While true every call answers 502 Bad Gateway (the Bot API is down). */
  down = false;
  /** Chats whose user blocked the bot: sending to them answers 403, as Telegram does. */
  readonly blocked = new Set<number>();

  constructor(token = '123456:TEST-token') {
    this.token = token;
  }

  get apiRoot(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    for (const w of this.waiters) w();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- what users do

  private push(update: Record<string, unknown>): number {
    const update_id = this.nextUpdateId++;
    this.updates.push({ update_id, ...update });
    for (const w of this.waiters) w();
    return update_id;
  }

  /** Messages sent in groups that Telegram's privacy mode kept from the bot (neither a command nor a reply to it). */
  readonly withheld: { chatId: number; text: string }[] = [];

  /**
   * A text message from `user` in their private chat, or in a group (negative `chatId`); `replyTo` makes it a
   * reply. Commands get their bot_command entity. In a group, a message that is neither a command nor a reply
   * to the bot is not delivered (privacy mode): it returns -1.
   */
  send(user: TgUser, text: string, chatId = user.id, replyTo?: BotMessage): number {
    const m = /^\/[A-Za-z0-9_]+(@\w+)?/.exec(text);
    if (chatId < 0 && !m && !(replyTo && replyTo.chat_id === chatId)) {
      this.withheld.push({ chatId, text });
      return -1;
    }
    return this.push({
      message: {
        message_id: this.nextUserMessageId++,
        date: Math.floor(Date.now() / 1000),
        chat: chatId > 0 ? { id: chatId, type: 'private', first_name: user.first_name } : { id: chatId, type: 'group', title: 'Group' },
        from: { is_bot: false, ...user },
        text,
        ...(m ? { entities: [{ type: 'bot_command', offset: 0, length: m[0].length }] } : {}),
        ...(replyTo ? { reply_to_message: this.toMessage(replyTo) } : {}),
      },
    });
  }

  /** A sticker (a message without text). */
  sendSticker(user: TgUser): number {
    return this.push({
      message: {
        message_id: this.nextUserMessageId++,
        date: Math.floor(Date.now() / 1000),
        chat: { id: user.id, type: 'private', first_name: user.first_name },
        from: { is_bot: false, ...user },
        sticker: { file_id: 'x', file_unique_id: 'x', type: 'regular', width: 512, height: 512, is_animated: false, is_video: false },
      },
    });
  }

  /** Presses an inline button of a message the bot sent. */
  press(user: TgUser, msg: BotMessage, data: string): number {
    return this.push({
      callback_query: {
        id: String(this.nextCallbackId++),
        from: { is_bot: false, ...user },
        chat_instance: `ci-${msg.chat_id}`,
        data,
        message: this.toMessage(msg),
      },
    });
  }

  // ---- what the bot did

  to(chatId: number): BotMessage[] {
    return this.messages.filter((m) => m.chat_id === chatId);
  }

  last(chatId: number): BotMessage | undefined {
    const list = this.to(chatId);
    return list[list.length - 1];
  }

  callsOf(method: string): Call[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Calls the server refused (a bot that checks before it edits has none). */
  get refused(): Call[] {
    return this.calls.filter((c) => c.error !== undefined);
  }

  /** Updates not yet confirmed by an offset. */
  get pending(): number {
    return this.updates.length;
  }

  // ---- the HTTP side

  private toMessage(m: BotMessage) {
    return {
      message_id: m.message_id,
      date: Math.floor(Date.now() / 1000),
      chat: m.chat_id > 0 ? { id: m.chat_id, type: 'private', first_name: 'User' } : { id: m.chat_id, type: 'group', title: 'Group' },
      from: BOT_USER,
      text: m.text,
      ...(m.buttons.length ? { reply_markup: { inline_keyboard: m.buttons } } : {}),
    };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(req.url ?? '');
    const reply = (status: number, body: unknown) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!m) return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
    if (m[1] !== this.token) return reply(401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const method = m[2];
    let payload: Record<string, any> = {};
    const raw = Buffer.concat(chunks).toString('utf8');
    if (raw) {
      try {
        payload = JSON.parse(raw);
      } catch {
        return reply(400, { ok: false, error_code: 400, description: 'Bad Request: invalid JSON' });
      }
    }
    const call: Call = { method, payload };
    this.calls.push(call);
    if (this.down) return reply(502, { ok: false, error_code: 502, description: 'Bad Gateway' });
    try {
      const result = method === 'getUpdates' ? await this.getUpdates(payload, req) : this.call(method, payload);
      reply(200, { ok: true, result });
    } catch (e) {
      call.error = e instanceof TgError ? e.description : 'Internal Server Error';
      if (e instanceof TgError) return reply(e.code, { ok: false, error_code: e.code, description: e.description });
      reply(500, { ok: false, error_code: 500, description: 'Internal Server Error' });
    }
  }

  private async getUpdates(p: Record<string, any>, req: http.IncomingMessage): Promise<unknown[]> {
    const offset = Number(p.offset ?? 0);
    const limit = Math.min(Number(p.limit ?? 100), 100);
    const available = () => {
      // An offset confirms every update before it.
      if (offset > 0) this.updates = this.updates.filter((u) => u.update_id >= offset);
      return this.updates.slice(0, limit);
    };
    let got = available();
    const holdMs = Math.min(Number(p.timeout ?? 0) * 1000, this.maxHoldMs);
    if (got.length || holdMs <= 0) return got;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        req.socket.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, holdMs);
      this.waiters.add(done);
      req.socket.once('close', done);
    });
    got = available();
    return got;
  }

  private checkMarkup(markup: any): InlineButton[][] {
    if (markup === undefined || markup === null) return [];
    const kb = typeof markup === 'string' ? JSON.parse(markup) : markup;
    if (!kb.inline_keyboard) return [];
    if (kb.force_reply !== undefined) throw new TgError(400, 'Bad Request: inline keyboard and force_reply in one markup');
    for (const row of kb.inline_keyboard)
      for (const b of row) {
        if (typeof b.text !== 'string' || b.text === '') throw new TgError(400, 'Bad Request: text buttons are unallowed in the inline keyboard');
        if (b.callback_data !== undefined && (Buffer.byteLength(b.callback_data) < 1 || Buffer.byteLength(b.callback_data) > 64))
          throw new TgError(400, 'Bad Request: BUTTON_DATA_INVALID');
      }
    return kb.inline_keyboard;
  }

  private checkText(text: unknown, parseMode?: string): string {
    if (typeof text !== 'string' || text.trim() === '') throw new TgError(400, 'Bad Request: message text is empty');
    if (text.length > 4096) throw new TgError(400, 'Bad Request: message is too long');
    if (parseMode === 'HTML') {
      // Every '<' must open or close a supported tag, every '&' start an entity.
      const bad = /<(?!\/?(b|strong|i|em|u|ins|s|strike|del|code|pre|a|tg-spoiler|blockquote)(\s[^>]*)?>)|&(?!(lt|gt|amp|quot|#\d+);)/.exec(text);
      if (bad) throw new TgError(400, `Bad Request: can't parse entities: unsupported start tag or entity at byte offset ${bad.index}`);
    }
    return text;
  }

  private find(p: Record<string, any>): BotMessage {
    const msg = this.messages.find((x) => x.chat_id === Number(p.chat_id) && x.message_id === Number(p.message_id) && !x.deleted);
    if (!msg) throw new TgError(400, 'Bad Request: message to edit not found');
    return msg;
  }

  private call(method: string, p: Record<string, any>): unknown {
    switch (method) {
      case 'getMe':
        return { ...BOT_USER, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false };
      case 'sendMessage': {
        if (this.blocked.has(Number(p.chat_id))) throw new TgError(403, 'Forbidden: bot was blocked by the user');
        const text = this.checkText(p.text, p.parse_mode);
        const buttons = this.checkMarkup(p.reply_markup);
        const markup = typeof p.reply_markup === 'string' ? JSON.parse(p.reply_markup) : p.reply_markup;
        const replyTo = p.reply_parameters?.message_id ?? p.reply_to_message_id;
        const msg: BotMessage = {
          message_id: this.nextMessageId++,
          chat_id: Number(p.chat_id),
          text,
          parse_mode: p.parse_mode,
          buttons,
          ...(markup?.force_reply ? { forceReply: markup } : {}),
          ...(replyTo !== undefined ? { replyTo: Number(replyTo) } : {}),
          deleted: false,
          history: [text],
          changed: ++this.changes,
        };
        this.messages.push(msg);
        return this.toMessage(msg);
      }
      case 'editMessageText': {
        const msg = this.find(p);
        const text = this.checkText(p.text, p.parse_mode);
        const buttons = this.checkMarkup(p.reply_markup);
        if (text === msg.text && JSON.stringify(buttons) === JSON.stringify(msg.buttons))
          throw new TgError(400, 'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message');
        msg.text = text;
        msg.buttons = buttons;
        msg.parse_mode = p.parse_mode;
        msg.history.push(text);
        msg.changed = ++this.changes;
        return this.toMessage(msg);
      }
      case 'editMessageReplyMarkup': {
        const msg = this.find(p);
        const buttons = this.checkMarkup(p.reply_markup);
        if (JSON.stringify(buttons) === JSON.stringify(msg.buttons))
          throw new TgError(400, 'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message');
        msg.buttons = buttons;
        return this.toMessage(msg);
      }
      case 'deleteMessage': {
        const msg = this.find(p);
        msg.deleted = true;
        return true;
      }
      case 'answerCallbackQuery':
        if (typeof p.text === 'string' && p.text.length > 200) throw new TgError(400, 'Bad Request: MESSAGE_TOO_LONG');
        return true;
      default:
        // setMyCommands, deleteWebhook, sendChatAction, …
        return true;
    }
  }
}

/** Polls `probe` until it returns something truthy (or throws after `timeoutMs`). */
export async function waitFor<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, what = 'condition', timeoutMs = 8000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

/** The callback data of the first button whose text contains `label`. */
export function button(msg: BotMessage | undefined, label: string | RegExp): string {
  if (!msg) throw new Error('no message');
  for (const row of msg.buttons)
    for (const b of row) if ((typeof label === 'string' ? b.text.includes(label) : label.test(b.text)) && b.callback_data) return b.callback_data;
  throw new Error(`no button "${label}" in message: ${msg.text} ${JSON.stringify(msg.buttons)}`);
}
