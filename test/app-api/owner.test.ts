import { describe, expect, it } from 'vitest';
import { codeOf } from '../helpers.js';
import { appWorld } from './app-helpers.js';

const w = appWorld();

function audits(t: { db: { $client: { prepare(s: string): { all(...a: unknown[]): unknown[] } } } }, action: string) {
  return t.db.$client.prepare('select actor, action, target, data from audit_log where action = ? order by audit_id').all(action) as { actor: string; target: string; data: string }[];
}

describe('Mini App API: owner-only endpoints', () => {
  it('staff get 403 forbidden on every owner endpoint, and nothing changes', async () => {
    const { t, staff } = await w.start();
    const calls: [string, string, unknown?][] = [
      ['GET', '/ledger'],
      ['GET', '/alerts'],
      ['PUT', '/alerts', { USD: '10.00' }],
      ['GET', '/funding'],
      ['POST', '/topup-requests', { currency: 'USD', amount: '50' }],
      ['GET', '/topup-requests/rq_0000000000000000'],
      ['GET', '/topup-requests'],
      ['DELETE', '/topup-requests/rq_0000000000000000'],
      ['GET', '/api-key'],
      ['POST', '/api-key', {}],
      ['GET', '/webhook'],
      ['PUT', '/webhook', { url: 'https://hooks.example.com/x' }],
      ['POST', '/webhook/regenerate', {}],
      ['GET', '/webhook-deliveries'],
      ['POST', '/webhook-deliveries/0123456789abcdef01234567/redeliver', {}],
      ['POST', '/webhook/test', {}],
      ['GET', '/team'],
      ['POST', '/team/invites', { role: 'owner' }],
      ['DELETE', '/team/1'],
    ];
    for (const [m, u, b] of calls) {
      const r = await staff.call(m, u, b);
      expect([m, u, r.status, r.body?.detail?.code]).toEqual([m, u, 403, 'forbidden']);
    }
    expect(audits(t, 'key.issue')).toHaveLength(1); // the test partner's own key only
  });
});

describe('Mini App API: the ledger (owners)', () => {
  it('the partner API\'s GET /ledger for the owner: own entries newest first, the same filters, paging and errors', async () => {
    const { t, p, owner, staff } = await w.start();
    const other = await t.newPartner();
    await other.order('stars', { quantity: 50, recipient: '@other_user' });
    const o = await staff.call('POST', '/orders', { type: 'stars', idempotency_key: 'ledger-0001', params: { quantity: 100, recipient: 'alice_w' } });
    expect(o.status).toBe(200);
    const r = await owner.call('GET', '/ledger');
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(3);
    expect(r.body.next_cursor).toBeNull();
    expect(r.body.items.map((e: any) => [e.kind, e.currency, e.amount, e.balance_after, e.order_id])).toEqual([
      ['order_debit', 'USD', '-1.58', '998.42', o.body.order_id],
      ['topup', 'TON', '1000.000', '1000.000', null],
      ['topup', 'USD', '1000.00', '1000.00', null],
    ]);
    expect(r.body.items[0]).toEqual({ entry_id: expect.any(Number), kind: 'order_debit', currency: 'USD', amount: '-1.58', balance_after: '998.42', order_id: o.body.order_id, topup_id: null, note: null, created_at: '2026-03-01T12:00:00.000000+00:00' });
    // the same answer as the partner's own GET /ledger
    expect((await p.call('GET', '/ledger')).body).toEqual(r.body);
    expect((await owner.call('GET', '/ledger?currency=TON')).body.items.map((e: any) => e.kind)).toEqual(['topup']);
    const page1 = await owner.call('GET', '/ledger?limit=2');
    expect(page1.body.count).toBe(2);
    const page2 = await owner.call('GET', `/ledger?limit=2&cursor=${page1.body.next_cursor}`);
    expect([...page1.body.items, ...page2.body.items]).toEqual(r.body.items);
    expect(page2.body.next_cursor).toBeNull();
    const bad: [string, string][] = [
      ['/ledger?currency=EUR', 'bad_param'],
      ['/ledger?colour=red', 'bad_param'],
      ['/ledger?from=yesterday', 'bad_time'],
      ['/ledger?limit=0', 'bad_limit'],
      ['/ledger?cursor=zzz', 'bad_cursor'],
    ];
    for (const [url, code] of bad) {
      const x = await owner.call('GET', url);
      expect([url, x.status, codeOf(x)]).toEqual([url, 400, code]);
    }
    expect(codeOf(await staff.call('GET', '/ledger'))).toBe('forbidden');
  });
});

