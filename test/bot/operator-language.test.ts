import { depositNumber } from '../../bot/deposit-numbers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/env.js';
import { SANDBOX_DEPOSIT_ADDRESSES } from '../../src/config/deposit-addresses.js';
import { waitFor, type TgUser } from './fake-telegram.js';
import { newUser, OPERATOR, settle, World } from './harness.js';

/**
 * An ADMIN_CHAT_IDS entry may carry the operator's language (`123456:ru`): used from the first alert on,
 * for the chat's command menu and answers, whatever the operator's client reports. An operator typing a
 * partner command gets the operators' help.
 */

const SECOND: TgUser = { id: 900_003, first_name: 'Anna', language_code: 'ru' };

describe('ADMIN_CHAT_IDS with languages', () => {
  it('parses ids with an optional :ru or :en; anything else names the variable and the rule, not the value', () => {
    const c = loadConfig({ ADMIN_CHAT_IDS: '5:ru, -100200:EN,7' });
    expect(c.ADMIN_CHAT_IDS).toEqual(['5', '-100200', '7']);
    expect(c.operatorLanguages).toEqual({ '5': 'ru', '-100200': 'en' });
    let err: unknown;
    try {
      loadConfig({ ADMIN_CHAT_IDS: '5:de' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const line = (err as ConfigError).lines.find((l) => l.includes('ADMIN_CHAT_IDS'))!;
    expect(line).toContain('must be comma-separated chat ids, each optionally with its language (:ru or :en)');
  });
});

describe('an operator chat configured in Russian', () => {
  let w: World;
  beforeAll(async () => {
    // OPERATOR's client reports English; the entry says Russian. SECOND's entry names no language.
    w = await World.start({ ADMIN_CHAT_IDS: `${OPERATOR.id}:ru,${SECOND.id}` });
  });
  afterAll(async () => {
    await w?.close();
  });

  it('gets the first alert in Russian before ever writing, and its command menu in Russian; the other chat in English', async () => {
    const menu = await waitFor(() => w.tg.callsOf('setMyCommands').find((c) => c.payload.scope?.chat_id === OPERATOR.id), 'the operator menu');
    expect(menu.payload.commands).toEqual([
      { command: 'reviews', description: 'Заказы на ручной проверке' },
      { command: 'deposits', description: expect.stringMatching(/^Поступления/) },
      { command: 'cancel', description: expect.any(String) },
      { command: 'help', description: expect.any(String) },
    ]);
    const r = await w.t.admin('POST', '/sandbox/deposits', { network: 'trc20', asset: 'USDT', amount: '33.33', to: SANDBOX_DEPOSIT_ADDRESSES.DEPOSIT_ADDRESS_USDT_TRC20, tx_hash: `0x${'d'.repeat(64)}` });
    expect(r.status, r.raw).toBe(201);
    const ru = await waitFor(() => w.tg.to(OPERATOR.id).find((m) => m.text.includes(depositNumber(w.t.deps, r.body.deposit_id))), 'the alert');
    expect(ru.text).toMatch(/^💰 Поступление D-\d+ на 33,33 USDT в сети TRC-20 \(TRON\) не зачислено автоматически/);
    const en = await waitFor(() => w.tg.to(SECOND.id).find((m) => m.text.includes(depositNumber(w.t.deps, r.body.deposit_id))), 'the alert');
    expect(en.text).toMatch(/^💰 Deposit D-\d+ of 33\.33 USDT on TRC-20 \(TRON\) was not credited automatically/);
  });

  it('answers the operator in Russian even from an English client; a partner command gets the operators’ help', async () => {
    const op = w.chat(OPERATOR);
    await op.say('/order');
    const help = await op.expect('Оператор:');
    expect(help.text).toBe('Оператор:\n/reviews — заказы на ручной проверке\n/deposits — поступления, не зачисленные автоматически\n/cancel — отменить текущее действие');
    await op.say('/balance');
    await op.expect('Оператор:');
    // the menu stays Russian after the English client wrote
    await settle(w);
    const last = w.tg.callsOf('setMyCommands').filter((c) => c.payload.scope?.chat_id === OPERATOR.id).at(-1)!;
    expect(last.payload.commands[0]).toEqual({ command: 'reviews', description: 'Заказы на ручной проверке' });
    // a stranger outside the operator chats still gets the short explanation
    const stranger = w.chat(newUser());
    await stranger.say('/order');
    await stranger.expect('open the invite link');
  });
});
