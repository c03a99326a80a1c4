import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/env.js';
import { BotWebhook } from '../../src/app/bot-webhook.js';
import { newUser, World } from './harness.js';
import { waitFor, type TgUser } from './fake-telegram.js';

/** The bot in webhook mode (TELEGRAM_WEBHOOK_URL): Telegram posts updates to the API's route. */

const URL_ = 'https://partners.example.com/tg/hook-7f3a';
const SECRET = 'wh_Secret-0123456789';
const logged: unknown[] = [];
const record = (obj: unknown, msg?: string) => void logged.push([obj, msg]);
const log = { info: record, warn: record, error: record, debug: record };

let w: World;
let nextUpdate = 1;
beforeAll(async () => {
  w = await World.start({ TELEGRAM_WEBHOOK_URL: URL_, TELEGRAM_WEBHOOK_SECRET: SECRET }, { log: log as never });
});
afterAll(async () => {
  await w?.close();
});

const startFrom = (user: TgUser) => ({
  update_id: nextUpdate++,
  message: {
    message_id: nextUpdate,
    date: Math.floor(Date.now() / 1000),
    chat: { id: user.id, type: 'private', first_name: user.first_name },
    from: { is_bot: false, ...user },
    text: '/start',
    entities: [{ type: 'bot_command', offset: 0, length: 6 }],
  },
});

const post = (body: unknown, secret?: string) =>
  w.t.app.inject({
    method: 'POST',
    url: '/tg/hook-7f3a',
    headers: { 'content-type': 'application/json', ...(secret === undefined ? {} : { 'x-telegram-bot-api-secret-token': secret }) },
    payload: JSON.stringify(body),
  });

describe('the bot in webhook mode', () => {
  it('when the service starts, then it sets the webhook with the URL, the secret and the updates it handles, and never polls', async () => {
    const calls = w.tg.callsOf('setWebhook');
    expect(calls).toHaveLength(1);
    expect(calls[0].payload).toMatchObject({ url: URL_, secret_token: SECRET, allowed_updates: ['message', 'callback_query'] });
    expect(w.tg.callsOf('getUpdates')).toHaveLength(0);
    expect(w.tg.callsOf('deleteWebhook')).toHaveLength(0);
  });

  it('when Telegram posts /start from a stranger with the secret, then the bot answers through the Bot API', async () => {
    const user = newUser();
    const r = await post(startFrom(user), SECRET);
    expect(r.statusCode).toBe(200);
    const m = await waitFor(() => w.tg.to(user.id)[0], 'the answer');
    expect(m.text).toContain('This bot serves partners of the ordering service.');
  });

  it('when the secret is wrong or missing, then 401 with no detail and nothing is sent', async () => {
    for (const secret of ['wrong', `${SECRET}x`, '', undefined]) {
      const user = newUser();
      const r = await post(startFrom(user), secret);
      expect(r.statusCode).toBe(401);
      expect(r.body).toBe('');
      // set where this route answers 401 (no hook adds it when the answer is sent)
      expect(r.headers['www-authenticate']).toBe('Bearer');
      expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      await new Promise((res) => setTimeout(res, 100));
      expect(w.tg.to(user.id)).toHaveLength(0);
    }
    expect(w.tg.callsOf('getUpdates')).toHaveLength(0);
  });

  it('when the service logs, then the secret is in no log entry', () => {
    expect(logged.length).toBeGreaterThan(0);
    expect(JSON.stringify(logged)).not.toContain(SECRET);
  });
});

describe('the webhook settings', () => {
  const lines = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
    } catch (e) {
      if (e instanceof ConfigError) return e.lines;
      throw e;
    }
    return [];
  };

  it('when TELEGRAM_WEBHOOK_URL is not https or has no path, then start-up stops naming the variable and the rule, not the value', () => {
    for (const bad of ['http://bot.example.com/hook', 'https://bot.example.com', 'https://bot.example.com/', 'not a url']) {
      const l = lines({ TELEGRAM_WEBHOOK_URL: bad });
      expect(l).toEqual(['invalid configuration: TELEGRAM_WEBHOOK_URL: must be an https URL with a path (https://host/path), without query or fragment']);
    }
    expect(lines({ TELEGRAM_WEBHOOK_URL: URL_ })).toEqual([]);
  });

  it('when TELEGRAM_WEBHOOK_SECRET breaks Telegram\'s rule, then start-up stops naming the variable and the rule, not the value', () => {
    for (const bad of ['has space', 'x'.repeat(257), 'semi;colon']) {
      const l = lines({ TELEGRAM_WEBHOOK_SECRET: bad });
      expect(l).toEqual(['invalid configuration: TELEGRAM_WEBHOOK_SECRET: must be 1-256 characters of A-Z, a-z, 0-9, _ and -']);
    }
    expect(lines({ TELEGRAM_WEBHOOK_SECRET: 'A'.repeat(256) })).toEqual([]);
  });

  it('when TELEGRAM_WEBHOOK_SECRET is unset, then a secret is derived from the token: valid for Telegram, stable, not the token', () => {
    const of = (token: string) => BotWebhook.fromConfig({ TELEGRAM_WEBHOOK_URL: URL_, TELEGRAM_BOT_TOKEN: token, TELEGRAM_WEBHOOK_SECRET: undefined })!;
    const a = of('123:AAA');
    expect(a.secret).toMatch(/^[A-Za-z0-9_-]{1,256}$/);
    expect(a.secret).not.toContain('AAA');
    expect(of('123:AAA').secret).toBe(a.secret);
    expect(of('123:BBB').secret).not.toBe(a.secret);
    expect(a.path).toBe('/tg/hook-7f3a');
    expect(BotWebhook.fromConfig({ TELEGRAM_WEBHOOK_URL: undefined, TELEGRAM_BOT_TOKEN: '123:AAA', TELEGRAM_WEBHOOK_SECRET: undefined })).toBeNull();
  });
});
