import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositNumber } from '../../bot/deposit-numbers.js';
import { button } from './fake-telegram.js';
import { OPERATOR, World, type Chat } from './harness.js';

/**
 * Numbers and times by language: thousands separators, a decimal comma in Russian, times marked UTC; a
 * typed number of stars below the minimum is told "at least 50", not "not a whole number".
 */

let w: World;
/** A second operator chat, configured Russian. */
const RU_OPERATOR = { id: 900_077, first_name: 'Oleg', language_code: 'ru' };

beforeAll(async () => {
  w = await World.start({ ADMIN_CHAT_IDS: `${OPERATOR.id},${RU_OPERATOR.id}:ru` });
});
afterAll(async () => {
  await w?.close();
});

async function toTyping(chat: Chat, ru: boolean): Promise<void> {
  await chat.say('/order');
  const products = await chat.expectMenu(ru ? 'Что заказать?' : 'What would you like to order?');
  await chat.press(products, button(products, ru ? 'Звёзды' : 'Stars'));
  const amounts = await chat.expectMenu(ru ? 'Сколько звёзд? (от 50 до 50\u00a0000)' : 'How many stars? (50 to 50,000)');
  await chat.press(amounts, button(amounts, ru ? 'Другое количество' : 'Other amount'));
}

describe('numbers and times by language', () => {
  it('in English: thousands separators, "at least 50" for 10 stars, "at most" above the maximum, times in UTC', async () => {
    const p = await w.t.newPartner();
    const chat = await w.linkedChat(p.id, 'staff', 'en');
    await chat.say('/balance');
    const balance = await chat.expect('Balances:');
    expect(balance.text).toContain('USD: 1,000.00 (Stars, Premium)');

    await toTyping(chat, false);
    await chat.expect('Send the number of stars, a whole number from 50 to 50,000.');
    await chat.say('10');
    await chat.expect('At least 50 stars can be ordered: send a number from 50 to 50,000, or /cancel.');
    await chat.say('60000');
    await chat.expect('At most 50,000 stars can be ordered at once: send a number from 50 to 50,000, or /cancel.');
    await chat.say('ten');
    await chat.expect('That is not a whole number from 50 to 50,000. Try again or send /cancel.');
    await chat.say('1000');
    await chat.expect('Send the recipient');
    await chat.say('@thousand_user');
    const confirm = await chat.expectMenu('Please check the order');
    expect(confirm.text).toContain('Price: 15.75 USD');
    expect(confirm.text).toContain('Balance: 1,000.00 USD → after the order: 984.25 USD');
    await chat.press(confirm, button(confirm, 'Confirm'));
    const accepted = await chat.expect('accepted');
    const number = /PA-\d+/.exec(accepted.text)![0];
    await chat.say(`/status ${number}`);
    const status = await chat.expect(`Order ${number}`);
    expect(status.text).toMatch(/Created: \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  });

  it('in Russian: a no-break space between thousands and a decimal comma', async () => {
    const p = await w.t.newPartner();
    const chat = await w.linkedChat(p.id, 'staff', 'ru');
    await chat.say('/balance');
    const balance = await chat.expect('Балансы:');
    expect(balance.text).toContain('USD: 1\u00a0000,00 (звёзды, Premium)');

    await toTyping(chat, true);
    await chat.expect('Отправьте количество звёзд — целое число от 50 до 50\u00a0000.');
    await chat.say('10');
    await chat.expect('Можно заказать не меньше 50 звёзд: отправьте число от 50 до 50\u00a0000 или /cancel.');
    await chat.say('100');
    await chat.expect('Отправьте имя пользователя получателя');
    await chat.say('@sotnya_user');
    const confirm = await chat.expectMenu('Проверьте заказ');
    expect(confirm.text).toContain('Цена: 1,58 USD');
    expect(confirm.text).toContain('Баланс: 1\u00a0000,00 USD → после заказа: 998,42 USD');
    await chat.press(confirm, button(confirm, 'Подтвердить'));
    const accepted = await chat.expect('принят');
    expect(accepted.text).toContain('Списано: 1,58 USD.');
  });

  it('in Russian, everywhere numbers are shown: a star count in the confirmation, the top-up minimums, supplier alerts and deposits for operators', async () => {
    const p = await w.t.newPartner();
    const staff = await w.linkedChat(p.id, 'staff', 'ru');
    await toTyping(staff, true);
    await staff.say('12345');
    await staff.expect('⭐ Звёзды: 12\u00a0345\n\nОтправьте имя пользователя получателя');
    await staff.say('@mnogo_user');
    const confirm = await staff.expectMenu('Проверьте заказ');
    expect(confirm.text).toContain('12\u00a0345 звёзд для @mnogo_user');
    expect(confirm.text).toContain('Цена: 194,44 USD');

    // a partner not activated yet: its balances and the first top-up's minimums
    const fresh = await w.t.admin('POST', '/partners', { name: 'Свежий' });
    expect(fresh.status).toBe(201);
    const owner = await w.linkedChat(fresh.body.partner_id, 'owner', 'ru');
    await owner.say('/topup');
    const intro = await owner.expectMenu('Какой баланс');
    expect(intro.text).toContain('Сейчас: 0,00 USD.');
    expect(intro.text).toContain('Первое пополнение активирует аккаунт и должно быть не меньше 10,00 USD или 10,000 TON.');

    const ruOp = w.chat(RU_OPERATOR);
    const enOp = w.chat(OPERATOR);
    w.t.deps.bus.emit('alert', { kind: 'supplier', supplier: 'fragment', problem: 'wallet_funds_low', detail: 'x', balance_ton: '1234.5', need_ton: '2000.125' });
    const alert = await ruOp.expect('кошелёк для покупок');
    expect(alert.text).toContain('кошелёк для покупок (1\u00a0234,5 TON) не может оплатить следующий заказ, нужно 2\u00a0000,125 TON');
    const enAlert = await enOp.expect('wallet');
    expect(enAlert.text).toContain('1,234.5 TON');
    expect(enAlert.text).toContain('2,000.125 TON');

    w.t.deps.bus.emit('alert', { kind: 'unmatched_deposit', depositId: 'dep_big', network: 'trc20', asset: 'USDT', amount: '12345.67', reason: 'wrong_amount' });
    const deposit = await ruOp.expect(depositNumber(w.t.deps, 'dep_big'));
    expect(deposit.text).toContain('на 12\u00a0345,67 USDT');
  });
  it('in Russian: a gift whose price went up before ✅ names both prices with a decimal comma and grouping', async () => {
    const p = await w.t.newPartner({ ton: '50000.000' });
    const chat = await w.linkedChat(p.id, 'staff', 'ru');
    await chat.say('/order');
    const products = await chat.expectMenu('Что заказать?');
    await chat.press(products, button(products, 'Подарок'));
    const cols = await chat.expectMenu('Выберите коллекцию');
    await chat.press(cols, cols.buttons[4][0].callback_data!);
    const page = await chat.expectMenu(/страница 1 из/);
    const col = (await p.call('GET', '/nft/collections')).body.items[4].collection;
    const gift = (await p.call('GET', `/nft/gifts?collection=${col}&limit=1`)).body.items[0].gift as string;
    await chat.press(page, page.buttons[0][0].callback_data!);
    await chat.expect('Отправьте имя пользователя');
    await chat.say('uma_user');
    const confirm = await chat.expectMenu('Проверьте заказ');
    const was = /Цена: ([\d\u00a0]+,\d{3}) TON/.exec(confirm.text)![1];
    expect((await w.t.admin('PUT', `/sandbox/gifts/${gift}`, { price_ton: '1234.500' })).status).toBe(200);
    await chat.press(confirm, button(confirm, 'Подтвердить'));
    const offer = await chat.expectMenu('выросла с');
    const m = /Цена подарка выросла с ([\d\u00a0,]+) до ([\d\u00a0,]+) TON до покупки\. Ничего не списано\./.exec(offer.text)!;
    expect(m[1]).toBe(was);
    expect(m[2]).toMatch(/^1\u00a0\d{3},\d{3}$/);
    expect(offer.text).not.toMatch(/\d\.\d{3} TON/);
  });
});
