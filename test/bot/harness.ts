import { startBot, type BotHandle } from '../../bot/runner.js';
import type { Logger } from '../../src/kernel/log.js';
import { startService, stopService, type TestService } from '../helpers.js';
import { FakeTelegram, waitFor, type BotMessage, type TgUser } from './fake-telegram.js';

/**
 * The real service (temp SQLite, frozen clock) plus the real bot polling a fake Bot API server. `restart()`
 * stops both and starts them again on the same database folder.
 */
export const OPERATOR: TgUser = { id: 900_001, first_name: 'Olga', language_code: 'en' };

let nextUserId = 100_000;
export function newUser(language_code = 'en'): TgUser {
  const id = ++nextUserId;
  return { id, first_name: `User${id}`, language_code };
}

export class World {
  bot!: BotHandle;
  private constructor(
    public t: TestService,
    readonly tg: FakeTelegram,
    private readonly env: Record<string, string>,
    private readonly log?: Logger,
  ) {}

  /** `log`: the service's logger (silent unless given). */
  static async start(env: Record<string, string> = {}, opts: { log?: Logger } = {}): Promise<World> {
    const tg = await new FakeTelegram().start();
    const full = { TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot, ADMIN_CHAT_IDS: String(OPERATOR.id), ...env };
    const w = new World(await startService(full, opts.log ? { log: opts.log } : {}), tg, full, opts.log);
    w.bot = w.launch();
    // polling has started once the command menus are set (the bot's username is remembered before that)
    await waitFor(() => tg.callsOf('setMyCommands').length >= 2, 'the bot to start');
    return w;
  }

  private launch(): BotHandle {
    return startBot(this.t, this.t.deps.config, { pollTimeoutSec: 1, restartDelayMs: 100 });
  }

  async restart(): Promise<void> {
    await this.bot.stop();
    await stopService(this.t, false);
    this.t = await startService(this.env, { dir: this.t.dir, ...(this.log ? { log: this.log } : {}) });
    this.bot = this.launch();
  }

  /** Stops the bot alone (the service goes on: its events then reach no bot), until `startBotAgain`. */
  async stopBot(): Promise<void> {
    await this.bot.stop();
  }

  startBotAgain(): void {
    this.bot = this.launch();
  }

  async close(): Promise<void> {
    await this.bot?.stop();
    await stopService(this.t);
    await this.tg.close();
  }

  /**
   * Links `user` to the partner with a fresh invite, through /start like a user would; someone linked
   * elsewhere says yes to the question the invite asks first.
   */
  async link(user: TgUser, partnerId: number, role: 'owner' | 'staff'): Promise<void> {
    const inv = await this.t.admin('POST', `/partners/${partnerId}/invites`, { role });
    if (inv.status !== 201) throw new Error(`invite: ${inv.raw}`);
    const chat = this.chat(user);
    await chat.say(`/start ${inv.body.code}`);
    const m = await chat.expect(/linked|привязан|\?/);
    if (!/linked|привязан/.test(m.text)) {
      const yes = m.buttons[0]?.[0]?.callback_data;
      if (!yes) throw new Error(`the invite was refused: ${m.text}`);
      await chat.press(m, yes);
      await chat.expect(/linked|привязан/);
    }
  }

  chat(user: TgUser, chatId = user.id): Chat {
    return new Chat(this, user, chatId);
  }

  /** A new user's chat, linked to the partner with the role. */
  async linkedChat(partnerId: number, role: 'owner' | 'staff', language = 'en'): Promise<Chat> {
    const chat = this.chat(newUser(language));
    await this.link(chat.user, partnerId, role);
    return chat;
  }

  /** A message as it stands now (edits applied). */
  current(m: BotMessage): BotMessage {
    return this.tg.messages.find((x) => x.message_id === m.message_id)!;
  }
}

/** The texts of a message's buttons, row after row. */
export const labels = (m: Pick<BotMessage, 'buttons'>): string[] => m.buttons.flat().map((b) => b.text);

/** One user's chat with the bot: say things, press buttons, wait for answers after a mark. */
export class Chat {
  private mark: number;
  private markChange: number;
  constructor(
    private readonly w: World,
    readonly user: TgUser,
    readonly chatId: number,
  ) {
    this.mark = w.tg.to(chatId).length;
    this.markChange = w.tg.changes;
  }

  /** Messages the bot sent to this chat since the last say/press. */
  get fresh(): BotMessage[] {
    return this.w.tg.to(this.chatId).slice(this.mark);
  }

  /** Messages sent, or shown with a new text (a step shown in the message of the step before), since the last say/press. */
  get shown(): BotMessage[] {
    return this.w.tg.to(this.chatId).filter((m, i) => !m.deleted && (i >= this.mark || (m.changed ?? 0) > this.markChange));
  }

  private setMark(): void {
    this.mark = this.w.tg.to(this.chatId).length;
    this.markChange = this.w.tg.changes;
  }

  get all(): BotMessage[] {
    return this.w.tg.to(this.chatId);
  }

  async say(text: string): Promise<void> {
    this.setMark();
    this.w.tg.send(this.user, text, this.chatId);
  }

  /** Answers a message of the bot with a reply (how typed answers reach the bot in a group). */
  async reply(to: BotMessage, text: string): Promise<void> {
    this.setMark();
    this.w.tg.send(this.user, text, this.chatId, to);
  }

  async press(msg: BotMessage, data: string): Promise<void> {
    this.setMark();
    this.w.tg.press(this.user, msg, data);
  }

  /** The first message shown since (sent, or edited into a new text) whose text matches. */
  expect(match: string | RegExp, what?: string, timeoutMs?: number): Promise<BotMessage> {
    const ok = (s: string) => (typeof match === 'string' ? s.includes(match) : match.test(s));
    return waitFor(() => this.shown.find((m) => ok(m.text)), what ?? `a message matching ${match} in chat ${this.chatId}`, timeoutMs);
  }

  /** The message shown since (sent, or edited into a new step) that has buttons (menus, confirmations). */
  expectMenu(match: string | RegExp): Promise<BotMessage> {
    const ok = (s: string) => (typeof match === 'string' ? s.includes(match) : match.test(s));
    return waitFor(() => this.shown.find((m) => ok(m.text) && m.buttons.length > 0), `a menu matching ${match}`);
  }
}

/** Waits until the fake server has no unconfirmed updates and the bot had a moment to act. */
export async function settle(w: World, ms = 150): Promise<void> {
  await waitFor(() => w.tg.pending === 0, 'updates to be consumed');
  await new Promise((r) => setTimeout(r, ms));
}

/** The short number the bot shows for an order (`PA-<100000 + seq>`: a gift order's API id is `pa_<uuid>`). */
export function shortNumber(w: World, orderId: string): string {
  const row = w.t.db.$client.prepare('select seq from orders where order_id = ?').get(orderId) as { seq: number } | undefined;
  if (!row) throw new Error(`no order ${orderId}`);
  return `PA-${100_000 + row.seq}`;
}