describe('Mini App API: low-balance alerts (owners)', () => {
  it('the thresholds of the bot\'s /alerts: set, cleared, bad values refused; a debit below alerts once with a balance.low webhook; audited', async () => {
    const { t, p, owner, staff } = await w.start();
    const r = await w.receiver();
    expect((await owner.call('GET', '/alerts')).body).toEqual({ USD: null, TON: null });
    const set = await owner.call('PUT', '/alerts', { USD: '999.5', TON: '100' });
    expect([set.status, set.body]).toEqual([200, { USD: '999.50', TON: '100.000' }]);
    // the operator API sees the same thresholds
    expect((await t.admin('GET', `/partners/${p.id}/alerts`)).body).toEqual({ USD: '999.50', TON: '100.000' });
    const bad: [unknown, string | undefined][] = [
      [{ USD: '-1' }, 'USD'],
      [{ USD: '1.234' }, 'USD'],
      [{ TON: 'lots' }, 'TON'],
      [{ EUR: '5' }, 'EUR'],
      ['[1]', undefined],
    ];
    for (const [b, field] of bad) {
      const x = await owner.call('PUT', '/alerts', b);
      expect([x.status, codeOf(x), x.body.field]).toEqual([400, 'validation_error', field]);
    }
    expect((await owner.call('GET', '/alerts')).body).toEqual({ USD: '999.50', TON: '100.000' });
    // the webhook opted in to balance.low; a staff order takes USD below 999.50: one alert
    expect((await owner.call('PUT', '/webhook', { url: r.url, events: ['order.completed', 'order.failed', 'order.refunded', 'balance.low'] })).status).toBe(200);
    await staff.call('POST', '/orders', { type: 'stars', idempotency_key: 'alerts-0001', params: { quantity: 100, recipient: 'alice_w' } });
    await staff.call('POST', '/orders', { type: 'stars', idempotency_key: 'alerts-0002', params: { quantity: 100, recipient: 'alice_w' } });
    await t.advance(5);
    const lows = (await owner.call('GET', '/webhook-deliveries?event=balance.low')).body.items;
    expect(lows).toHaveLength(1);
    expect(r.requests.filter((q) => JSON.parse(q.raw.toString()).event === 'balance.low').map((q) => JSON.parse(q.raw.toString()).data)).toEqual([
      { currency: 'USD', balance: '998.42', threshold: '999.50', order_id: lows[0].order_id },
    ]);
    expect((await owner.call('PUT', '/alerts', { USD: null })).body).toEqual({ USD: null, TON: '100.000' });
    expect(audits(t, 'alerts.save').map((a) => [a.actor, JSON.parse(a.data)])).toEqual([
      [`telegram:${owner.id}`, { USD: '999.50', TON: '100.000' }],
      [`telegram:${owner.id}`, { USD: null }],
    ]);
  });
});

