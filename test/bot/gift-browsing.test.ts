import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestPartner } from '../helpers.js';
import { button, waitFor, type BotMessage } from './fake-telegram.js';
import { labels, newUser, settle, World, type Chat } from './harness.js';

/**
 * Browsing a gift collection in the bot: a jump to a typed page number, "only what I can afford", a gift
 * found by its number (#1234), each gift's model / backdrop / symbol, and in a private chat the Mini App's
 * gift grid opened at the collection. The sandbox's first collection (Plush Pepe) has 150 gifts: 30 pages.
 */

let w: World;
let nextGroup = -1_000_900;
beforeAll(async () => {
  w = await World.start({ PUBLIC_BASE_URL: 'https://dash.example.test' });
});
afterAll(async () => {
  await w?.close();
});
// not one call the Bot API refused (an edit to the same content, a bad keyboard)
afterEach(async () => {
  await settle(w, 50);
  expect(w.tg.refused.map((c) => `${c.method}: ${c.error}`)).toEqual([]);
});

interface Listed {
  gift: string;
  name: string;
  num: number;
  partner_price: string;
}

/** Every gift of the collection on sale, cheapest first, from the partner API. */
async function catalog(p: TestPartner, collection: string): Promise<Listed[]> {
  const out: Listed[] = [];
  let cursor: string | null = null;
  do {
    const r: { items: Listed[]; next_cursor: string | null } = (await p.call('GET', `/nft/gifts?collection=${collection}&sort=price_asc&limit=100${cursor ? `&cursor=${cursor}` : ''}`)).body;
    out.push(...r.items);
    cursor = r.next_cursor;
  } while (cursor);
  return out;
}

const en = (v: string) => Number(v).toLocaleString('en-US', { minimumFractionDigits: 3 });
const ru = (v: string) => Number(v).toLocaleString('en-US', { minimumFractionDigits: 3 }).replace(/,/g, '\u00a0').replace('.', ',');

async function openGifts(chat: Chat, lang: 'en' | 'ru' = 'en'): Promise<BotMessage> {
  await chat.say('/order');
  const products = await chat.expectMenu(lang === 'en' ? 'What would you like to order?' : 'Что заказать?');
  await chat.press(products, button(products, lang === 'en' ? 'Gift' : 'Подарок'));
  const cols = await chat.expectMenu(lang === 'en' ? 'Choose a collection' : 'Выберите коллекцию');
  await chat.press(cols, cols.buttons[0][0].callback_data!);
  return chat.expectMenu(lang === 'en' ? 'Plush Pepe: gifts from the cheapest (page 1 of 30)' : 'Plush Pepe: подарки от самых дешёвых (страница 1 из 30)');
}

const current = (m: BotMessage) => w.current(m);
const until = (m: BotMessage, text: string) => waitFor(() => (current(m).text.includes(text) ? current(m) : undefined), `the menu to show "${text}"`);

