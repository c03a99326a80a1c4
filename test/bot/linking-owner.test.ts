import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, waitFor } from './fake-telegram.js';
import { listTeam } from '../../src/app/team.js';
import { labels, newUser, settle, World } from './harness.js';

let w: World;

beforeAll(async () => {
  w = await World.start();
});
afterAll(async () => {
  await w?.close();
});

describe('operator API: POST /partners/{id}/invites', () => {
  it('when an operator creates an invite, then it answers 201 with a one-time code and a t.me link', async () => {
    const p = await w.t.newPartner();
    const r = await w.t.admin('POST', `/partners/${p.id}/invites`, { role: 'staff' });
    expect(r.status).toBe(201);
    expect(r.body.code).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    // the bot has started and remembered its username
    expect(r.body.link).toBe(`https://t.me/partner_test_bot?start=${r.body.code}`);
  });

  it('when the role is wrong or missing, then 400 validation_error in the flat format', async () => {
    const p = await w.t.newPartner();
    for (const body of [{ role: 'boss' }, {}, { role: 'owner', extra: 1 }, []]) {
      const r = await w.t.admin('POST', `/partners/${p.id}/invites`, body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('validation_error');
      expect(typeof r.body.detail).toBe('string');
    }
  });

  it('when the partner does not exist, then 404 not_found; without the token, 401', async () => {
    expect((await w.t.admin('POST', '/partners/99999/invites', { role: 'owner' })).body.code).toBe('not_found');
    expect((await w.t.admin('POST', '/partners/abc/invites', { role: 'owner' })).status).toBe(404);
    const anon = await w.t.app.inject({ method: 'POST', url: '/api/admin/v1/partners/1/invites', payload: { role: 'owner' } });
    expect(anon.statusCode).toBe(401);
  });
});

describe('linking', () => {
  it('when a user opens an invite, then the account is linked with the role; the code cannot be used again', async () => {
    const p = await w.t.newPartner();
    const inv = await w.t.admin('POST', `/partners/${p.id}/invites`, { role: 'staff' });
    const alice = w.chat(newUser());
    await alice.say(`/start ${inv.body.code}`);
    const m = await alice.expect('linked to');
    // the partner by its name, not a number
    expect(m.text.split('\n')[0]).toBe('Done: this account is linked to “Test partner” as staff.');
    expect(m.text).toContain('staff');
    expect(m.text).toContain('/order');
    expect(m.text).not.toContain('/apikey');

    const bob = w.chat(newUser());
    await bob.say(`/start ${inv.body.code}`);
    await bob.expect('unknown, already used or expired');
    await bob.say('/balance');
    await bob.expect('open the invite link');
  });

  it('when a user links, then the team list names them as Telegram does, and follows a change of name', async () => {
    const p = await w.t.newPartner();
    const inv = await w.t.admin('POST', `/partners/${p.id}/invites`, { role: 'staff' });
    const user = { ...newUser(), first_name: 'Anna', last_name: 'Petrova', username: 'anna_p' };
    const anna = w.chat(user);
    await anna.say(`/start ${inv.body.code}`);
    await anna.expect('linked');
    const names = () => listTeam(w.t.deps, p.id).items.map((u) => [u.telegram_id, u.name]);
    expect(names()).toEqual([[user.id, 'Anna Petrova (@anna_p)']]);
    // a later message with another name (the user renamed themselves in Telegram) updates it
    const renamed = w.chat({ ...user, first_name: 'Anya', last_name: undefined, username: undefined });
    await renamed.say('/balance');
    await renamed.expect('USD');
    expect(names()).toEqual([[user.id, 'Anya']]);
  });

  it('when the invite is older than 24 h of service clock, then it is refused', async () => {
    const p = await w.t.newPartner();
    const inv = await w.t.admin('POST', `/partners/${p.id}/invites`, { role: 'owner' });
    await w.t.advance(25 * 3600);
    const carol = w.chat(newUser('ru'));
    await carol.say(`/start ${inv.body.code}`);
    await carol.expect('истёк');
    await carol.say('/balance');
    await carol.expect('ссылку-приглашение');
  });

  it('when an unlinked user writes anything, then only the short explanation comes back', async () => {
    const stranger = w.chat(newUser());
    for (const text of ['/start', 'hello', '/order', '/apikey', '/reviews']) {
      await stranger.say(text);
      const m = await stranger.expect('open the invite link');
      expect(m.buttons).toEqual([]);
    }
    await settle(w);
    expect(stranger.all.every((m) => m.text.includes('open the invite link') || m.text.includes('unknown'))).toBe(true);
    // a button press is answered with the explanation too, and no message is sent
    const before = stranger.all.length;
    w.tg.press(stranger.user, stranger.all[0], 'ol:1');
    await settle(w);
    expect(stranger.all.length).toBe(before);
    const answer = w.tg.callsOf('answerCallbackQuery').at(-1)!;
    expect(answer.payload.text).toContain('open the invite link');
  });
});

describe('owner commands', () => {
  it('when staff use /topup, /apikey or /webhook, then they are refused', async () => {
    const p = await w.t.newPartner();
    const staff = w.chat(newUser());
    await w.link(staff.user, p.id, 'staff');
    for (const cmd of ['/topup', '/apikey', '/webhook']) {
      await staff.say(cmd);
      const m = await staff.expect('Only the account owner');
      expect(m.buttons).toEqual([]);
    }
  });

  it('/balance shows both balances', async () => {
    const p = await w.t.newPartner({ usd: '123.45', ton: '50.000' });
    const staff = w.chat(newUser());
    await w.link(staff.user, p.id, 'staff');
    await staff.say('/balance');
    const m = await staff.expect('USD: 123.45');
    expect(m.text).toContain('TON: 50.000');
  });

  it('/topup asks the balance, the network (USD), the amount, then shows one address with the exact amount explained and copy buttons', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser());
    await w.link(owner.user, p.id, 'owner');
    await owner.say('/topup');
    const m = await owner.expectMenu('Which balance do you want to top up?');
    // no address and no wall of text before the choice
    expect(m.text).not.toMatch(/<code>[\w-]{30,}<\/code>/);
    expect(m.text).toContain('• USD — pays for Stars and Premium; you send USDT. Now: 1,000.00 USD.');
    expect(m.parse_mode).toBe('HTML');
    expect(m.buttons[0].map((b) => b.text)).toEqual(['💵 USD (pay in USDT)', '💎 TON']);
    await owner.press(m, button(m, 'USD'));
    const nets = await owner.expectMenu('On which network will you send the USDT?');
    expect(nets.buttons.flat().map((b) => b.text)).toEqual(['USDT on TON', 'USDT on TRON (TRC-20)', 'USDT on BNB Chain (BEP-20)', '◀ Back', '✖ Cancel']);
    // in the same message, under what was chosen
    expect(nets.message_id).toBe(m.message_id);
    expect(nets.text.startsWith('💵 Top up USD\n\nOn which network')).toBe(true);
    await owner.press(nets, button(nets, 'TRC-20'));
    await owner.expect('How much USD? Send an amount of at least 5.00');
    await owner.say('3');
    await owner.expect('below the minimum top-up: at least 5.00 USD');
    await owner.say('25');
    const req = await owner.expect('Send exactly');
    const sent = /Send exactly <code>(25\.\d\d)<\/code> USDT on TRON \(TRC-20\) to:\n<code>(T\w+)<\/code>/.exec(req.text)!;
    expect(sent).not.toBeNull();
    const added = (Number(sent[1]) - 25).toFixed(2);
    // the offset explained, and that the whole amount sent is credited
    expect(req.text).toContain(`We added ${added} USDT to your 25.00 so we can recognise your payment (a payment of 25.00 would not be credited automatically); the whole ${sent[1]} is credited to your USD balance.`);
    // the amount to send is said in the first line (and on its copy button), and once more where it is credited
    expect(req.text.split(sent[1])).toHaveLength(3);
    // one address: the TRC-20 one only
    expect(req.text.match(/<code>[\w-]{30,}<\/code>/g)).toHaveLength(1);
    expect(req.text).toMatch(/Valid until \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);
    expect(req.buttons).toEqual([
      [
        { text: '📋 Copy amount', copy_text: { text: sent[1] } },
        { text: '📋 Copy address', copy_text: { text: sent[2] } },
      ],
    ]);
    // all in the one message of the top-up
    expect(req.message_id).toBe(m.message_id);

    // TON: one step less, the comment, and the wallet link as an https button with the exact amount in nanotons
    await owner.say('/topup');
    const m2 = await owner.expectMenu('Which balance');
    await owner.press(m2, button(m2, 'TON'));
    await owner.expect('How much TON?');
    await owner.say('12');
    const ton = await owner.expect('Send exactly');
    const amount = /Send exactly <code>(\d+\.\d{3})<\/code> TON to:/.exec(ton.text)![1];
    const address = /to:\n<code>([\w-]+)<\/code>/.exec(ton.text)![1];
    const comment = /Comment \(optional, helps us find the payment\): <code>([^<]+)<\/code>/.exec(ton.text)![1];
    expect(ton.text).toContain(`We added ${(Number(amount) - 12).toFixed(3)} TON to your 12.000 so we can recognise your payment`);
    const nano = String(Math.round(Number(amount) * 1000)) + '000000';
    expect(ton.buttons[0]).toEqual([{ text: '👛 Open in a TON wallet', url: `https://app.tonkeeper.com/transfer/${address}?amount=${nano}&text=${comment}` }]);
    expect(ton.text).not.toContain('ton://');

    // a text instead of a button just leaves the offer
    await owner.say('/topup');
    await owner.expectMenu('Which balance');
    await owner.say('/balance');
    await owner.expect('Balances:');
  });

  it('/topup before the first top-up states the activation minimum, in Russian for a Russian client; the first credit says the account is active', async () => {
    const p = await w.t.admin('POST', '/partners', { name: 'Новый' });
    const owner = w.chat(newUser('ru'));
    await w.link(owner.user, p.body.partner_id, 'owner');
    await owner.say('/topup');
    const m = await owner.expectMenu('Какой баланс пополнить?');
    expect(m.text).toContain('Первое пополнение активирует аккаунт и должно быть не меньше 10,00 USD или 10,000 TON.');
    await owner.press(m, button(m, 'TON'));
    await owner.expect('Сколько TON?');
    await owner.say('12');
    const req = await owner.expect('Отправьте ровно');
    const amount = /Отправьте ровно <code>(\d+\.\d{3})<\/code> TON на адрес:/.exec(req.text)![1];
    expect(req.text).toContain(`Мы добавили ${(Number(amount) - 12).toFixed(3).replace('.', ',')} TON к вашим 12,000, чтобы узнать ваш платёж`);
    expect(req.text).toContain(`на баланс TON зачисляется вся сумма ${amount.replace('.', ',')}.`);
    expect(req.text).toContain('Комментарий (необязательно, помогает найти платёж)');
    expect(labels(req)).toEqual(['👛 Открыть в TON-кошельке', '📋 Скопировать сумму', '📋 Скопировать адрес']);

    // the first credit activates the account, and the owner reads what that opens; a later one is plain
    const tx = (n: number) => `bot-activate-${process.pid}-${p.body.partner_id}-${n}`;
    expect((await w.t.admin('POST', `/partners/${p.body.partner_id}/topups`, { currency: 'TON', amount: '12.000', network: 'ton', tx_hash: tx(1) })).status).toBe(201);
    const first = await owner.expect('Пополнение зачислено: 12,000 TON');
    expect(first.text).toBe(
      '💰 Пополнение зачислено: 12,000 TON. Аккаунт активирован: теперь можно заказывать звёзды, Premium и подарки и выпустить API-ключ для своего магазина (/apikey). Баланс — /balance.',
    );
    expect((await w.t.admin('POST', `/partners/${p.body.partner_id}/topups`, { currency: 'USD', amount: '5.00', network: 'ton', tx_hash: tx(2) })).status).toBe(201);
    const second = await owner.expect('Пополнение зачислено: 5,00 USD');
    expect(second.text).toBe('💰 Пополнение зачислено: 5,00 USD. Баланс — /balance.');
  });

  it('the first credit tells an English owner the account is now active', async () => {
    const p = await w.t.admin('POST', '/partners', { name: 'Fresh' });
    const owner = w.chat(newUser());
    await w.link(owner.user, p.body.partner_id, 'owner');
    expect((await w.t.admin('POST', `/partners/${p.body.partner_id}/topups`, { currency: 'USD', amount: '10.00', network: 'trc20', tx_hash: `bot-activate-en-${process.pid}` })).status).toBe(201);
    const first = await owner.expect('Top-up credited: 10.00 USD');
    expect(first.text).toBe(
      '💰 Top-up credited: 10.00 USD. Your account is now active: you can order Stars, Premium and gifts, and issue the API key for your own shop (/apikey). See /balance.',
    );
  });

  it('when a top-up is credited, then the owners hear of it and staff do not', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser());
    const staff = w.chat(newUser());
    await w.link(owner.user, p.id, 'owner');
    await w.link(staff.user, p.id, 'staff');
    const staffBefore = staff.all.length;
    w.t.deps.bus.emit('topup_credited', { partnerId: p.id, topupId: 'tp_1', currency: 'USD', amount: '25.00' });
    await owner.expect('Top-up credited: 25.00 USD');
    await settle(w);
    expect(staff.all.length).toBe(staffBefore);
  });

  it('/apikey issues a working key shown once, optionally limited to IPs; a bad IP is explained', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser());
    await w.link(owner.user, p.id, 'owner');

    await owner.say('/apikey');
    const menu = await owner.expectMenu('Issue a new API key');
    await owner.press(menu, button(menu, 'without IP limit'));
    // the harness issued a key: replacing it is asked once more
    const sure = await owner.expectMenu('Replace the API key?');
    await owner.press(sure, button(sure, 'Yes, replace'));
    const shown = await owner.expect('New API key');
    expect(shown.parse_mode).toBe('HTML');
    const key = /pk_live_[A-Za-z0-9_-]+/.exec(shown.text)![0];
    expect((await w.t.partnerCall(key, 'GET', '/me')).status).toBe(200);
    // the old key from the harness no longer works
    expect((await p.call('GET', '/me')).status).toBe(401);
    // nothing secret is left in the stored conversation state
    const rows = w.t.db.$client.prepare('select value from bot_sessions').all() as { value: string }[];
    expect(rows.some((r) => r.value.includes(key))).toBe(false);

    await owner.say('/apikey');
    const menu2 = await owner.expectMenu('Issue a new API key');
    await owner.press(menu2, button(menu2, 'IP whitelist'));
    await owner.expect('Send the allowed IP addresses');
    await owner.say('not-an-ip');
    const bad = await owner.expect('“not-an-ip” is not an IP address or a CIDR range');
    expect(bad.text).not.toContain('ip_whitelist');
    await owner.say('203.0.113.7, 198.51.100.0/24');
    const sure2 = await owner.expectMenu('Replace the API key?');
    await owner.press(sure2, button(sure2, 'Yes, replace'));
    const limited = await owner.expect('New API key');
    expect(limited.text).toContain('203.0.113.7, 198.51.100.0/24');
    const key2 = /pk_live_[A-Za-z0-9_-]+/.exec(limited.text)![0];
    expect((await w.t.partnerCall(key2, 'GET', '/me')).status).toBe(403); // inject comes from 127.0.0.1
    expect((await w.t.partnerCall(key, 'GET', '/me')).status).toBe(401);
  });

  it('/apikey before the first top-up explains that the account is not activated', async () => {
    const p = await w.t.admin('POST', '/partners', { name: 'New' });
    const owner = w.chat(newUser());
    await w.link(owner.user, p.body.partner_id, 'owner');
    await owner.say('/apikey');
    // no Issue buttons that would then refuse: the key comes after the first top-up
    const first = await owner.expect('The API key comes after the first top-up');
    expect(first.buttons).toEqual([]);
    await settle(w);
    expect(owner.fresh.every((m) => m.buttons.length === 0)).toBe(true);
    await owner.say('/topup');
    const m = await owner.expect('Which balance');
    expect(m.text).toContain('The first top-up activates the account and must be at least 10.00 USD or 10.000 TON.');
  });

  it('/webhook sets the URL and shows the secret once; a bad URL is explained; a new secret can be made', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser());
    await w.link(owner.user, p.id, 'owner');

    await owner.say('/webhook');
    const menu = await owner.expectMenu('never saved');
    await owner.press(menu, button(menu, 'Set address'));
    await owner.expect('Send the webhook address');
    await owner.say('http://10.0.0.1/hook');
    await owner.expect('local, private or internal network');
    await owner.say('ftp://example.com/hook');
    await owner.expect('only http:// and https://');
    await owner.say('https://hooks.example.com/pos');
    const saved = await owner.expect('Saved. Address: https://hooks.example.com/pos');
    const secret = /whsec_[0-9a-f]+/.exec(saved.text)![0];
    const view = await w.t.admin('GET', `/partners/${p.id}`);
    expect(view.body.webhook).toEqual({ url: 'https://hooks.example.com/pos', has_secret: true, events: ['order.completed', 'order.failed', 'order.refunded'] });

    // saving again keeps the secret (not shown); regenerating shows a new one
    await owner.say('/webhook');
    const menu2 = await owner.expectMenu('Secret: set');
    await owner.press(menu2, button(menu2, 'New secret'));
    const sure = await owner.expectMenu('Replace the webhook secret?');
    await owner.press(sure, button(sure, 'Yes, replace'));
    const regen = await owner.expect('Webhook secret');
    const secret2 = /whsec_[0-9a-f]+/.exec(regen.text)![0];
    expect(secret2).not.toBe(secret);
  });

  it('/cancel inside a conversation ends it; a command in the middle is answered and the conversation goes on', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser());
    await w.link(owner.user, p.id, 'owner');
    await owner.say('/webhook');
    const menu = await owner.expectMenu('Webhook');
    await owner.press(menu, button(menu, 'Set address'));
    await owner.expect('Send the webhook address');
    await owner.say('/balance');
    await owner.expect('Balances:');
    // the conversation goes on: the next text is the URL
    await owner.say('https://hooks.example.com/x');
    await owner.expect('Saved. Address: https://hooks.example.com/x');
    await owner.say('/cancel');
    await owner.expect('Nothing to cancel');
    // inside a conversation, /cancel ends it and its buttons go
    await owner.say('/webhook');
    const again = await owner.expectMenu('Webhook');
    await owner.say('/cancel');
    await owner.expect('Cancelled.');
    await waitFor(() => w.tg.messages.find((m) => m.message_id === again.message_id)!.buttons.length === 0, 'the menu closed');
  });
});