describe('Mini App API: top-up requests', () => {
  it('an exact-amount request per currency, with its live state until credited', async () => {
    const { t, p, owner } = await w.start();
    const f = await owner.call('GET', '/funding');
    expect(f.body.currencies).toEqual(['USD', 'TON']);
    const usd = await owner.call('POST', '/topup-requests', { currency: 'USD', amount: '50' });
    expect(usd.status).toBe(201);
    expect(usd.body).toMatchObject({ currency: 'USD', amount_to_send: expect.stringMatching(/^50\.\d{2}$/), status: 'open' });
    expect(usd.body.addresses.map((a: any) => a.network)).toEqual(['ton', 'trc20', 'bep20']);
    const ton = await owner.call('POST', '/topup-requests', { currency: 'TON', amount: '25' });
    expect(ton.body).toMatchObject({ currency: 'TON', comment_code: expect.any(String), addresses: [{ network: 'ton', address: expect.any(String) }] });
    const state = await owner.call('GET', `/topup-requests/${ton.body.request_id}`);
    expect(state.body).toEqual({ ...ton.body, status: 'open' });
    // the payment arrives: credited
    const dep = await t.admin('POST', '/sandbox/deposits', {
      network: 'ton', asset: 'TON', amount: ton.body.amount_to_send, to: ton.body.addresses[0].address, tx_hash: 'app-tx-1', comment: ton.body.comment_code,
    });
    expect(dep.status).toBe(201);
    expect((await owner.call('GET', `/topup-requests/${ton.body.request_id}`)).body.status).toBe('paid');
    expect((await owner.call('GET', '/balances')).body.balances.TON).toBe((1000 + Number(ton.body.amount_to_send)).toFixed(3));
    // unpaid: expires
    await t.advance(48 * 3600);
    expect((await owner.call('GET', `/topup-requests/${usd.body.request_id}`)).body.status).toBe('expired');
    expect(audits(t, 'topup_request.create')[0].actor).toBe(`telegram:${owner.id}`);
    // another partner's request is not found
    const other = await t.newPartner();
    const { linkUser } = await import('./app-helpers.js');
    const o2 = await linkUser(t, other, 'owner');
    expect((await o2.call('GET', `/topup-requests/${usd.body.request_id}`)).status).toBe(404);
    void p;
  });

  it('GET /topup-requests: the open requests, newest first, with the room left per currency; DELETE cancels one and frees its place', async () => {
    const { t, p, owner } = await w.start({ TOPUP_REQUESTS_MAX_OPEN: '2' });
    expect((await owner.call('GET', '/topup-requests')).body).toEqual({ items: [], max_open: 2, room: { USD: 2, TON: 2 } });
    const byOperator = (await t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'USD', amount: '30' })).body;
    await t.advance(60);
    const mine = (await owner.call('POST', '/topup-requests', { currency: 'USD', amount: '50' })).body;
    await t.advance(60);
    const ton = (await owner.call('POST', '/topup-requests', { currency: 'TON', amount: '20' })).body;
    const open = await owner.call('GET', '/topup-requests');
    expect(open.status).toBe(200);
    expect(open.body.items.map((i: any) => i.request_id)).toEqual([ton.request_id, mine.request_id, byOperator.request_id]);
    expect(open.body.items[2]).toMatchObject({ currency: 'USD', amount: '30.00', amount_to_send: byOperator.amount_to_send, status: 'open', seconds_left: 24 * 3600 - 120 });
    expect(open.body.items[2].addresses.map((a: any) => a.network)).toEqual(['ton', 'trc20', 'bep20']);
    expect(open.body.items[0]).toMatchObject({ comment_code: ton.comment_code, addresses: [{ network: 'ton', address: expect.any(String) }] });
    expect(open.body).toMatchObject({ max_open: 2, room: { USD: 0, TON: 1 } });

    // cancel: the place is free at once, and the request reads canceled
    const c = await owner.call('DELETE', `/topup-requests/${byOperator.request_id}`);
    expect(c.status, c.raw).toBe(200);
    expect(c.body).toMatchObject({ request_id: byOperator.request_id, status: 'canceled', seconds_left: 0 });
    expect((await owner.call('GET', '/topup-requests')).body).toMatchObject({ room: { USD: 1, TON: 1 } });
    expect((await owner.call('GET', `/topup-requests/${byOperator.request_id}`)).body.status).toBe('canceled');
    expect((await owner.call('POST', '/topup-requests', { currency: 'USD', amount: '40' })).status).toBe(201);
    expect(audits(t, 'topup_request.cancel').map((a) => [a.actor, a.target, JSON.parse(a.data).request_id])).toEqual([[`telegram:${owner.id}`, String(p.id), byOperator.request_id]]);

    // a second cancel: 409 not_open with the status; another partner's request or an unknown one: 404
    const again = await owner.call('DELETE', `/topup-requests/${byOperator.request_id}`);
    expect([again.status, codeOf(again), again.body.status]).toEqual([409, 'not_open', 'canceled']);
    const { WORDS } = await import('../../src/presentation/words.js');
    expect(WORDS.en.error('not_open', again.body)).toBe('This top-up request is already canceled.');
    expect(WORDS.ru.error('not_open', again.body)).toBe('Этот запрос на пополнение уже отменён.');
    expect((await owner.call('DELETE', '/topup-requests/rq_nope')).status).toBe(404);
    const other = await t.newPartner();
    const { linkUser } = await import('./app-helpers.js');
    const o2 = await linkUser(t, other, 'owner');
    expect((await o2.call('DELETE', `/topup-requests/${mine.request_id}`)).status).toBe(404);
    expect((await o2.call('GET', '/topup-requests')).body.items).toEqual([]);
    expect((await owner.call('GET', `/topup-requests/${mine.request_id}`)).body.status).toBe('open');
  });

  it('bad requests are 4xx', async () => {
    const { owner } = await w.start();
    const cases: [unknown, number, string][] = [
      [{ currency: 'EUR', amount: '50' }, 400, 'validation_error'],
      [{ currency: 'USD', amount: '-1' }, 400, 'validation_error'],
      [{ currency: 'USD', amount: '1.234' }, 400, 'validation_error'],
      [{ currency: 'USD' }, 400, 'validation_error'],
      [{ currency: 'USD', amount: '1' }, 400, 'topup_below_minimum'],
      ['[]', 400, 'validation_error'],
    ];
    for (const [b, status, code] of cases) {
      const r = await owner.call('POST', '/topup-requests', b);
      expect([r.status, codeOf(r)]).toEqual([status, code]);
    }
    expect((await owner.call('GET', '/topup-requests/nope')).status).toBe(404);
  });

  it('at most TOPUP_REQUESTS_MAX_OPEN open requests per currency, as in the operator API and the bot; the page explains the refusal in the owner\'s language', async () => {
    const { t, p, owner } = await w.start({ TOPUP_REQUESTS_MAX_OPEN: '2' });
    // one made by the operator API counts too
    expect((await t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'USD', amount: '30' })).status).toBe(201);
    expect((await owner.call('POST', '/topup-requests', { currency: 'USD', amount: '50' })).status).toBe(201);
    const r = await owner.call('POST', '/topup-requests', { currency: 'USD', amount: '50' });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ code: 'too_many_topup_requests', detail: expect.any(String), currency: 'USD', max_open: 2 });
    expect((await owner.call('POST', '/topup-requests', { currency: 'TON', amount: '50' })).status).toBe(201);
    // the words the Mini App shows for it (webapp/src/i18n.ts errorText: the bot's words for the code)
    const { WORDS } = await import('../../src/presentation/words.js');
    expect(WORDS.en.error(r.body.code, r.body)).toBe(
      'You already have 2 open top-up requests in USD, the most at once. Pay one of them (the exact amount it shows), cancel one, or wait until one expires 24 hours after it was made, then ask again.',
    );
    expect(WORDS.ru.error(r.body.code, r.body)).toBe(
      'У вас уже 2 открытых запроса на пополнение в USD — больше одновременно нельзя. Оплатите один из них (точной суммой из запроса), отмените один или дождитесь, пока он истечёт через 24 часа после создания, и запросите снова.',
    );
  });
});

