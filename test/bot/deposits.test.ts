import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEPOSIT_ADDRESSES } from '../../src/config/deposit-addresses.js';
import { depositNumber } from '../../bot/deposit-numbers.js';
import { button, waitFor } from './fake-telegram.js';
import { newUser, OPERATOR, settle, World } from './harness.js';

/**
 * Unmatched deposits in the bot: the operators' alert with Credit / Close buttons, /deposits, and the
 * owner's message when a deposit pays a top-up request. Deposits come in through POST /sandbox/deposits.
 */

let w: World;
let n = 0;
const txh = () => `tx-bot-${process.pid}-${++n}`;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

/** A USDT transfer on TRC-20 to the sandbox USD address, as a watcher would report it. */
async function usdt(amount: string): Promise<{ deposit_id: string; status: string }> {
  const r = await w.t.admin('POST', '/sandbox/deposits', { network: 'trc20', asset: 'USDT', amount, to: SANDBOX_DEPOSIT_ADDRESSES.DEPOSIT_ADDRESS_USDT_TRC20, tx_hash: txh() });
  expect(r.status, r.raw).toBe(201);
  return r.body;
}

async function depositsWith(status: string): Promise<string[]> {
  return (await w.t.admin('GET', `/deposits?status=${status}`)).body.items.map((d: { deposit_id: string }) => d.deposit_id);
}

const current = (id: number) => w.tg.messages.find((m) => m.message_id === id)!;

/** A partner with this name, activated by a first top-up when `usd` is given. */
async function partnerNamed(name: string, usd?: string): Promise<number> {
  const id = (await w.t.admin('POST', '/partners', { name })).body.partner_id as number;
  if (usd) expect((await w.t.admin('POST', `/partners/${id}/topups`, { currency: 'USD', amount: usd, network: 'ton', tx_hash: txh() })).status).toBe(201);
  return id;
}

/** The operator's chat, whose language (remembered when the operator acts) is set by a /help first. */
async function operatorChat(lang: 'en' | 'ru' = 'en') {
  const op = w.chat({ ...OPERATOR, language_code: lang });
  await op.say('/help');
  await op.expect(lang === 'ru' ? 'Оператор:' : 'Operator:');
  return op;
}

const labels = (m: { buttons: { text: string }[][] }) => m.buttons.flat().map((b) => b.text);
/** The short number operators read for a deposit (given when it is first shown). */
const num = (depositId: string) => depositNumber(w.t.deps, depositId);

