import { afterEach, describe, expect, it } from 'vitest';
import { startBot } from '../../bot/runner.js';
import { startService, stopService, type TestService } from '../helpers.js';
import { FakeTelegram, waitFor } from './fake-telegram.js';

let t: TestService | undefined;
let tg: FakeTelegram | undefined;

afterEach(async () => {
  await stopService(t);
  await tg?.close();
  t = undefined;
  tg = undefined;
});

describe('the bot runner', () => {
  it('when the Bot API is down at start-up, then polling starts once it is back', async () => {
    tg = await new FakeTelegram().start();
    tg.down = true;
    t = await startService({ TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot });
    const bot = startBot(t, t.deps.config, { pollTimeoutSec: 1, restartDelayMs: 50 });
    await waitFor(() => tg!.callsOf('getMe').length >= 2, 'a second start attempt');
    tg.down = false;
    await waitFor(() => tg!.callsOf('getUpdates').some((c) => c.payload.timeout === 1), 'polling');
    tg.send({ id: 555, first_name: 'X', language_code: 'en' }, 'hello');
    await waitFor(() => tg!.to(555).length > 0, 'an answer');
    expect(tg.to(555)[0].text).toContain('open the invite link');
    const started = Date.now();
    await bot.stop();
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('when the token is rejected, then the runner stops trying and stop() still returns', async () => {
    tg = await new FakeTelegram().start();
    t = await startService({ TELEGRAM_BOT_TOKEN: '999:wrong', TELEGRAM_API_ROOT: tg.apiRoot });
    const bot = startBot(t, t.deps.config, { pollTimeoutSec: 1, restartDelayMs: 50 });
    await new Promise((r) => setTimeout(r, 300));
    expect(bot.bot.isRunning()).toBe(false);
    await bot.stop();
  });

  it('when the Bot API cannot be reached, then stop() still returns promptly', async () => {
    tg = await new FakeTelegram().start();
    const root = tg.apiRoot;
    await tg.close(); // nothing listens there any more
    tg = undefined;
    t = await startService({ TELEGRAM_BOT_TOKEN: '1:x', TELEGRAM_API_ROOT: root });
    const bot = startBot(t, t.deps.config, { pollTimeoutSec: 1, restartDelayMs: 50 });
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    await bot.stop();
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('without a token it refuses to start', async () => {
    t = await startService();
    expect(() => startBot(t!, t!.deps.config)).toThrow(/TELEGRAM_BOT_TOKEN/);
  });
});