describe('Mini App API: the API key and the webhook block', () => {
  it('issues and reissues the key with an IP whitelist, shown once; the old key stops at once; audited', async () => {
    const { t, p, owner } = await w.start();
    const k = await owner.call('POST', '/api-key', { ip_whitelist: ['203.0.113.0/24', '127.0.0.1'] });
    expect(k.status).toBe(201);
    expect(k.body).toEqual({ key_id: expect.stringMatching(/^key_/), api_key: expect.stringMatching(/^pk_live_/), ip_whitelist: ['203.0.113.0/24', '127.0.0.1'] });
    expect((await p.call('GET', '/me')).status).toBe(401);
    const view = await owner.call('GET', '/api-key');
    expect(view.body.key).toMatchObject({ key_id: k.body.key_id, prefix: k.body.api_key.slice(0, 12), ip_whitelist: ['203.0.113.0/24', '127.0.0.1'], revoked_at: null });
    expect(JSON.stringify(view.body)).not.toContain(k.body.api_key);
    const me = await t.partnerCall(k.body.api_key, 'GET', '/me');
    expect(me.status).toBe(200);
    const k2 = await owner.call('POST', '/api-key', {});
    expect(k2.body.ip_whitelist).toEqual([]);
    expect((await t.partnerCall(k.body.api_key, 'GET', '/me')).status).toBe(401);
    const a = audits(t, 'key.issue');
    expect(a.slice(-2).map((x) => x.actor)).toEqual([`telegram:${owner.id}`, `telegram:${owner.id}`]);
    expect(JSON.stringify(a)).not.toContain(k.body.api_key);
    for (const wl of [['not-an-ip'], 'x', [5]]) expect(codeOf(await owner.call('POST', '/api-key', { ip_whitelist: wl }))).toBe('validation_error');
  });

  it('the first save shows the secret once; later saves do not; regenerate replaces it; never readable', async () => {
    const { t, owner } = await w.start();
    expect((await owner.call('GET', '/webhook')).body).toEqual({ url: null, has_secret: false, events: ['order.completed', 'order.failed', 'order.refunded'] });
    const first = await owner.call('PUT', '/webhook', { url: 'https://hooks.example.com/a' });
    expect(first.body).toEqual({ url: 'https://hooks.example.com/a', secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/), events: ['order.completed', 'order.failed', 'order.refunded'] });
    const second = await owner.call('PUT', '/webhook', { url: 'https://hooks.example.com/b' });
    expect(second.body).toEqual({ url: 'https://hooks.example.com/b', events: ['order.completed', 'order.failed', 'order.refunded'] });
    expect((await owner.call('GET', '/webhook')).body).toEqual({ url: 'https://hooks.example.com/b', has_secret: true, events: ['order.completed', 'order.failed', 'order.refunded'] });
    const regen = await owner.call('POST', '/webhook/regenerate', {});
    expect(regen.body).toEqual({ url: 'https://hooks.example.com/b', secret: expect.stringMatching(/^whsec_/), events: ['order.completed', 'order.failed', 'order.refunded'] });
    expect(regen.body.secret).not.toBe(first.body.secret);
    const all = audits(t, 'webhook.save');
    expect(all.map((x) => x.actor)).toEqual([`telegram:${owner.id}`, `telegram:${owner.id}`, `telegram:${owner.id}`]);
    expect(JSON.stringify(all)).not.toContain('whsec_');
    const bad: [unknown, string][] = [
      [{ url: 'ftp://x.example.com' }, 'bad_webhook_url'],
      [{ url: 'http://127.0.0.1/x' }, 'bad_webhook_url'],
      [{ url: 5 }, 'bad_webhook_url'],
      [{ url: 'https://hooks.example.com/a', regenerate_secret: true }, 'validation_error'],
      ['"x"', 'validation_error'],
    ];
    for (const [b, code] of bad) {
      const r = await owner.call('PUT', '/webhook', b);
      expect([r.status, codeOf(r)]).toEqual([400, code]);
    }
    expect((await owner.call('PUT', '/webhook', { url: '' })).body).toEqual({ url: '', events: ['order.completed', 'order.failed', 'order.refunded'] });
  });

  it('the events list: balance.low is opt-in; unknown names are 400 validation_error; a save without events keeps them', async () => {
    const { t, owner } = await w.start();
    const put = await owner.call('PUT', '/webhook', { url: 'https://hooks.example.com/a', events: ['order.completed', 'balance.low'] });
    expect(put.body).toEqual({ url: 'https://hooks.example.com/a', secret: expect.stringMatching(/^whsec_/), events: ['order.completed', 'balance.low'] });
    expect((await owner.call('GET', '/webhook')).body).toEqual({ url: 'https://hooks.example.com/a', has_secret: true, events: ['order.completed', 'balance.low'] });
    for (const events of [['order.created'], [], 'balance.low', ['webhook.test']]) {
      const r = await owner.call('PUT', '/webhook', { url: 'https://hooks.example.com/a', events });
      expect([r.status, codeOf(r), r.body.field]).toEqual([400, 'validation_error', 'events']);
    }
    expect((await owner.call('PUT', '/webhook', { url: 'https://hooks.example.com/b' })).body.events).toEqual(['order.completed', 'balance.low']);
    expect(audits(t, 'webhook.save').map((a) => (typeof a.data === 'string' ? JSON.parse(a.data) : a.data).events ?? null)).toEqual([['order.completed', 'balance.low'], null]);
  });
});