describe('browsing a gift collection in a private chat', () => {
  it('shows model, backdrop and symbol; "Page 1 of 30" asks for a number; a typed page jumps; wrong input gets one hint line; #number finds the gift', async () => {
    const p = await w.t.newPartner({ ton: '1000.000' });
    const chat = await w.linkedChat(p.id, 'staff');
    const all = await catalog(p, 'PlushPepe');
    expect(all).toHaveLength(150);
    const page = await openGifts(chat);

    // each gift: its line, then its model · backdrop · symbol (those of its quote)
    const firstQuote = (await p.call('GET', `/nft/gifts/${all[0].gift}`)).body;
    const { model, backdrop, symbol } = firstQuote.attributes;
    expect(page.text.split('\n').slice(2, 4)).toEqual([`1. Plush Pepe #${all[0].num} — ${en(all[0].partner_price)} TON${Number(all[0].partner_price) > 1000 ? ' 🔒' : ''}`, `    ${model} · ${backdrop} · ${symbol}`]);
    expect(page.text.split('\n').filter((l) => / · .+ · /.test(l))).toHaveLength(5);

    // the rows: five gifts, paging with the page button, the filter and the Mini App at this collection, Back, Cancel
    expect(page.buttons.slice(5).map((r) => r.map((b) => b.text))).toEqual([['Page 1 of 30', 'Pricier ▶'], ['💰 Only what I can afford', '🖼 Open in the app'], ['◀ Back'], ['✖ Cancel']]);
    expect(page.buttons[6][1]).toEqual({ text: '🖼 Open in the app', web_app: { url: 'https://dash.example.test/app/?collection=PlushPepe' } });

    // the hint is a line under the page, in its message (no message of its own)
    const pageText = page.text;
    await chat.press(page, button(page, 'Page 1 of 30'));
    const hint = 'Send a page number from 1 to 30, or a gift’s number such as #1234.';
    expect((await chat.expect('Send a page number')).text).toBe(`${pageText}\n\n${hint}`);
    for (const wrong of ['abc', '0', '31', '2.5']) {
      await chat.say(wrong);
      const m = await chat.expect(`“${wrong}”`);
      expect(m.message_id).toBe(page.message_id);
      expect(m.text).toBe(`${pageText}\n\n⚠️ “${wrong}”: ${hint}`);
      expect(chat.fresh).toHaveLength(0);
    }
    expect(current(page).text).toContain('(page 1 of 30)');

    await chat.say('17');
    const p17 = await until(page, '(page 17 of 30)');
    expect(p17.text).toContain(`1. Plush Pepe #${all[80].num} — ${en(all[80].partner_price)} TON`);
    expect(p17.text).toContain(`5. Plush Pepe #${all[84].num} — ${en(all[84].partner_price)} TON`);
    expect(labels(p17)).toEqual(expect.arrayContaining(['◀ Cheaper', 'Page 17 of 30', 'Pricier ▶']));
    await settle(w);
    expect(chat.fresh).toEqual([]); // the jump edits the menu in place

    // #number: the gift, wherever it is in the collection, with its button and the way back to the pages
    const far = all[133];
    const farQuote = (await p.call('GET', `/nft/gifts/${far.gift}`)).body;
    await chat.say(`#${far.num}`);
    const found = await until(page, 'the gift you asked for');
    const foundText = found.text;
    expect(found.text.split('\n')).toEqual([
      'Plush Pepe: the gift you asked for. Prices include the transfer.',
      '',
      `1. Plush Pepe #${far.num} — ${en(far.partner_price)} TON 🔒`,
      `    ${farQuote.attributes.model} · ${farQuote.attributes.backdrop} · ${farQuote.attributes.symbol}`,
      '',
      '🔒 above your TON balance (1,000.000 TON): top up first (the account owner: /topup).',
    ]);
    expect(labels(found)).toEqual([`1. #${far.num} · ${en(far.partner_price)} TON 🔒`, '◀ All gifts', '🖼 Open in the app', '◀ Back', '✖ Cancel']);

    // a number that is not on sale in this collection
    const nums = new Set(all.map((g) => g.num));
    const missing = [...Array(10_000).keys()].find((n) => n > 0 && !nums.has(n))!;
    await chat.say(`#${missing}`);
    expect((await chat.expect('not for sale')).text).toBe(`${foundText}\n\nPlush Pepe #${missing} is not for sale.`);
    // a gift just sold on the market
    const sold = all[60];
    expect((await w.t.admin('PUT', `/sandbox/gifts/${sold.gift}`, { available: false })).status).toBe(200);
    await chat.say(`#${sold.num}`);
    expect((await chat.expect('not for sale')).text.split('\n').at(-1)).toBe(`Plush Pepe #${sold.num} is not for sale.`);
    expect(current(page).text).toContain('the gift you asked for'); // the menu stays as it was
    expect(chat.fresh).toEqual([]);

    await chat.press(current(page), button(current(page), 'All gifts'));
    await until(page, '(page 1 of 30)');

    // an affordable gift found by number can be chosen from there
    const cheap = all[2];
    await chat.say(`# ${cheap.num}`);
    const one = await until(page, 'the gift you asked for');
    await chat.press(one, one.buttons[0][0].callback_data!);
    await chat.expect('Send the recipient');
    expect(current(page).text).toBe(`🎁 Plush Pepe #${cheap.num}\n\nSend the recipient’s Telegram username (for example @username).`);
    await chat.say('/cancel');
    await chat.expect('Cancelled');
    expect(current(page).text).toBe('✖ Cancelled.');
  });

  it('"Only what I can afford" keeps to the TON balance (pages, typed page numbers) and "Show all" brings every gift back', async () => {
    const p = await w.t.newPartner({ ton: '1000.000' });
    const chat = await w.linkedChat(p.id, 'staff');
    const all = await catalog(p, 'PlushPepe');
    const fits = all.filter((g) => Number(g.partner_price) <= 1000);
    expect(fits.length).toBeGreaterThan(5); // two pages or more
    const pages = Math.ceil(fits.length / 5);
    const page = await openGifts(chat);

    await chat.press(page, button(page, 'Only what I can afford'));
    const only = await until(page, 'within your');
    expect(only.text.split('\n')[0]).toBe(`Plush Pepe: gifts within your 1,000.000 TON, from the cheapest (page 1 of ${pages}). Prices include the transfer.`);
    expect(only.text).not.toContain('🔒');
    expect(labels(only)).toEqual(expect.arrayContaining([`Page 1 of ${pages}`, '💰 Show all']));

    await chat.press(only, button(only, `Page 1 of ${pages}`));
    expect((await chat.expect('Send a page number')).text.split('\n').at(-1)).toBe(`Send a page number from 1 to ${pages}, or a gift’s number such as #1234.`);
    await chat.say(String(pages + 1));
    await chat.expect(`“${pages + 1}”: Send a page number from 1 to ${pages},`);
    await chat.say(String(pages));
    const last = await until(page, `(page ${pages} of ${pages})`);
    const lastFit = fits[fits.length - 1];
    expect(last.text).toContain(`Plush Pepe #${lastFit.num} — ${en(lastFit.partner_price)} TON`);
    expect(last.text).not.toContain('🔒');
    expect(labels(last)).not.toContain('Pricier ▶');

    await chat.press(last, button(last, 'Show all'));
    const back = await until(page, 'gifts from the cheapest (page 1 of 30)');
    expect(labels(back)).toContain('💰 Only what I can afford');
    await chat.say('/cancel');
    await chat.expect('Cancelled');
  });
});

