import { depositNumber } from '../../bot/deposit-numbers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEPOSIT_ADDRESSES } from '../../src/config/deposit-addresses.js';
import { button, waitFor, type BotMessage, type TgUser } from './fake-telegram.js';
import { labels, OPERATOR, settle, World } from './harness.js';

/**
 * Two operators coordinate: when one handles a case (a review, an unmatched deposit), every card of it in
 * both chats says who handled it and how, without buttons; a stale card changes nothing and tells who
 * handled it; /reviews and /deposits open with a summary and list the cases paged, each once.
 */

const SECOND: TgUser = { id: 900_002, first_name: 'Pavel', language_code: 'ru' };

let w: World;
let tx = 0;
const txh = () => `0x${(++tx).toString(16).padStart(8, '0')}${'c'.repeat(56)}`;

beforeAll(async () => {
  w = await World.start({ ADMIN_CHAT_IDS: `${OPERATOR.id},${SECOND.id}` });
});
afterAll(async () => {
  await w?.close();
});

async function usdt(amount: string) {
  const r = await w.t.admin('POST', '/sandbox/deposits', { network: 'trc20', asset: 'USDT', amount, to: SANDBOX_DEPOSIT_ADDRESSES.DEPOSIT_ADDRESS_USDT_TRC20, tx_hash: txh() });
  expect(r.status, r.raw).toBe(201);
  return r.body;
}

/** An operator chat whose language the bot knows (remembered from a /help). */
async function operator(user: TgUser) {
  const op = w.chat(user);
  await op.say('/help');
  await op.expect(/Operator:|Оператор:/);
  return op;
}

async function advanceUntil<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, what: string): Promise<T> {
  for (let i = 0; i < 40; i++) {
    const v = await probe();
    if (v) return v;
    await w.t.advance(5);
    await new Promise((r) => setTimeout(r, 10));
  }
  return waitFor(probe, what, 2000);
}

/** An order waiting for review, and its alert in each operator chat. */
async function reviewCase(recipient: string) {
  const p = await w.t.newPartner();
  const orderId = (await p.order('stars', { quantity: 100, recipient })).body.order_id as string;
  const find = (chatId: number) => w.tg.to(chatId).find((m) => m.text.includes(orderId) && m.buttons.length > 0);
  const [a, b] = await advanceUntil(() => {
    const x = find(OPERATOR.id);
    const y = find(SECOND.id);
    return x && y ? [x, y] : null;
  }, 'both alerts');
  return { p, orderId, alerts: [a, b] as [BotMessage, BotMessage] };
}

describe('handled cases in every operator chat', () => {
  it('a refund by one operator edits every card of the order in both chats (each in its language); a stale press changes nothing and says who', async () => {
    const olga = await operator(OPERATOR);
    const pavel = await operator(SECOND);
    const { p, orderId, alerts } = await reviewCase('unconfirmed_ann');
    const staleDeliver = button(alerts[1], 'Доставлен');

    // Olga also opens the case from /reviews: one more card of it
    await olga.say('/reviews');
    const list = await olga.expectMenu('Orders waiting for review:');
    await olga.press(list, button(list, orderId));
    const card = await waitFor(() => w.current(list).text.includes('Manual review needed') && w.current(list), 'the case opened in place');
    expect(labels(card)).toEqual(['✅ Deliver', '↩️ Refund', '◀ List']);

    await olga.press(card, button(card, 'Refund'));
    const sure = await waitFor(() => w.current(list).text.includes('Refund this order') && w.current(list), 'are you sure');
    await olga.press(sure, button(sure, 'Yes, refund'));
    await waitFor(() => [alerts[0], alerts[1], list].every((m) => w.current(m).buttons.length === 0), 'every card settled');
    const time = /\d{4}-\d\d-\d\d \d\d:\d\d UTC/;
    expect(w.current(list).text).toMatch(new RegExp(`^🔎 Order ${orderId} of “Test partner”: 100 stars for @unconfirmed_ann`));
    expect(w.current(list).text).toMatch(/↩️ Refunded by Olga, \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/);
    expect(w.current(alerts[0]).text).toBe(w.current(list).text);
    expect(w.current(alerts[1]).text).toMatch(new RegExp(`^🔎 Заказ ${orderId} партнёра «Test partner»:`));
    expect(w.current(alerts[1]).text).toMatch(/↩️ Деньги возвращены — Olga, \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/);
    expect(w.current(alerts[1]).text).toMatch(time);
    expect((await p.call('GET', `/orders/${orderId}`)).body).toMatchObject({ status: 'failed', refunded: true });

    // Pavel presses Deliver on his copy as it was before (a client that had not refreshed): nothing changes
    const before = w.tg.callsOf('editMessageText').length;
    await pavel.press(alerts[1], staleDeliver);
    await settle(w);
    const toast = w.tg.callsOf('answerCallbackQuery').at(-1)!.payload;
    expect(toast.text).toMatch(/^Ничего не изменилось: это уже решено\. ↩️ Деньги возвращены — Olga/);
    expect(toast.show_alert).toBe(true);
    expect(pavel.fresh).toEqual([]);
    expect(w.tg.callsOf('editMessageText').length).toBe(before); // the card already says it
    expect((await p.call('GET', `/orders/${orderId}`)).body).toMatchObject({ status: 'failed', refunded: true });
    expect((await p.call('GET', '/me')).body.balances.USD).toBe('1000.00');
  });

  it('a review resolved over the operator API: the cards say it was handled outside the bot', async () => {
    const { orderId, alerts } = await reviewCase('unconfirmed_bob');
    const r = await w.t.admin('POST', `/orders/${orderId}/resolve`, { outcome: 'delivered' });
    expect(r.status, r.raw).toBe(200);
    await waitFor(() => alerts.every((m) => w.current(m).buttons.length === 0), 'the cards settled');
    expect(w.current(alerts[0]).text).toMatch(/✅ Marked delivered outside the bot \(operator console or API\), .+ UTC\.$/);
    expect(w.current(alerts[1]).text).toMatch(/✅ Отмечен доставленным — вне бота \(консоль оператора или API\), .+ UTC\.$/);
  });

  it('a deposit closed by one operator: the other’s card says so; his Credit on it changes nothing', async () => {
    const olga = await operator(OPERATOR);
    const pavel = await operator(SECOND);
    const d = await usdt('41.41');
    const mine = await olga.expectMenu(`Deposit ${depositNumber(w.t.deps, d.deposit_id)}`);
    const his = await pavel.expectMenu(`Поступление ${depositNumber(w.t.deps, d.deposit_id)}`);
    const staleCredit = button(his, 'Зачислить');
    await olga.press(mine, button(mine, 'Close'));
    await olga.expect('Send a short note why');
    await olga.say('returned to the sender');
    await olga.expect('closed: returned to the sender');
    await waitFor(() => w.current(his).buttons.length === 0 && w.current(mine).buttons.length === 0, 'both cards settled');
    expect(w.current(mine).text).toMatch(new RegExp(`^💰 Deposit ${depositNumber(w.t.deps, d.deposit_id)}: 41.41 USDT on TRC-20 \\(TRON\\)\\n\\n✖ Closed by Olga, .+ UTC: returned to the sender$`));
    expect(w.current(his).text).toMatch(/✖ Закрыто — Olga, .+ UTC: returned to the sender$/);

    await pavel.press(his, staleCredit);
    await settle(w);
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload.text).toMatch(/^Ничего не изменилось: это уже решено\. ✖ Закрыто — Olga/);
    expect(pavel.fresh).toEqual([]);
    const view = (await w.t.admin('GET', '/deposits?status=closed')).body.items.find((x: { deposit_id: string }) => x.deposit_id === d.deposit_id);
    expect(view.status).toBe('closed');
  });
});

