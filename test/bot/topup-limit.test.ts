import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button } from './fake-telegram.js';
import { newUser, World } from './harness.js';

/**
 * The bot's /topup under the limit of open top-up requests (TOPUP_REQUESTS_MAX_OPEN, here 2): the same rule
 * as the operator API and the Mini App, since all three call the one service; the refusal explained in the
 * owner's language.
 */
let w: World;

beforeAll(async () => {
  w = await World.start({ TOPUP_REQUESTS_MAX_OPEN: '2' });
});
afterAll(async () => {
  await w?.close();
});

async function topup(owner: ReturnType<World['chat']>, menuTitle: string, label: string, ask: string, amount: string) {
  await owner.say('/topup');
  const m = await owner.expectMenu(menuTitle);
  await owner.press(m, button(m, label));
  if (label.includes('USD')) {
    // USD: the network first (the sandbox has three)
    const nets = await owner.expectMenu(/USDT/);
    await owner.press(nets, button(nets, 'TRC-20'));
  }
  await owner.expect(ask);
  await owner.say(amount);
}

describe('/topup and the limit of open requests', () => {
  it('gives a random exact amount, and refuses a request past the limit with an explanation (English)', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser());
    await w.link(owner.user, p.id, 'owner');
    // one made by the operator counts too
    expect((await w.t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'USD', amount: '40' })).status).toBe(201);
    await topup(owner, 'Which balance', 'USD (pay in USDT)', 'How much USD?', '100');
    const made = await owner.expect('Send exactly');
    expect(made.text).toMatch(/Send exactly <code>100\.(0[1-9]|[1-9]\d)<\/code> USDT/);
    await topup(owner, 'Which balance', 'USD (pay in USDT)', 'How much USD?', '100');
    const refused = await owner.expect('open top-up requests');
    expect(refused.text).toBe(
      'You already have 2 open top-up requests in USD, the most at once. Pay one of them (the exact amount it shows), cancel one, or wait until one expires 24 hours after it was made, then ask again.',
    );
    expect(w.t.db.$client.prepare("select count(*) from topup_requests where partner_id = ? and currency = 'USD'").pluck().get(p.id)).toBe(2);
  });

  it('explains it in Russian for a Russian client', async () => {
    const p = await w.t.newPartner();
    const owner = w.chat(newUser('ru'));
    await w.link(owner.user, p.id, 'owner');
    for (let i = 0; i < 2; i++) expect((await w.t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'TON', amount: '12' })).status).toBe(201);
    await topup(owner, 'Какой баланс', '💎 TON', 'Сколько TON?', '12');
    const refused = await owner.expect('открытых запроса');
    expect(refused.text).toBe(
      'У вас уже 2 открытых запроса на пополнение в TON — больше одновременно нельзя. Оплатите один из них (точной суммой из запроса), отмените один или дождитесь, пока он истечёт через 24 часа после создания, и запросите снова.',
    );
  });
});