describe('in Russian, and in a group', () => {
  it('in Russian: nothing affordable (too little TON), the page hint, "not for sale", a gift found by number, the filtered pages', async () => {
    const p = await w.t.newPartner({ ton: '10.000' });
    const chat = await w.linkedChat(p.id, 'staff', 'ru');
    const all = await catalog(p, 'PlushPepe');
    const page = await openGifts(chat, 'ru');
    expect(page.buttons.slice(5).map((r) => r.map((b) => b.text))).toEqual([['Страница 1 из 30', 'Дороже ▶'], ['💰 Только по карману', '🖼 Открыть в приложении'], ['◀ Назад'], ['✖ Отмена']]);

    await chat.press(page, button(page, 'Только по карману'));
    const none = await until(page, 'нет подарков по вашему балансу');
    expect(none.text).toBe(
      `В «Plush Pepe» нет подарков по вашему балансу TON (10,000 TON): самый дешёвый стоит ${ru(all[0].partner_price)} TON. Пополните TON (владелец аккаунта: /topup) или покажите все подарки.`,
    );
    expect(labels(none)).toEqual(['💰 Показать все', '🖼 Открыть в приложении', '◀ Назад', '✖ Отмена']);

    await chat.press(none, button(none, 'Показать все'));
    await until(page, '(страница 1 из 30)');
    await chat.say('сорок');
    expect((await chat.expect('Отправьте номер страницы')).text.split('\n').at(-1)).toBe('⚠️ «сорок»: Отправьте номер страницы от 1 до 30 или номер подарка, например #1234.');
    await chat.say('#0');
    expect((await chat.expect('не продаётся')).text.split('\n').at(-1)).toBe('Plush Pepe #0 не продаётся.');
    expect(chat.fresh).toEqual([]);
    await chat.say('30');
    const last = await until(page, '(страница 30 из 30)');
    expect(last.text).toContain(`Plush Pepe #${all.at(-1)!.num} — ${ru(all.at(-1)!.partner_price)} TON 🔒`);
    await chat.say(`#${all[7].num}`);
    const found = await until(page, 'подарок, который вы искали');
    expect(found.text.split('\n').slice(0, 3)).toEqual(['Plush Pepe: подарок, который вы искали. Цены с учётом передачи.', '', `1. Plush Pepe #${all[7].num} — ${ru(all[7].partner_price)} TON 🔒`]);
    expect(labels(found).slice(1)).toEqual(['◀ Все подарки', '🖼 Открыть в приложении', '◀ Назад', '✖ Отмена']);
    await chat.say('/cancel');
    await chat.expect('Отменено');

    // with enough TON: the filtered pages' title
    const rich = await w.t.newPartner({ ton: '1000.000' });
    const fits = all.filter((g) => Number(g.partner_price) <= 1000).length;
    const ruRich = await w.linkedChat(rich.id, 'staff', 'ru');
    const richPage = await openGifts(ruRich, 'ru');
    await ruRich.press(richPage, button(richPage, 'Только по карману'));
    const only = await until(richPage, 'в пределах ваших');
    expect(only.text.split('\n')[0]).toBe(`Plush Pepe: подарки в пределах ваших 1\u00a0000,000 TON, от самых дешёвых (страница 1 из ${Math.ceil(fits / 5)}). Цены с учётом передачи.`);
    expect(labels(only)).toContain('💰 Показать все');
    await ruRich.say('/cancel');
    await ruRich.expect('Отменено');
  });

  it('in a group: no Mini App button; the page button asks for a reply to the page, and the reply jumps to the page', async () => {
    const p = await w.t.newPartner({ ton: '1000.000' });
    const user = newUser('en');
    await w.link(user, p.id, 'staff');
    const group = w.chat(user, nextGroup--);
    const page = await openGifts(group);
    expect(page.buttons.slice(5).map((r) => r.map((b) => b.text))).toEqual([['Page 1 of 30', 'Pricier ▶'], ['💰 Only what I can afford'], ['◀ Back'], ['✖ Cancel']]);
    expect(page.buttons.flat().some((b) => b.web_app !== undefined)).toBe(false);

    await group.press(page, button(page, 'Page 1 of 30'));
    const ask = await group.expect('Reply to this message with a page number');
    expect(ask.message_id).toBe(page.message_id);
    expect(ask.text.split('\n').at(-1)).toBe('Reply to this message with a page number from 1 to 30, or a gift’s number such as #1234.');
    await group.reply(ask, '3');
    await until(page, '(page 3 of 30)');
    expect(group.all.filter((m) => m.message_id > page.message_id)).toEqual([]);
    await group.say('/cancel');
    await group.expect('Cancelled');
  });
});