describe('/reviews and /deposits', () => {
  it('/deposits opens with the count and the oldest age, then five cases a page, each once; a case opens in place and goes back to the list', async () => {
    const olga = await operator(OPERATOR);
    for (let i = 0; i < 6; i++) await usdt(`6${i}.00`);
    await w.t.advance(3 * 3600);
    const waiting = (await w.t.admin('GET', '/deposits?status=unmatched')).body.items as { deposit_id: string; amount: string }[];
    expect(waiting.length).toBeGreaterThanOrEqual(6);
    const pages = Math.ceil(waiting.length / 5);
    await settle(w);
    await olga.say('/deposits');
    const list = await olga.expectMenu('Deposits not credited automatically:');
    expect(olga.fresh.filter((m) => m.buttons.length > 0)).toHaveLength(1); // one message, not a card per deposit
    expect(list.text.split('\n')[0]).toMatch(new RegExp(`^Deposits not credited automatically: ${waiting.length}; the oldest came \\d+ h( \\d+ min)? ago\\.$`));
    expect(list.text.split('\n')[1]).toBe(`Page 1 of ${pages}; tap a case to open it.`);
    const seen = new Set<string>();
    const collect = (m: BotMessage) => m.buttons.flat().forEach((b) => b.callback_data?.startsWith('co:') && seen.add(b.callback_data.split(':').slice(3).join(':')));
    collect(list);
    expect(labels(list).filter((l) => /^\d+\. /.test(l))).toHaveLength(5);
    expect(labels(list).at(-1)).toBe('Next ▶');
    for (let page = 2; page <= pages; page++) {
      await olga.press(w.current(list), button(w.current(list), 'Next ▶'));
      await waitFor(() => w.current(list).text.includes(`Page ${page} of ${pages}`), `page ${page}`);
      collect(w.current(list));
    }
    expect([...seen].sort()).toEqual(waiting.map((d) => d.deposit_id).sort());

    // a case opens as its card in the same message; ◀ List goes back
    await olga.press(w.current(list), button(w.current(list), /^\d+\. /));
    await waitFor(() => w.current(list).text.startsWith('💰 Deposit '), 'the card');
    expect(labels(w.current(list))).toEqual(['💰 Credit to partner…', '✖ Close', '± Correct a partner’s balance…', '◀ List']);
    await olga.press(w.current(list), button(w.current(list), '◀ List'));
    await waitFor(() => w.current(list).text.startsWith('Deposits not credited automatically:'), 'the list again');
  });

  it('/reviews in Russian: the summary and the page', async () => {
    const pavel = await operator(SECOND);
    const { orderId } = await reviewCase('unconfirmed_kim');
    await pavel.say('/reviews');
    const list = await pavel.expectMenu('Заказов на проверке:');
    expect(list.text.split('\n')[0]).toMatch(/^Заказов на проверке: \d+; самый давний ждёт \d+ (мин|ч)/);
    expect(list.text).toContain(`${orderId} · «Test partner»`);
    expect(list.text).toMatch(/Страница 1 из \d+; нажмите на номер ниже, чтобы открыть\./);
  });
});