describe('unmatched deposits', () => {
  it('Credit finds the partner by part of its name, asks "are you sure?" and credits, all in one message below the card; Back returns a step; a stale button is told', async () => {
    const acme = await partnerNamed('Acme Widgets', '100.00');
    const acme2 = await partnerNamed('ACME Supplies');
    await partnerNamed('Globex');
    const op = await operatorChat();
    const d = await usdt('39.99');
    expect(d.status).toBe('unmatched');
    const alert = await op.expectMenu(`Deposit ${num(d.deposit_id)} of 39.99 USDT on TRC-20 (TRON)`);
    expect(num(d.deposit_id)).toMatch(/^D-\d+$/);
    expect(alert.text).not.toContain('dep_');
    expect(alert.text).toContain('was not credited automatically: no open top-up request asks for this amount.');

    const credit = button(alert, 'Credit to partner');
    expect(credit).toBe(`dp:c:${d.deposit_id}`);
    await op.press(alert, credit);
    const ask = await op.expectMenu(`Credit 39.99 USDT (deposit ${num(d.deposit_id)}) to which partner? Send a part of the partner’s name, or its number.`);
    expect(labels(ask)).toEqual(['✖ Cancel']);
    await op.say('initech');
    await op.expect('No partner’s name contains “initech”. Send another part of the name or the number, or /cancel.');
    expect(op.fresh).toEqual([]); // said in the question's message
    // case does not matter; names that start with the text come first
    await op.say('acme');
    const found = await op.expectMenu('Partners matching “acme”: 2. Choose one, or send another part of the name.');
    expect(labels(found)).toEqual([`ACME Supplies · #${acme2} · not activated`, `Acme Widgets · #${acme}`, '◀ Back', '✖ Cancel']);
    expect(found.message_id).toBe(ask.message_id);
    // another text at the matches is a new search, shown in the same message
    await op.say('widg');
    await waitFor(() => current(found.message_id).text.startsWith('Partners matching “widg”: 1.'), 'the matches redrawn');
    expect(labels(current(found.message_id))).toEqual([`Acme Widgets · #${acme}`, '◀ Back', '✖ Cancel']);
    await op.press(current(found.message_id), button(current(found.message_id), 'Acme Widgets'));
    const sure = await op.expectMenu(`Credit 39.99 USDT (deposit ${num(d.deposit_id)}) to “Acme Widgets” (#${acme})?`);
    expect(sure.message_id).toBe(ask.message_id);
    expect(labels(sure)).toEqual(['✅ Yes, credit', '◀ Back', '✖ Cancel']);
    // Back: the matches of the search again, in the same message
    await op.press(sure, button(sure, 'Back'));
    const again = await op.expectMenu('Partners matching “acme”: 2.');
    expect(again.message_id).toBe(ask.message_id);
    await op.press(again, button(again, 'Acme Widgets'));
    const sure2 = await op.expectMenu('to “Acme Widgets”');
    expect((await w.t.admin('GET', `/partners/${acme}`)).body.balances.USD).toBe('100.00'); // nothing moved before "yes"
    await op.press(sure2, button(sure2, 'Yes, credit'));
    await waitFor(() => current(sure2.message_id).text === `✅ Deposit ${num(d.deposit_id)} credited to “Acme Widgets” (#${acme}): 39.99 USDT.`, 'the credit');
    // the card and the one message of the flow: nothing else
    expect(op.all.filter((m) => m.message_id > alert.message_id).map((m) => m.message_id)).toEqual([ask.message_id]);
    expect(current(sure2.message_id).buttons).toEqual([]);

    expect((await w.t.admin('GET', `/partners/${acme}`)).body.balances.USD).toBe('139.99');
    expect(await depositsWith('credited')).toContain(d.deposit_id);
    await waitFor(() => current(alert.message_id).buttons.length === 0, 'the alert to lose its buttons');
    expect(current(alert.message_id).text).toMatch(
      new RegExp(`^💰 Deposit ${num(d.deposit_id)}: 39.99 USDT on TRC-20 \\(TRON\\)\n\n✅ Credited to “Acme Widgets” \\(#${acme}\\) by Olga, \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\.$`),
    );
    expect(op.all.filter((m) => !m.deleted && m.buttons.length > 0)).toEqual([]);

    // the same button again (a stale copy of the alert): nothing changes, the operator is told by whom
    await op.press(alert, credit);
    await settle(w);
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload.text).toMatch(/^Nothing changed: this was already handled\. ✅ Credited to “Acme Widgets” .+ by Olga/);
    expect(op.fresh).toEqual([]);
    expect((await w.t.admin('GET', `/partners/${acme}`)).body.balances.USD).toBe('139.99');
  });

  it('in Russian: a Cyrillic name in any case, or the number; below a new partner’s minimum the matches come back; Close asks for a note', async () => {
    const ruOp = await operatorChat('ru');
    const since = ruOp.all.length - 1; // from the answer to /help on
    const fresh = await partnerNamed('Ромашка');
    const other = await partnerNamed('Лютик', '50.00');
    const d = await usdt('7.77');
    const alert = await ruOp.expectMenu(`Поступление ${num(d.deposit_id)} на 7,77 USDT в сети TRC-20 (TRON) не зачислено автоматически: ни один открытый запрос на пополнение не ждёт такой суммы.`);

    await ruOp.press(alert, button(alert, 'Зачислить партнёру'));
    await ruOp.expectMenu('Какому партнёру зачислить 7,77 USDT');
    await ruOp.say('РОМАШ');
    const found = await ruOp.expectMenu('Партнёры по запросу «РОМАШ»: 1.');
    expect(labels(found)).toEqual([`Ромашка · №${fresh} · не активирован`, '◀ Назад', '✖ Отмена']);
    await ruOp.press(found, button(found, 'Ромашка'));
    const sure = await ruOp.expectMenu(`партнёру «Ромашка» (№${fresh})?`);
    expect(sure.text).toContain('аккаунт ещё не активирован: это первое пополнение должно быть не меньше 10');
    await ruOp.press(sure, button(sure, 'Да, зачислить'));
    await waitFor(() => current(sure.message_id).text.startsWith(`Не зачислено: для партнёра «Ромашка» (№${fresh}) пополнение должно быть не меньше 10,00 USD`), 'the refusal');
    expect((await w.t.admin('GET', `/partners/${fresh}`)).body).toMatchObject({ status: 'inactive', balances: { USD: '0.00' } });
    // the matches again: the number finds the other partner
    const back = await ruOp.expectMenu('Партнёры по запросу «РОМАШ»: 1.');
    await ruOp.say(`№${other}`);
    await waitFor(() => current(back.message_id).text.startsWith(`Партнёры по запросу «№${other}»: 1.`), 'search by number');
    expect(labels(current(back.message_id))[0]).toBe(`Лютик · №${other}`);
    await ruOp.say('/cancel');
    await ruOp.expect('✖ Отменено.');
    expect(ruOp.all.filter((m) => !m.deleted && m.buttons.length > 0).map((m) => m.message_id)).toEqual([alert.message_id]);

    await ruOp.press(alert, button(alert, 'Закрыть'));
    await ruOp.expect('Отправьте короткую пометку');
    await ruOp.say('возвращено отправителю');
    await ruOp.expect(`Поступление ${num(d.deposit_id)} закрыто: возвращено отправителю`);
    const closed = (await w.t.admin('GET', '/deposits?status=closed')).body.items.find((x: { deposit_id: string }) => x.deposit_id === d.deposit_id);
    expect(closed).toMatchObject({ status: 'closed', note: 'возвращено отправителю' });
    await waitFor(() => current(alert.message_id).buttons.length === 0, 'the alert to lose its buttons');
    // every text and button of this walk is Russian (ids, asset, network names and the partner names aside)
    for (const m of ruOp.all.slice(since)) {
      for (const text of m.history) expect(text).not.toMatch(/\b(the|is|not|and|to|partner|deposit|credit|send)\b/i);
      for (const b of m.buttons.flat()) expect(b.text).not.toMatch(/[A-Za-z]{3,}/);
    }
  });

  it('an alert sent in English and handled by a Russian operator is rewritten in Russian, not appended to', async () => {
    await operatorChat('en');
    const d = await usdt('23.45');
    const alert = await w.chat(OPERATOR).expectMenu(`Deposit ${num(d.deposit_id)} of 23.45 USDT`);
    const ruOp = w.chat({ ...OPERATOR, language_code: 'ru' });
    await ruOp.press(alert, button(alert, 'Close'));
    await ruOp.expect('Отправьте короткую пометку');
    await ruOp.say('тестовый перевод');
    await ruOp.expect(`Поступление ${num(d.deposit_id)} закрыто: тестовый перевод`);
    await waitFor(() => current(alert.message_id).buttons.length === 0, 'the alert rewritten');
    const text = current(alert.message_id).text;
    expect(text.startsWith(`💰 Поступление ${num(d.deposit_id)}: 23,45 USDT в сети TRC-20 (TRON)\n\n`)).toBe(true);
    expect(text).toMatch(/✖ Закрыто — Olga, \d{4}-\d\d-\d\d \d\d:\d\d UTC: тестовый перевод$/);
    expect(text).not.toMatch(/Deposit|credited|partner/);
  });

  it('many matches: the first 8 as buttons, and the operator is asked to type more', async () => {
    for (let i = 1; i <= 9; i++) await partnerNamed(`Orbit ${i}`);
    const op = await operatorChat();
    const d = await usdt('15.00');
    const alert = await op.expectMenu(`Deposit ${num(d.deposit_id)}`);
    await op.press(alert, button(alert, 'Credit to partner'));
    await op.expectMenu('to which partner?');
    await op.say('orbit');
    const found = await op.expectMenu('Partners matching “orbit”: the first 8 below. Choose one, or send more of the name.');
    expect(labels(found).slice(0, 8)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((i) => expect.stringContaining(`Orbit ${i} · #`)));
    expect(labels(found).slice(8)).toEqual(['◀ Back', '✖ Cancel']);
    await op.press(found, button(found, 'Back'));
    await op.expectMenu('to which partner?');
    await op.say('/cancel');
    await op.expect('✖ Cancelled.');
  });

  it('/deposits lists what remains; a deposit opens with the same buttons', async () => {
    const op = await operatorChat();
    const d = await usdt('777.00');
    await op.expectMenu(`Deposit ${num(d.deposit_id)}`);
    const waiting = await depositsWith('unmatched');
    expect(waiting).toContain(d.deposit_id);

    await op.say('/deposits');
    const list = await op.expectMenu(`Deposits not credited automatically: ${waiting.length}`);
    expect(list.text).toContain(`${num(d.deposit_id)}: 777.00 USDT on TRC-20 (TRON) · 0 min ago · no open top-up request asks for this amount`);
    expect(list.text).not.toContain('dep_');
    // the newest deposits come first: this one is on the first page, its button with its number
    await op.press(list, button(list, `${num(d.deposit_id)} · 777.00 USDT`));
    const item = await waitFor(() => current(list.message_id).text.startsWith(`💰 Deposit ${num(d.deposit_id)}`) && current(list.message_id), 'the deposit opened');
    expect(item.text).toContain('777.00 USDT on TRC-20 (TRON)');
    expect(item.text).toContain('Not credited automatically: no open top-up request asks for this amount.');
    expect(button(item, 'Close')).toBe(`dp:x:${d.deposit_id}`);

    // closed from the list, the list is then empty
    await op.press(item, button(item, 'Close'));
    await op.expect('Send a short note why');
    await op.say('test transfer');
    await op.expect('closed: test transfer');
    if (waiting.length === 1) {
      await op.say('/deposits');
      await op.expect('No deposits are waiting');
    }
  });

  it('staff and other non-operators cannot use /deposits or the deposit buttons', async () => {
    const p = await w.t.newPartner();
    const staff = w.chat(newUser());
    await w.link(staff.user, p.id, 'staff');
    const d = await usdt('55.55');
    await staff.say('/deposits');
    await staff.expect('Commands:');
    expect(staff.fresh.some((m) => m.text.includes('Deposit'))).toBe(false);
    w.tg.press(staff.user, staff.all[0], `dp:c:${d.deposit_id}`);
    await settle(w);
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload.text).toBe('Only operators can do this.');
    expect(await depositsWith('unmatched')).toContain(d.deposit_id);
  });

  it('when a deposit pays a top-up request, then the owner hears it was credited, and operators get no alert', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser());
    await w.link(owner.user, p.id, 'owner');
    const op = w.chat(OPERATOR);
    const rq = await w.t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'USD', amount: '25' });
    expect(rq.status, rq.raw).toBe(201);
    const d = await usdt(rq.body.amount_to_send);
    expect(d.status).toBe('credited');
    await owner.expect(`Top-up credited: ${rq.body.amount_to_send} USD`);
    expect((await w.t.admin('GET', `/partners/${p.id}`)).body.balances.USD).toBe((1000 + Number(rq.body.amount_to_send)).toFixed(2));
    await settle(w);
    expect(op.fresh.some((m) => m.text.includes(d.deposit_id))).toBe(false);
  });

  it('a transaction support already credited by hand to another partner: Credit is refused with the reason, nothing moves', async () => {
    const a = await partnerNamed('Hashcorp A', '100.00');
    const b = await partnerNamed('Hashcorp B', '100.00');
    const op = await operatorChat();
    const hash = `${'9c'.repeat(31)}${(++n).toString(16).padStart(2, '0')}`;
    const r = await w.t.admin('POST', '/sandbox/deposits', { network: 'trc20', asset: 'USDT', amount: '41.00', to: SANDBOX_DEPOSIT_ADDRESSES.DEPOSIT_ADDRESS_USDT_TRC20, tx_hash: hash });
    expect(r.body.status).toBe('unmatched');
    const alert = await op.expectMenu(`Deposit ${num(r.body.deposit_id)}`);
    // meanwhile support credits the same transfer to A by its hash, in capitals with 0x
    expect((await w.t.admin('POST', `/partners/${a}/topups`, { currency: 'USD', amount: '41.00', network: 'trc20', tx_hash: `0x${hash.toUpperCase()}` })).status).toBe(201);
    await op.press(alert, button(alert, 'Credit to partner'));
    await op.expectMenu('to which partner?');
    await op.say('Hashcorp B');
    const found = await op.expectMenu('Partners matching “Hashcorp B”: 1.');
    await op.press(found, button(found, 'Hashcorp B'));
    const sure = await op.expectMenu('to “Hashcorp B”');
    await op.press(sure, button(sure, 'Yes, credit'));
    await waitFor(() => current(sure.message_id).text === 'Not credited: this transaction was already credited, to another partner or with another amount. Close this deposit with a note.', 'the refusal');
    expect((await w.t.admin('GET', `/partners/${b}`)).body.balances.USD).toBe('100.00');
    expect((await w.t.admin('GET', `/partners/${a}`)).body.balances.USD).toBe('141.00');
    expect(await depositsWith('unmatched')).toContain(r.body.deposit_id);
  });

  it('Correct a partner’s balance: a signed amount in the deposit’s currency and a note, "are you sure?", one adjustment entry; the deposit stays', async () => {
    const id = await partnerNamed('Fixme Trading', '100.00');
    const op = await operatorChat();
    const d = await usdt('12.00');
    const alert = await op.expectMenu(`Deposit ${num(d.deposit_id)}`);
    expect(labels(alert)).toEqual(['💰 Credit to partner…', '✖ Close', '± Correct a partner’s balance…']);
    expect(button(alert, 'Correct a partner’s balance')).toBe(`dp:a:${d.deposit_id}`);
    await op.press(alert, button(alert, 'Correct a partner’s balance'));
    const ask = await op.expectMenu(`Correct the balance of which partner (deposit ${num(d.deposit_id)})?`);
    await op.say('fixme');
    const found = await op.expectMenu('Partners matching “fixme”: 1.');
    await op.press(found, button(found, 'Fixme Trading'));
    await op.expectMenu(`By how much to correct the USD balance of “Fixme Trading” (#${id}) (now 100.00 USD)?`);
    await op.say('0');
    await op.expect('Send a signed amount in USD, not zero, with at most 2 decimals');
    await op.say('-12.005');
    await op.expect('Send a signed amount in USD, not zero');
    await op.say('-12.00');
    await op.expectMenu('Why? Send a short note');
    await op.say('credited twice by hand');
    const sure = await op.expectMenu(`Post a correction of -12.00 USD to the balance of “Fixme Trading” (#${id})?`);
    expect((await w.t.admin('GET', `/partners/${id}`)).body.balances.USD).toBe('100.00'); // nothing moved before "yes"
    await op.press(sure, button(sure, 'Yes, post it'));
    await waitFor(() => current(sure.message_id).text === `✅ Balance of “Fixme Trading” (#${id}) corrected by -12.00 USD: now 88.00 USD.`, 'the adjustment');
    expect((await w.t.admin('GET', `/partners/${id}`)).body.balances.USD).toBe('88.00');
    // every step, the wrong amounts and the outcome in one message below the card
    expect(sure.message_id).toBe(ask.message_id);
    expect(op.all.filter((m) => m.message_id > alert.message_id).map((m) => m.message_id)).toEqual([ask.message_id]);
    const ledger = (await w.t.admin('GET', `/partners/${id}/ledger?currency=USD`)).body.items;
    expect(ledger.at(-1)).toMatchObject({ kind: 'adjustment', amount: '-12.00', balance_after: '88.00', note: `credited twice by hand (deposit ${d.deposit_id})` });
    const audit = w.t.db.$client.prepare("select actor, target from audit_log where action = 'ledger.adjust' order by audit_id desc limit 1").get();
    expect(audit).toEqual({ actor: `telegram:${OPERATOR.id}`, target: String(id) });
    // the deposit itself is not handled by a correction
    expect(await depositsWith('unmatched')).toContain(d.deposit_id);
    // more than the balance: refused with the balance, nothing posted
    await op.press(alert, button(alert, 'Correct a partner’s balance'));
    await op.expectMenu('Correct the balance of which partner');
    await op.say('fixme');
    const again = await op.expectMenu('Partners matching “fixme”: 1.');
    await op.press(again, button(again, 'Fixme Trading'));
    await op.expectMenu('(now 88.00 USD)');
    await op.say('-100');
    await op.expectMenu('Why?');
    await op.say('too much');
    const sure2 = await op.expectMenu('Post a correction of -100 USD');
    await op.press(sure2, button(sure2, 'Yes, post it'));
    await waitFor(() => current(sure2.message_id).text === 'Not posted: the USD balance is 88.00 USD, and this correction would make it negative.', 'the refusal');
    expect((await w.t.admin('GET', `/partners/${id}`)).body.balances.USD).toBe('88.00');
    expect((await w.t.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
  });
  it('Correct a partner’s balance in Russian: the amount typed with a decimal comma, numbers as Russian writes them', async () => {
    const id = await partnerNamed('Берёза', '1234.50');
    const op = await operatorChat('ru');
    const d = await usdt('13.00');
    const alert = await op.expectMenu(`Поступление ${num(d.deposit_id)}`);
    await op.press(alert, button(alert, 'Скорректировать баланс'));
    await op.expectMenu(`Баланс какого партнёра скорректировать (поступление ${num(d.deposit_id)})?`);
    await op.say('берёз');
    const found = await op.expectMenu('Партнёры по запросу «берёз»: 1.');
    await op.press(found, button(found, 'Берёза'));
    await op.expectMenu(`На сколько скорректировать баланс USD партнёра «Берёза» (№${id}) (сейчас 1\u00a0234,50 USD)?`);
    await op.say('-0,505');
    await op.expect('не больше 2 знаков после запятой (например, -10,00)');
    await op.say('-34,50');
    await op.expectMenu('Почему?');
    await op.say('двойное зачисление');
    const sure = await op.expectMenu(`Провести корректировку баланса «Берёза» (№${id}) на -34,50 USD?`);
    await op.press(sure, button(sure, 'Да, провести'));
    await waitFor(() => current(sure.message_id).text === `✅ Баланс «Берёза» (№${id}) скорректирован на -34,50 USD: теперь 1\u00a0200,00 USD.`, 'the adjustment');
    expect((await w.t.admin('GET', `/partners/${id}`)).body.balances.USD).toBe('1200.00');
  });
});
