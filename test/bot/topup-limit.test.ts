import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEPOSIT_ADDRESSES } from '../../src/config/deposit-addresses.js';
import { button, waitFor, type BotMessage } from './fake-telegram.js';
import { labels, newUser, settle, World, type Chat } from './harness.js';

/**
 * /topup with open requests (TOPUP_REQUESTS_MAX_OPEN, here 2): the open requests come first (the amount to
 * send, the network, the address, the time left), each with "Show again" and "Cancel"; a new request is
 * offered only for a currency with room; all in one message. A request's message reads "paid ✅" when its
 * transfer is credited, and the owner's notice answers it. The same rule and services as the operator API and
 * the Mini App (an operator's request counts and is listed too).
 */
let w: World;
let n = 0;
const tx = () => `tx-topup-bot-${process.pid}-${++n}`;

beforeAll(async () => {
  w = await World.start({ TOPUP_REQUESTS_MAX_OPEN: '2' });
});
afterAll(async () => {
  await w?.close();
});

const current = (m: BotMessage) => w.current(m);
const openRequests = async (partnerId: number) => (await w.t.admin('GET', `/partners/${partnerId}/topup-requests`)).body.items as { request_id: string; currency: string; amount_to_send: string; status: string }[];

/** A new USD request on TRC-20 from the list message: returns its amount to send. */
async function newUsdRequest(owner: Chat, list: BotMessage, amount: string, words = { usd: 'USD (pay in USDT)', net: 'TRC-20', ask: 'How much USD?', sent: /Send exactly <code>(\d+\.\d\d)<\/code> USDT/ }): Promise<string> {
  await owner.press(list, button(list, words.usd));
  const nets = await owner.expectMenu(/USDT/);
  expect(nets.message_id).toBe(list.message_id);
  await owner.press(nets, button(nets, words.net));
  await owner.expect(words.ask);
  await owner.say(amount);
  const made = await waitFor(() => (words.sent.test(current(list).text) ? current(list) : undefined), 'the request shown');
  return words.sent.exec(made.text)![1];
}

