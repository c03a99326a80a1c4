import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, waitFor } from './fake-telegram.js';
import { labels, settle, World } from './harness.js';

/**
 * The smaller things people met: a product or an amount typed at the menu is understood; wrong usernames
 * edit one prompt; "prices are unavailable" comes with "Try again"; choosing webhook events before any
 * address makes no secret; the first key ever claims no previous key; a gift's maximum price is worded as what
 * happens (debited now, refunded if the gift costs more).
 */
let w: World;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

describe('typed input', () => {
  it('“Stars” typed at the product menu, “250” at the amounts; three wrong usernames edit one prompt (English and Russian)', async () => {
    const p = await w.t.newPartner();
    for (const [lang, words] of [
      ['en', { product: 'What would you like', stars: 'Stars', amounts: 'How many stars?', who: 'Send the recipient', notFound: 'No such Telegram user', check: 'Please check the order', quote: '250 stars for @ivy_user' }],
      ['ru', { product: 'Что заказать', stars: 'звёзды', amounts: 'Сколько звёзд?', who: 'Отправьте имя пользователя', notFound: 'Такого пользователя Telegram нет', check: 'Проверьте заказ', quote: '250 звёзд для @ivy_user' }],
    ] as const) {
      const chat = await w.linkedChat(p.id, 'staff', lang);
      await chat.say('/order');
      const m = await chat.expectMenu(words.product);
      await chat.say(words.stars);
      await chat.expectMenu(words.amounts);
      await chat.say('250');
      await chat.expect(words.who);
      for (const wrong of ['@ghost_one', '@ghost_two', '@ghost_three']) {
        await chat.say(wrong);
        const shown = await chat.expect(wrong);
        expect(shown.message_id).toBe(m.message_id);
        expect(shown.text).toContain(words.notFound);
      }
      await settle(w);
      expect(chat.all.filter((x) => x.message_id >= m.message_id)).toHaveLength(1);
      await chat.say('@ivy_user');
      const confirm = await chat.expectMenu(words.check);
      expect(confirm.text).toContain(words.quote);
      await chat.say('/cancel');
      await waitFor(() => w.current(confirm).text.startsWith('✖'), 'cancelled');
    }
  });

  it('prices unavailable: the message says so with “Try again”, which goes on to the confirmation once they are back', async () => {
    const p = await w.t.newPartner();
    const chat = await w.linkedChat(p.id, 'staff', 'en');
    await chat.say('/order');
    const m = await chat.expectMenu('What would you like');
    await chat.press(m, button(m, 'Stars'));
    const amounts = await chat.expectMenu('How many stars?');
    await chat.press(amounts, button(amounts, /^100$/));
    await chat.expect('Send the recipient');
    expect((await w.t.admin('PUT', '/sandbox/market', { unavailable: true })).status).toBe(200);
    try {
      await chat.say('@jade_user');
      const wait = await chat.expectMenu('Prices are temporarily unavailable');
      expect(labels(wait)).toEqual(['🔄 Try again', '◀ Back', '✖ Cancel']);
      await chat.press(wait, button(wait, 'Try again'));
      await settle(w);
      expect(w.current(wait).text).toContain('Prices are temporarily unavailable');
    } finally {
      expect((await w.t.admin('PUT', '/sandbox/market', { unavailable: false })).status).toBe(200);
    }
    const wait = chat.all.at(-1)!;
    await chat.press(wait, button(wait, 'Try again'));
    const confirm = await chat.expectMenu('Please check the order');
    expect(confirm.message_id).toBe(wait.message_id);
  });
});

describe('owners', () => {
  it('webhook events chosen before any address make no secret; the first address then shows one', async () => {
    const p = await w.t.admin('POST', '/partners', { name: 'Hookless' });
    const id = p.body.partner_id as number;
    const owner = await w.linkedChat(id, 'owner', 'en');
    await owner.say('/webhook');
    const m = await owner.expectMenu('Webhook');
    await owner.press(m, button(m, 'Events'));
    const which = await owner.expectMenu('Which events');
    await owner.press(which, button(which, 'low balance'));
    await waitFor(() => w.current(m).text.startsWith('Saved. Events:'), 'saved');
    expect(w.current(m).text).not.toMatch(/whsec_/);
    expect((await w.t.admin('GET', `/partners/${id}`)).body.webhook).toMatchObject({ url: null, has_secret: false });
    await owner.say('/webhook');
    const again = await owner.expectMenu('Webhook');
    expect(again.text).toContain('Events: order completed, order failed, order refunded, low balance');
    await owner.press(again, button(again, 'Set address'));
    await owner.say('https://hooks.example.com/x');
    const saved = await owner.expect('whsec_');
    expect(saved.text).not.toContain('previous secret');
  });

  it('the first key ever claims no previous key; a replacement says the old one stopped', async () => {
    const p = await w.t.admin('POST', '/partners', { name: 'Keyless' });
    const id = p.body.partner_id as number;
    expect((await w.t.admin('POST', `/partners/${id}/topups`, { currency: 'USD', amount: '10.00', network: 'ton', tx_hash: `keyless-${process.pid}` })).status).toBe(201);
    const owner = await w.linkedChat(id, 'owner', 'ru');
    await owner.say('/apikey');
    const m = await owner.expectMenu('Выпустить API-ключ для вашего магазина?');
    await owner.press(m, button(m, 'без ограничения'));
    const key = await owner.expect('Новый API-ключ');
    expect(key.text).not.toContain('Прежний ключ');
    await owner.say('/apikey');
    const again = await owner.expectMenu('Выпустить новый API-ключ?');
    await owner.press(again, button(again, 'без ограничения'));
    const sure = await owner.expectMenu('Заменить API-ключ?');
    await owner.press(sure, button(sure, 'Да, заменить'));
    const second = await owner.expect('Новый API-ключ');
    expect(second.text).toContain('Прежний ключ больше не работает.');
  });
});