describe('Mini App API: the webhook delivery log, redelivery and the test webhook (owners)', () => {
  it('the partner API\'s log with its filters; a redelivery and a test webhook reach a real receiver, audited with the person', async () => {
    const { t, p, owner, staff } = await w.start();
    const r = await w.receiver();
    expect(codeOf(await owner.call('POST', '/webhook/test', {}))).toBe('webhook_not_configured');
    expect((await owner.call('PUT', '/webhook', { url: r.url })).status).toBe(200);
    const test = await owner.call('POST', '/webhook/test', {});
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ event: 'webhook.test', order_id: null, url: r.url, status: 'delivered', attempts: [{ number: 1, http_status: 200 }] });
    expect(r.requests).toHaveLength(1);
    expect(JSON.parse(r.requests[0].raw.toString()).event).toBe('webhook.test');

    r.script.push(500, 500, 500, 500, 500, 500);
    const o = await staff.call('POST', '/orders', { type: 'stars', idempotency_key: 'hooks-0001', params: { quantity: 100, recipient: 'alice_w' } });
    await t.advance(5);
    const log = await owner.call('GET', '/webhook-deliveries');
    expect(log.body.count).toBe(2);
    expect(log.body.items.map((d: any) => d.event)).toEqual(['order.completed', 'webhook.test']);
    // the same page as the partner's own GET /webhook-deliveries
    expect((await p.call('GET', '/webhook-deliveries')).body).toEqual(log.body);
    expect((await owner.call('GET', '/webhook-deliveries?status=pending')).body.items.map((d: any) => d.order_id)).toEqual([o.body.order_id]);
    expect((await owner.call('GET', '/webhook-deliveries?event=webhook.test&limit=1')).body.count).toBe(1);
    const id = log.body.items[0].delivery_id;
    const again = await owner.call('POST', `/webhook-deliveries/${id}/redeliver`, {});
    expect(again.status).toBe(200);
    expect(again.body.attempts.map((a: any) => [a.number, a.manual, a.http_status])).toEqual([[1, false, 500], [2, true, 500]]);
    expect(r.requests.at(-1)!.headers['x-webhook-id']).toBe(id);
    const bad: [string, string, number, string][] = [
      ['GET', '/webhook-deliveries?status=done', 400, 'bad_status'],
      ['GET', '/webhook-deliveries?event=order.lost', 400, 'bad_param'],
      ['GET', '/webhook-deliveries?limit=500', 400, 'bad_limit'],
      ['GET', '/webhook-deliveries?cursor=x', 400, 'bad_cursor'],
      ['GET', '/webhook-deliveries?colour=red', 400, 'bad_param'],
      ['POST', '/webhook-deliveries/nope/redeliver', 404, 'not_found'],
    ];
    for (const [m, u, status, code] of bad) {
      const x = await owner.call(m, u, m === 'POST' ? {} : undefined);
      expect([u, x.status, codeOf(x)]).toEqual([u, status, code]);
    }
    // another partner's delivery is not found
    const other = await t.newPartner();
    const { linkUser } = await import('./app-helpers.js');
    const theirs = await linkUser(t, other, 'owner');
    expect((await theirs.call('POST', `/webhook-deliveries/${id}/redeliver`, {})).status).toBe(404);
    expect(audits(t, 'webhook.test').map((a) => [a.actor, a.target])).toEqual([[`telegram:${owner.id}`, String(p.id)]]);
    expect(audits(t, 'webhook.redeliver').map((a) => [a.actor, JSON.parse(a.data)])).toEqual([[`telegram:${owner.id}`, { delivery_id: id }]]);
  });
});