describe('/topup: open requests first, each to show again or cancel', () => {
  it('English: lists the open requests (the operator’s too), offers a new one only with room, shows one again, cancels one; all in one message', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser());
    await w.link(owner.user, p.id, 'owner');
    // one made by the operator counts and is listed (every address: no network was chosen for it)
    const byOperator = await w.t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'USD', amount: '40' });
    expect(byOperator.status).toBe(201);

    await owner.say('/topup');
    const list = await owner.expectMenu('Open requests, waiting for your payment:');
    expect(list.text).toMatch(new RegExp(`\\n1\\. ${byOperator.body.amount_to_send.replace('.', '\\.')} USDT · any network below · … · 24 h left\\n`));
    expect(labels(list)).toEqual(['🔁 Show again (1)', '🗑 Cancel request (1)', '💵 USD (pay in USDT)', '💎 TON', '✖ Cancel']);

    const toSend = await newUsdRequest(owner, list, '100');
    expect(Number(toSend)).toBeGreaterThan(100);
    expect(current(list).text).toContain('the whole 100.');
    expect(labels(current(list))).toEqual(['📋 Copy amount', '📋 Copy address']);

    // two USD requests are open: no USD button, and why; TON still has room
    await owner.say('/topup');
    const full = await owner.expectMenu('Open requests');
    // newest first
    expect(full.text).toContain(`1. ${toSend} USDT · TRON (TRC-20) · TWc1AW…DUYz · 24 h left\n2. ${byOperator.body.amount_to_send} USDT · any network below`);
    expect(full.text).toContain('USD: 2 requests are open, the most at a time: pay or cancel one to ask for another.');
    expect(labels(full)).toEqual(['🔁 Show again (1)', '🗑 Cancel request (1)', '🔁 Show again (2)', '🗑 Cancel request (2)', '💎 TON', '✖ Cancel']);

    // show the operator's one again: every address, the exact amount, its cancel, and back to the list
    await owner.press(full, button(full, 'Show again (2)'));
    const shown = await owner.expectMenu('Send exactly');
    expect(shown.message_id).toBe(full.message_id);
    expect(shown.text).toContain(`Send exactly <code>${byOperator.body.amount_to_send}</code> USDT on one of these networks, to its address:`);
    expect(shown.text).toContain(`TRON (TRC-20): <code>${SANDBOX_DEPOSIT_ADDRESSES.DEPOSIT_ADDRESS_USDT_TRC20}</code>`);
    expect(labels(shown)).toEqual(['📋 Copy amount', '🗑 Cancel this request', '◀ Back', '✖ Cancel']);
    await owner.press(shown, button(shown, 'Cancel this request'));
    const sure = await owner.expectMenu('Cancel the request for');
    expect(sure.text).toContain('If you have already sent it, do not cancel');
    await owner.press(sure, button(sure, 'Yes, cancel it'));
    const after = await waitFor(() => (current(full).text.includes('was canceled') ? current(full) : undefined), 'the list again');
    expect(after.text).toContain(`🗑 The request for ${byOperator.body.amount_to_send} USDT was canceled.`);
    expect(labels(after)).toEqual(['🔁 Show again (1)', '🗑 Cancel request (1)', '💵 USD (pay in USDT)', '💎 TON', '✖ Cancel']);
    expect((await openRequests(p.id)).map((r) => r.amount_to_send)).toEqual([toSend]);
    const audit = w.t.db.$client.prepare("select actor from audit_log where action = 'topup_request.cancel' and target = ?").all(String(p.id));
    expect(audit).toEqual([{ actor: `telegram:${owner.user.id}` }]);
    // the message that showed the operator's request (the same message) lists again; the first request's message still shows it
    expect(current(list).text).toContain(`Send exactly <code>${toSend}</code>`);
    await settle(w);
    // every /topup was one message
    expect(owner.all.filter((m) => m.message_id >= list.message_id).map((m) => m.message_id)).toEqual([list.message_id, full.message_id]);
    expect(w.tg.refused).toEqual([]);
  });

  it('English: when the request’s transfer is credited, its message reads "paid ✅" and the owner’s notice answers it; one message for the credit', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser());
    await w.link(owner.user, p.id, 'owner');
    await owner.say('/topup');
    const list = await owner.expectMenu('Which balance');
    const toSend = await newUsdRequest(owner, list, '25');
    await settle(w);
    const before = owner.all.length;
    const d = await w.t.admin('POST', '/sandbox/deposits', { network: 'trc20', asset: 'USDT', amount: toSend, to: SANDBOX_DEPOSIT_ADDRESSES.DEPOSIT_ADDRESS_USDT_TRC20, tx_hash: tx() });
    expect(d.body.status).toBe('credited');
    await waitFor(() => current(list).text.startsWith('✅ Paid'), 'the request marked paid');
    expect(current(list).text).toBe(`✅ Paid: the top-up request for ${toSend} USDT was credited, +${toSend} USD on the balance.`);
    expect(current(list).buttons).toEqual([]);
    const notice = await owner.expect(`Top-up credited: ${toSend} USD`);
    expect(notice.replyTo).toBe(list.message_id);
    await settle(w);
    expect(owner.all.length - before).toBe(1);
    // nothing open any more
    await owner.say('/topup');
    const again = await owner.expectMenu('Which balance');
    expect(again.text).not.toContain('Open requests');
  });

  it('a request that ends without a payment: canceled in the dashboard or over the operator API, or expired, its message says so', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser());
    await w.link(owner.user, p.id, 'owner');
    await owner.say('/topup');
    const first = await owner.expectMenu('Which balance');
    const toSend = await newUsdRequest(owner, first, '20');
    const id = (await openRequests(p.id)).find((r) => r.amount_to_send === toSend)!.request_id;
    expect((await w.t.admin('DELETE', `/partners/${p.id}/topup-requests/${id}`)).status).toBe(200);
    await w.t.advance(3600);
    await waitFor(() => current(first).text.startsWith('🗑 Canceled'), 'canceled elsewhere');
    expect(current(first).text).toBe(`🗑 Canceled: the top-up request for ${toSend} USDT. Do not send this amount now: it would wait for support.`);

    const ru = w.chat(newUser('ru'));
    await w.link(ru.user, p.id, 'owner');
    await ru.say('/topup');
    const second = await ru.expectMenu('Какой баланс');
    await ru.press(second, button(second, '💎 TON'));
    await ru.expect('Сколько TON?');
    await ru.say('11');
    const ton = await waitFor(() => /Отправьте ровно <code>(\d+\.\d{3})<\/code>/.exec(current(second).text)?.[1], 'the request');
    await w.t.advance(25 * 3600);
    await waitFor(() => current(second).text.startsWith('⌛ Истекла'), 'expired');
    expect(current(second).text).toBe(`⌛ Истекла: заявка на пополнение на ${ton} TON. Не отправляйте эту сумму: платёж будет ждать поддержку. Новая заявка — /topup.`);
    expect(current(second).buttons).toEqual([]);
  });

  it('a request paid while the bot was stopped (Russian): the hourly sweep then marks its message paid', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser('ru'));
    await w.link(owner.user, p.id, 'owner');
    await owner.say('/topup');
    const list = await owner.expectMenu('Какой баланс');
    await owner.press(list, button(list, '💎 TON'));
    await owner.expect('Сколько TON?');
    await owner.say('14');
    const toSend = await waitFor(() => /Отправьте ровно <code>(\d+\.\d{3})<\/code>/.exec(current(list).text)?.[1], 'the request');
    await settle(w);
    await w.stopBot();
    const d = await w.t.admin('POST', '/sandbox/deposits', { network: 'ton', asset: 'TON', amount: toSend, to: SANDBOX_DEPOSIT_ADDRESSES.DEPOSIT_ADDRESS_TON, tx_hash: tx() });
    expect(d.body.status).toBe('credited');
    w.startBotAgain();
    await settle(w);
    expect(current(list).text).toContain('Отправьте ровно'); // the credit's event reached no bot
    await w.t.advance(3600);
    await waitFor(() => current(list).text.startsWith('✅ Оплачено'), 'marked paid by the sweep');
    expect(current(list).text).toBe(`✅ Оплачено: заявка на ${toSend} TON зачислена. Баланс — /balance.`);
    expect(current(list).buttons).toEqual([]);
  });

  it('Russian: the list, the limit and the cancel in Russian words and numbers', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser('ru'));
    await w.link(owner.user, p.id, 'owner');
    const made = [];
    for (let i = 0; i < 2; i++) {
      const r = await w.t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'TON', amount: '12' });
      expect(r.status).toBe(201);
      made.push(r.body.amount_to_send as string);
    }
    await owner.say('/topup');
    const list = await owner.expectMenu('Открытые заявки ждут вашего платежа:');
    expect(list.text).toContain(`1. ${made[1]} TON · TON · UQDP-0…20eK · осталось 24 ч`);
    expect(list.text).toContain('TON: открыто 2 заявки — больше нельзя: оплатите или отмените одну, чтобы создать новую.');
    expect(list.text).toContain('Какой баланс пополнить?');
    expect(labels(list)).toEqual(['🔁 Показать снова (1)', '🗑 Отменить заявку (1)', '🔁 Показать снова (2)', '🗑 Отменить заявку (2)', '💵 USD (оплата в USDT)', '✖ Отмена']);
    await owner.press(list, button(list, 'Отменить заявку (2)'));
    const sure = await owner.expectMenu(`Отменить заявку на ${made[0]} TON?`);
    await owner.press(sure, button(sure, 'Да, отменить'));
    const after = await waitFor(() => (current(list).text.includes('отменена') ? current(list) : undefined), 'the list again');
    expect(after.text).toContain(`🗑 Заявка на ${made[0]} TON отменена.`);
    expect(labels(after)).toContain('💎 TON');
    // a new TON request: the amount asked with a comma, shown in Russian numbers (the copyable amount as sent)
    await owner.press(after, button(after, 'TON'));
    await owner.expect('Сколько TON?');
    await owner.say('12,5');
    const req = await waitFor(() => (current(list).text.includes('Отправьте ровно') ? current(list) : undefined), 'the request');
    const toSend = /Отправьте ровно <code>(\d+\.\d{3})<\/code> TON/.exec(req.text)![1];
    expect(req.text).toContain(`к вашим 12,500, чтобы узнать ваш платёж`);
    expect(req.text).toContain(`на баланс TON зачисляется вся сумма ${toSend.replace('.', ',')}`);
    expect(labels(req)).toEqual(['👛 Открыть в TON-кошельке', '📋 Скопировать сумму', '📋 Скопировать адрес']);
    await settle(w);
    expect(owner.all.filter((m) => m.message_id >= list.message_id).map((m) => m.message_id)).toEqual([list.message_id]);
  });

  it('in a group (English): the amount asked with force_reply; the request then takes the question’s place; paid there too', async () => {
    const p = await w.t.newPartner();
    const user = newUser();
    await w.link(user, p.id, 'owner');
    const group = w.chat(user, -1_000_950);
    await group.say('/topup');
    const list = await group.expectMenu('Which balance');
    await group.press(list, button(list, '💎 TON'));
    const ask = await group.expect('How much TON?');
    expect(ask.forceReply).toEqual({ force_reply: true, selective: true });
    expect(current(list).deleted).toBe(true);
    await group.reply(ask, '15');
    const req = await group.expect('Send exactly');
    const toSend = /Send exactly <code>(\d+\.\d{3})<\/code> TON/.exec(req.text)![1];
    expect(current(ask).deleted).toBe(true);
    expect(group.all.filter((m) => m.message_id >= list.message_id && !m.deleted).map((m) => m.message_id)).toEqual([req.message_id]);
    const d = await w.t.admin('POST', '/sandbox/deposits', { network: 'ton', asset: 'TON', amount: toSend, to: SANDBOX_DEPOSIT_ADDRESSES.DEPOSIT_ADDRESS_TON, tx_hash: tx() });
    expect(d.body.status).toBe('credited');
    await waitFor(() => current(req).text.startsWith('✅ Paid'), 'paid in the group');
  });
});
