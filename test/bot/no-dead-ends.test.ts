import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, waitFor } from './fake-telegram.js';
import { labels, settle, World, type Chat } from './harness.js';

/**
 * No dead ends: a collection out of reach says so on its button; the screen of an order the balance cannot
 * pay is titled so (no "Please check the order"); a gift taken by someone else before Confirm offers
 * another of the same collection on the spot; a price that rose offers to buy at today's price.
 */

let w: World;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

async function collections(chat: Chat, ru = false) {
  await chat.say('/order');
  const products = await chat.expectMenu(ru ? 'Что заказать?' : 'What would you like to order?');
  await chat.press(products, button(products, ru ? 'Подарок' : 'Gift'));
  return chat.expectMenu(ru ? 'Выберите коллекцию' : 'Choose a collection');
}

/** The floor price on an English collection button ("from 1,234.500 TON"). */
const floorOf = (label: string) => Number(/from ([\d.,]+) TON/.exec(label)![1].replace(/,/g, ''));

describe('no dead ends', () => {
  it('a collection whose cheapest gift the TON balance cannot pay says so on its button (English and Russian)', async () => {
    const p = await w.t.newPartner({ ton: '100.000' });
    const en = await w.linkedChat(p.id, 'staff', 'en');
    const cols = await collections(en);
    const names = labels(cols).filter((l) => / TON/.test(l));
    expect(names.some((l) => l.endsWith(' · 🔒 above your balance'))).toBe(true);
    expect(names.some((l) => !l.includes('🔒'))).toBe(true);
    for (const l of names) expect(l.endsWith(' · 🔒 above your balance'), l).toBe(floorOf(l) > 100);
    await en.say('/cancel');

    const ru = await w.linkedChat(p.id, 'staff', 'ru');
    const ruCols = await collections(ru, true);
    const lockedAt = labels(ruCols).findIndex((l) => l.endsWith(' · 🔒 дороже баланса'));
    expect(lockedAt).toBeGreaterThanOrEqual(0);
    // its gifts are all 🔒: a press answers with a toast naming both amounts, in Russian
    await ru.press(ruCols, ruCols.buttons[lockedAt][0].callback_data!);
    const page = await ru.expectMenu('подарки от самых дешёвых');
    const price = /· ([\d\u00a0]+,\d{3}) TON 🔒/.exec(page.buttons[0][0].text)![1];
    await ru.press(page, page.buttons[0][0].callback_data!);
    await settle(w);
    expect(w.tg.callsOf('answerCallbackQuery').at(-1)!.payload.text).toBe(
      `🔒 Не хватает TON: 100,000 из ${price}. Пополните баланс TON (владелец аккаунта: /topup) или выберите подарок дешевле.`,
    );
    expect(ru.fresh).toEqual([]);
    await ru.say('/cancel');
  });

  it('an order the balance cannot pay is not titled "Please check the order", in Russian either', async () => {
    const p = await w.t.newPartner({ usd: '10.00' });
    const ru = await w.linkedChat(p.id, 'staff', 'ru');
    await ru.say('/order');
    const products = await ru.expectMenu('Что заказать?');
    await ru.press(products, button(products, 'Звёзды'));
    const amounts = await ru.expectMenu('Сколько звёзд?');
    await ru.press(amounts, button(amounts, /^5000$/));
    await ru.expect('Отправьте имя пользователя получателя');
    await ru.say('@kto_to');
    const short = await ru.expectMenu('Не хватает денег на этот заказ:');
    expect(short.text).not.toContain('Проверьте заказ');
    expect(labels(short)).toEqual(['📣 Попросить владельца пополнить', '◀ Назад', '✖ Отмена']);
  });

  it('from the not-enough-money screen, staff ask the owners to top up: each owner hears it in their language', async () => {
    const p = await w.t.newPartner({ usd: '10.00' });
    const ownerEn = await w.linkedChat(p.id, 'owner', 'en');
    const ownerRu = await w.linkedChat(p.id, 'owner', 'ru');
    const staff = await w.linkedChat(p.id, 'staff', 'en');
    await staff.say('/order');
    const products = await staff.expectMenu('What would you like to order?');
    await staff.press(products, button(products, 'Stars'));
    const amounts = await staff.expectMenu('How many stars?');
    await staff.press(amounts, button(amounts, /^5000$/));
    await staff.expect('Send the recipient');
    await staff.say('@big_order');
    const short = await staff.expectMenu('Not enough money for this order:');
    await staff.press(short, button(short, 'Ask the owner to top up'));
    const who = staff.user.first_name;
    await ownerEn.expect(`📣 ${who} could not place an order: the USD balance is 68.75 USD short. Top it up with /topup.`);
    await ownerRu.expect(`📣 ${who} не может оформить заказ: на балансе USD не хватает 68,75 USD. Пополните его через /topup.`);
    await waitFor(() => w.current(short).text.endsWith('📣 The owner was asked to top up the balance. Order again once it is done.'), 'the screen says the owner was asked');
    expect(w.current(short).buttons).toEqual([]);
    expect((await p.call('GET', '/orders')).body.items).toEqual([]);
  });

  it('when another buyer takes the gift before Confirm, then the same message offers another of its collection, and it opens', async () => {
    const p = await w.t.newPartner();
    const rival = await w.t.newPartner();
    const chat = await w.linkedChat(p.id, 'staff', 'en');
    const cols = await collections(chat);
    const colName = labels(cols)[1].split(' · ')[0];
    await chat.press(cols, cols.buttons[1][0].callback_data!);
    const page = await chat.expectMenu('gifts from the cheapest (page 1 of');
    await chat.press(page, page.buttons[0][0].callback_data!);
    await chat.expect('Send the recipient');
    await chat.say('@late_buyer');
    const confirm = await chat.expectMenu('Please check the order');
    const gift = /Gift (.+) #(\d+) \(/.exec(confirm.text);
    const col = (await rival.call('GET', '/nft/collections')).body.items.find((c: { name: string }) => c.name === colName);
    const listed = (await rival.call('GET', `/nft/gifts?collection=${col.collection}&limit=100`)).body.items.find((g: { num: number }) => g.num === Number(gift![2]));
    expect((await rival.order('nft', { gift: listed.gift, recipient: '@quick_buyer', max_price: listed.partner_price })).status).toBe(200);

    await chat.press(confirm, button(confirm, 'Confirm'));
    const offer = await chat.expectMenu(/^(Another order is already buying this gift\.|This gift is sold or no longer listed\. Nothing was debited\.)$/);
    expect(labels(offer)).toEqual([`🎁 Choose another from ${colName}`, '✖ Cancel']);
    await chat.press(offer, button(offer, 'Choose another'));
    const again = await chat.expectMenu(`${colName}: gifts from the cheapest (page 1 of`);
    expect(again.message_id).toBe(confirm.message_id); // a fresh page of the same collection, where the person is
    await settle(w);
    expect((await p.call('GET', '/orders')).body.items).toEqual([]);
    await chat.say('/cancel');
    await waitFor(() => w.current(again).text === '✖ Cancelled.', 'cancelled');
  });

  for (const ru of [false, true]) {
    it(`when the gift picked from the page was sold meanwhile, then the page says so in place and offers another of its collection (${ru ? 'Russian' : 'English'})`, async () => {
      const p = await w.t.newPartner();
      const rival = await w.t.newPartner();
      const chat = await w.linkedChat(p.id, 'staff', ru ? 'ru' : 'en');
      const cols = await collections(chat, ru);
      const colName = labels(cols)[2].split(' · ')[0];
      await chat.press(cols, cols.buttons[2][0].callback_data!);
      const page = await chat.expectMenu(ru ? 'подарки от самых дешёвых (страница 1 из' : 'gifts from the cheapest (page 1 of');
      // another buyer takes the cheapest gift on the page before it is picked
      const col = (await rival.call('GET', '/nft/collections')).body.items.find((c: { name: string }) => c.name === colName);
      const cheapest = (await rival.call('GET', `/nft/gifts?collection=${col.collection}&sort=price_asc&limit=1`)).body.items[0];
      expect(page.text).toContain(`#${cheapest.num}`);
      const bought = await rival.order('nft', { gift: cheapest.gift, recipient: '@quick_buyer', max_price: cheapest.partner_price });
      expect(bought.status).toBe(200);
      for (let i = 0; i < 30 && (await rival.call('GET', `/orders/${bought.body.order_id}`)).body.status !== 'completed'; i++) await w.t.advance(5);
      expect((await rival.call('GET', `/orders/${bought.body.order_id}`)).body.status).toBe('completed');

      await chat.press(page, page.buttons[0][0].callback_data!);
      const sold = ru ? 'Этот подарок только что продан или забронирован.' : 'This gift was just sold or reserved.';
      await waitFor(() => w.current(page).text === sold, 'the page edited into the sold notice');
      expect(labels(w.current(page))).toEqual([ru ? `🎁 Выбрать другой из «${colName}»` : `🎁 Choose another from ${colName}`, ru ? '✖ Отмена' : '✖ Cancel']);
      // no second message says it
      await settle(w);
      expect(chat.all.filter((m) => m.message_id > page.message_id)).toEqual([]);
      await chat.press(page, button(w.current(page), ru ? 'Выбрать другой' : 'Choose another'));
      const again = await chat.expectMenu(`${colName}: ${ru ? 'подарки от самых дешёвых (страница 1 из' : 'gifts from the cheapest (page 1 of'}`);
      expect(again.message_id).toBe(page.message_id); // the same message, a fresh page
      expect(again.text).not.toContain(`#${cheapest.num} `);
      expect((await p.call('GET', '/orders')).body.items).toEqual([]);
      await chat.say('/cancel');
      await waitFor(() => w.current(again).buttons.length === 0, 'cancelled');
    });
  }
});