describe('Mini App API: the team', () => {
  it('invites, lists and unlinks; audited', async () => {
    const { t, owner, staff } = await w.start();
    const inv = await owner.call('POST', '/team/invites', { role: 'staff' });
    expect(inv.status).toBe(201);
    expect(inv.body).toEqual({ code: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/), link: `https://t.me/your_bot?start=${inv.body.code}` });
    const team = await owner.call('GET', '/team');
    expect(team.body.items.map((u: any) => [u.telegram_id, u.role])).toEqual([[owner.id, 'owner'], [staff.id, 'staff']]);
    // linked outside the bot here: no name is known until the person opens the app (or writes to the bot)
    expect(team.body.items.map((u: any) => u.name)).toEqual([null, null]);
    expect(team.body.count).toBe(2);
    expect((await staff.call('GET', '/session')).status).toBe(200);
    expect((await owner.call('GET', '/team')).body.items.map((u: any) => [u.telegram_id, u.name])).toEqual([[owner.id, null], [staff.id, `User${staff.id}`]]);
    expect(codeOf(await owner.call('POST', '/team/invites', { role: 'boss' }))).toBe('validation_error');
    expect(codeOf(await owner.call('POST', '/team/invites', {}))).toBe('validation_error');
    const self = await owner.call('DELETE', `/team/${owner.id}`);
    expect([self.status, codeOf(self)]).toEqual([409, 'cannot_unlink_self']);
    expect((await owner.call('DELETE', '/team/123')).status).toBe(404);
    expect((await owner.call('DELETE', '/team/abc')).status).toBe(404);
    const other = await t.newPartner();
    const { linkUser } = await import('./app-helpers.js');
    const stranger = await linkUser(t, other, 'staff');
    expect((await owner.call('DELETE', `/team/${stranger.id}`)).status).toBe(404);
    expect((await stranger.call('GET', '/session')).status).toBe(200);
    const un = await owner.call('DELETE', `/team/${staff.id}`);
    expect(un.body).toEqual({ unlinked: staff.id });
    expect((await owner.call('GET', '/team')).body.count).toBe(1);
    expect(codeOf(await staff.call('GET', '/balances'))).toBe('not_linked');
    expect(audits(t, 'team.unlink').map((a) => [a.actor, a.target])).toEqual([[`telegram:${owner.id}`, String((await owner.call('GET', '/session')).body.partner.partner_id)]]);
    expect(audits(t, 'invite.create').filter((a) => a.actor === `telegram:${owner.id}`)).toHaveLength(1);
  });
});
