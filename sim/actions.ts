import crypto from 'node:crypto';
import { RECEIVER_URL, turns, type Answer, type World } from './world.js';
import { FRAGMENT_PREFIX } from './fragment-stand.js';
import { nanoOf } from './invariants.js';
import { addCredit, depositRecipients, expectedBalance, keyOf, minorOf, saw, textOf, type Currency, type Model, type Network, type OrderType, type RequestM, type TxM } from './model.js';

/**
 * The actions of a history, each through the service's own doors (the partner and operator APIs and the
 * sandbox's routes, with `app.inject`). Each updates the model from the answers and returns what in the
 * answers already breaks the contract; the invariants over the database come after (invariants.ts).
 */

// --- the partners and the catalog of a history ------------------------------------------------------

export interface PartnerSetup {
  usd: string;
  ton: string;
  webhook: boolean;
}

/** Partners made, activated (their first top-up), keyed, and some with a webhook to the receiver. */
export async function setUp(w: World, m: Model, seed: number, partners: PartnerSetup[]): Promise<string[]> {
  const v: string[] = [];
  for (const [i, p] of partners.entries()) {
    const made = await w.admin('POST', '/partners', { name: `Sim partner ${i + 1}` });
    if (made.status !== 201) throw new Error(`set-up: POST /partners answered ${made.status} ${made.raw}`);
    const id = made.body.partner_id as number;
    for (const [currency, amount] of [['USD', p.usd], ['TON', p.ton]] as const) {
      const tx: TxM = { hash: crypto.createHash('sha256').update(`setup-${seed}-${i}-${currency}`).digest('hex'), network: 'ton', currency, amount: minorOf(amount, currency), creditedTo: null };
      const r = await w.admin('POST', `/partners/${id}/topups`, { currency, amount, network: 'ton', tx_hash: tx.hash });
      if (r.status !== 201) throw new Error(`set-up: top-up answered ${r.status} ${r.raw}`);
      tx.creditedTo = id;
      m.txs.push(tx);
      addCredit(m, id, currency, tx.amount);
    }
    const k = await w.admin('POST', `/partners/${id}/keys`, {});
    if (k.status !== 201) throw new Error(`set-up: key answered ${k.status} ${k.raw}`);
    let secret: string | null = null;
    if (p.webhook) {
      const h = await w.admin('PUT', `/partners/${id}/webhook`, { url: RECEIVER_URL });
      if (h.status !== 200 || typeof h.body.secret !== 'string') throw new Error(`set-up: webhook answered ${h.status} ${h.raw}`);
      secret = h.body.secret;
    }
    m.partners.push({ id, key: k.body.api_key, webhook: p.webhook, secret });
  }
  if (w.fragment) return v; // no gifts beside Fragment (GIFTS_UPSTREAM off)
  const gifts = await w.partner(m.partners[0].key, 'GET', '/nft/gifts?collection=HomemadeCake&sort=price_asc');
  if (gifts.status !== 200) throw new Error(`set-up: gift list answered ${gifts.status} ${gifts.raw}`);
  const items = (gifts.body.items as { gift: string; price_ton: string }[]).slice(0, 6);
  m.gifts = items.map((g) => ({ gift: g.gift, priceMilli: minorOf(g.price_ton, 'TON') }));
  return v;
}

/** An answer no request should get: the contract's refusals are 4xx, and these 5xx only under a fault. */
function serverError(a: Answer, what: string): string | null {
  if (a.status < 500) return null;
  const code = a.body?.code ?? a.body?.detail?.code;
  if (a.status === 503 && (code === 'product_unavailable' || code === 'ledger_unavailable')) return null;
  if (a.status === 502 && code === 'resolver_error') return null;
  return `${what} answered ${a.status} ${a.raw.slice(0, 300)}`;
}

// --- orders -----------------------------------------------------------------------------------------

export type Recipient = 'ok' | 'fails' | 'unsure' | 'slow' | 'ghost';

/** One request of POST /orders. `reuse`: the index of an earlier key of the partner (a replay, or other params under it). */
export interface OrderSpec {
  type: OrderType;
  recipient: Recipient;
  /** which account of that behaviour (a few, so that Premium's one-per-account rule is met) */
  account: number;
  /** stars: the quantity index; premium: the term index; nft: the gift index */
  size: number;
  reuse: number | null;
  /** with `reuse`: the very same body (a replay) or another one under the same key */
  same: boolean;
  /** nft: max_price ample ("1000"), or below the price (refused) */
  tight: boolean;
  /** the same request sent twice at once (a client retrying before the first answer) */
  twice: boolean;
}

const STARS = [50, 100, 500, 1000, 5000];
const MONTHS = [3, 6, 12];

const PREFIX: Record<OrderType, Record<Recipient, string>> = {
  stars: { ok: 'alice', fails: 'failstars_', unsure: 'unconfirmed_', slow: 'slow_star', ghost: 'ghost_' },
  premium: { ok: 'bobby', fails: 'failpremium_', unsure: 'premium_', slow: 'slow_prem', ghost: 'ghost_' },
  nft: { ok: 'carol', fails: 'nogift_', unsure: 'stuck_', slow: 'slow_gift', ghost: 'ghost_' },
};

export function orderBody(m: Model, s: OrderSpec, key: string): Record<string, unknown> {
  // with Fragment each key its own account (sim/fragment-stand.ts): a payment on chain names its order
  const recipient = m.world === 'fragment' ? `${FRAGMENT_PREFIX[s.recipient]}${key.replace(/^sim-/, '').replace(/-/g, '_')}` : `${PREFIX[s.type][s.recipient]}${s.account}x`;
  if (s.type === 'stars') return { type: 'stars', idempotency_key: key, params: { quantity: STARS[s.size % STARS.length], recipient } };
  if (s.type === 'premium') return { type: 'premium', idempotency_key: key, params: { months: MONTHS[s.size % MONTHS.length], recipient } };
  return { type: 'nft', idempotency_key: key, params: { gift: m.gifts[s.size % m.gifts.length].gift, recipient, max_price: s.tight ? '0.5' : '1000' } };
}

interface Placed {
  partner: number;
  key: string;
  body: string;
  maxPrice: string | null;
}

/** Builds the requests of one batch: new keys, or an earlier key of the partner again. */
function placements(m: Model, partnerIdx: number, specs: OrderSpec[]): Placed[] {
  const p = m.partners[partnerIdx % m.partners.length];
  const earlier = [...m.keys.values()].filter((k) => k.partner === p.id);
  return specs.flatMap((s) => {
    let key = `sim-${m.steps}-${m.keys.size}`;
    let body: string | null = null;
    if (s.reuse !== null && earlier.length) {
      const k = earlier[s.reuse % earlier.length];
      key = k.key;
      if (s.same && k.body) body = k.body;
    }
    if (!m.keys.has(keyOf(p.id, key))) m.keys.set(keyOf(p.id, key), { partner: p.id, key, body: null, orderId: null, unknown: false });
    const b = body ?? JSON.stringify(orderBody(m, { ...s, size: body === null && s.reuse !== null && !s.same ? s.size + 1 : s.size }, key));
    const parsed = JSON.parse(b) as { params: { max_price?: string } };
    const placed = { partner: p.id, key, body: b, maxPrice: parsed.params.max_price ?? null };
    return s.twice ? [placed, placed] : [placed];
  });
}

/** Judges one answer of POST /orders and records what it made. */
function judgeOrder(m: Model, p: Placed, a: Answer, alone: boolean): string[] {
  const v: string[] = [];
  const k = m.keys.get(keyOf(p.partner, p.key))!;
  const err = serverError(a, `POST /orders (key ${p.key})`);
  if (err) v.push(err);
  const code = a.body?.code ?? a.body?.detail?.code;
  m.notes.push(a.status === 200 ? `200 ${a.body.order_id}` : `${a.status} ${code}`);
  if (a.status === 200) {
    const id = a.body.order_id as string;
    saw(m, k.orderId ? 'order: a key replayed, its order answered' : `order: ${JSON.parse(p.body).type} accepted`);
    if (k.orderId && k.orderId !== id) v.push(`key ${p.key} answered order ${id}, but it made ${k.orderId}`);
    if (k.body && k.body !== p.body) v.push(`key ${p.key} accepted other params (${p.body}) than the order it made (${k.body})`);
    if (p.maxPrice !== null && minorOf(a.body.partner_price, 'TON') > minorOf(p.maxPrice, 'TON')) v.push(`order ${id} debited ${a.body.partner_price} TON above max_price ${p.maxPrice}`);
    if (!k.orderId) {
      k.orderId = id;
      k.body = p.body;
      const parsed = JSON.parse(p.body) as { type: OrderType; params: { recipient: string } };
      m.orders.set(id, {
        id,
        partner: p.partner,
        type: parsed.type,
        currency: a.body.currency,
        amount: minorOf(a.body.partner_price, a.body.currency),
        key: p.key,
        recipient: parsed.params.recipient,
        capNano: parsed.type === 'nft' ? nanoOf(a.body.gift.price_ton) : null,
        operatorRefund: 'no',
        operatorDelivered: false,
        final: null,
      });
    }
  } else if (a.status === 409 && code === 'idempotency_key_reuse') {
    saw(m, 'order: another body under a used key, refused');
    if (k.body === p.body) v.push(`key ${p.key} refused as reused with the very params of its order`);
  } else if (a.status === 402) saw(m, 'order: refused for the balance (402)');
  else if (a.status === 409 && code === 'order_in_progress' && alone) {
    // a claim outlived its request (a crash, a creation that never ended): the key could never be used again
    v.push(`key ${p.key} answered order_in_progress with no other request of it under way`);
  }
  return v;
}

/**
 * A request under way: its answer, what the answer means, and what losing it to a kill means (run on the
 * restarted service). Every step is made of these, so that a kill can fall in the middle of any of them.
 */
export interface Pending {
  answer: Promise<Answer>;
  done(a: Answer): string[];
  lost(): string[] | Promise<string[]>;
}

/** Waits for every answer and judges them. */
export async function settle(pending: Pending[]): Promise<string[]> {
  const answers = await Promise.all(pending.map((p) => p.answer));
  return pending.flatMap((p, i) => p.done(answers[i]));
}

/** The requests of one batch, sent at once (parallel orders on one balance, replays racing their first). */
export function beginOrders(w: World, m: Model, partnerIdx: number, specs: OrderSpec[]): Pending[] {
  const placed = placements(m, partnerIdx, specs);
  const key = m.partners[partnerIdx % m.partners.length].key;
  const sameKey = (p: Placed) => placed.filter((x) => x.key === p.key).length;
  if (placed.length > 1) saw(m, 'orders: several at once on one balance');
  if (placed.some((p) => sameKey(p) > 1)) saw(m, 'orders: one key sent twice at once');
  const recipientOf = (p: Placed) => (JSON.parse(p.body) as { params: { recipient: string } }).params.recipient;
  for (const p of placed) w.fragment?.register(recipientOf(p));
  return placed.map((p) => ({
    answer: w.partner(key, 'POST', '/orders', JSON.parse(p.body)),
    done: (a) => {
      w.fragment?.answered(recipientOf(p));
      return judgeOrder(m, p, a, sameKey(p) === 1);
    },
    lost: () => {
      w.fragment?.answered(recipientOf(p));
      m.keys.get(keyOf(p.partner, p.key))!.unknown = true;
      return [];
    },
  }));
}

export function beginAdvance(w: World, seconds: number): Pending {
  return {
    answer: w.advance(seconds),
    done: (a) => (a.status === 200 ? [] : [`clock advance of ${seconds} s answered ${a.status} ${a.raw.slice(0, 300)}`]),
    lost: () => [],
  };
}

/** Something a step starts: the requests it sends (it may read first). */
export type Begin = (w: World, m: Model) => Promise<Pending[]>;

/** Runs a step to its end: its requests, and with `race` the workers at the same time (the clock moves `seconds`, the step's requests leave `turns` turns later). */
export async function runStep(w: World, m: Model, begin: Begin, race: Race | null = null): Promise<string[]> {
  if (!race) return settle(await begin(w, m));
  saw(m, 'support racing the workers');
  const clock = beginAdvance(w, race.seconds);
  await turns(race.turns);
  const pending = await begin(w, m);
  return settle([clock, ...pending]);
}

export interface Race {
  seconds: number;
  turns: number;
}

// --- the clock, and crashes ---------------------------------------------------------------------------

/** How long a killed instance's requests may take to fail (real time; they fail within a few turns). */
const DEAD_SETTLE_MS = 10_000;

/**
 * Kills the service `ticks` turns of the event loop into a step (or while idle: no step) and starts it again on
 * the file. Answers that came before the kill are judged; a lost answer is what it means (a key whose order may
 * or may not exist, a transfer the watcher reports again, a resolution that may or may not have been made).
 */
export async function crashDuring(w: World, m: Model, ticks: number, begin: Begin | null, kind = 'idle'): Promise<string[]> {
  const v: string[] = [];
  saw(m, `kill: during ${kind}`);
  const pending = begin ? await begin(w, m) : [];
  let crashed = false;
  const before = new Map<Pending, Answer>();
  const tracked = pending.map((p) =>
    p.answer.then(
      (a) => {
        if (!crashed) before.set(p, a);
      },
      () => {},
    ),
  );
  await turns(ticks);
  crashed = true;
  await w.crash();
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([Promise.all(tracked).then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), DEAD_SETTLE_MS)))]);
  clearTimeout(timer);
  if (!ended) v.push(`a request to the killed instance did not end within ${DEAD_SETTLE_MS / 1000} s`);
  await w.bury();
  for (const p of pending) {
    const a = before.get(p);
    if (!a) saw(m, `kill: an answer of ${kind} lost`);
    v.push(...(a ? p.done(a) : await p.lost()));
  }
  return v;
}

// --- top-ups --------------------------------------------------------------------------------------

/**
 * How support may write a transaction's hash (operator-api.md: as an explorer shows it): as the watcher records
 * it, in upper case, with or without `0x`, in base64 (TON explorers), or under another network than its own
 * (support left the default `ton` for a TRC-20 transfer).
 */
export type Spelling = 'as_seen' | 'upper' | 'prefixed' | 'bare' | 'base64' | 'other_network';

function spell(tx: TxM, s: Spelling): string {
  const bare = tx.hash;
  switch (s) {
    case 'as_seen':
      return watcherHash(tx);
    case 'upper':
      return tx.network === 'bep20' ? `0x${bare.toUpperCase()}` : bare.toUpperCase();
    case 'prefixed':
      return `0x${bare}`;
    case 'bare':
      return bare;
    case 'base64':
      return tx.network === 'ton' ? Buffer.from(bare, 'hex').toString('base64') : watcherHash(tx);
    case 'other_network':
      return bare;
  }
}

/** The spelling a chain watcher reports: BSC with 0x, the others bare, lower case. */
function watcherHash(tx: TxM): string {
  return tx.network === 'bep20' ? `0x${tx.hash}` : tx.hash;
}

const TOPUP_AMOUNTS: Record<Currency, string[]> = { USD: ['10.00', '25.50', '100.00'], TON: ['10.000', '20.500', '50.000'] };

/**
 * Support credits a transaction (POST /partners/{id}/topups): a new one, or one the model knows (again, in
 * another spelling, to another partner). By operator-api.md: the first credit of a transaction is 201; the same
 * transaction again is 200 with the first top-up when it is for the same partner and amount, else 409
 * `tx_already_credited`; never a second credit. An answer lost to a kill is asked again of the restarted
 * service, as support would: 201 if the first never reached the disk, 200 with it if it did.
 */
export async function beginOperatorTopup(
  w: World,
  m: Model,
  partnerIdx: number,
  tx: { fresh: string; currency: Currency; network: Network; amount: number } | { reuse: number },
  spelling: Spelling,
  /** support may credit transactions a watcher recorded (the service keeps one form of a hash on every path) */
  watched: boolean,
): Promise<Pending[]> {
  const p = m.partners[partnerIdx % m.partners.length];
  let t: TxM;
  if ('fresh' in tx) {
    const currency = tx.currency;
    t = { hash: tx.fresh, network: currency === 'TON' ? 'ton' : tx.network, currency, amount: minorOf(TOPUP_AMOUNTS[currency][tx.amount % 3], currency), creditedTo: null };
    m.txs.push(t);
  } else {
    const known = watched ? m.txs : m.txs.filter((x) => !x.report);
    t = known[tx.reuse % known.length];
  }
  if (t.amount <= 0) return [];
  // TON is credited on network ton only; another network is support's mistake for a USD transfer
  const network = spelling === 'other_network' && t.currency === 'USD' ? (t.network === 'ton' ? 'trc20' : 'ton') : t.network;
  const body = { currency: t.currency, amount: textOf(t.amount, t.currency), network, tx_hash: spell(t, spelling) };
  const judge = (a: Answer, retried: boolean): string[] => {
    const err = serverError(a, 'POST /topups');
    if (err) return [err];
    const what = `support's credit of ${t.hash} (${JSON.stringify(body)})`;
    if (t.creditedTo === null) {
      // a retry after a lost answer may find the first credit made (200) or not (201)
      if (a.status === 201 || (retried && a.status === 200)) {
        const first = topupsOf(w, t.hash);
        if (first.length !== 1 || first[0].topup_id !== a.body?.topup_id) return [`${what} answered ${a.status} with top-up ${a.body?.topup_id}, the ledger has ${JSON.stringify(first)}`];
        t.creditedTo = p.id;
        addCredit(m, p.id, t.currency, t.amount);
        saw(m, `support credit: first (${spelling})`);
        return [];
      }
      return [`${what}, its first, answered ${a.status} ${a.raw.slice(0, 200)}`];
    }
    const first = topupsOf(w, t.hash)[0];
    const code = a.body?.code ?? a.body?.detail?.code;
    if (t.creditedTo === p.id) {
      saw(m, `support credit: the same again (${spelling})`);
      if (a.status !== 200 || a.body?.topup_id !== first?.topup_id) return [`${what}, credited before to this partner as ${first?.topup_id}, answered ${a.status} ${a.raw.slice(0, 200)}`];
      return [];
    }
    saw(m, `support credit: again to another partner (${spelling})`);
    if (a.status !== 409 || code !== 'tx_already_credited') return [`${what}, credited before to partner ${t.creditedTo}, answered ${a.status} for partner ${p.id} ${a.raw.slice(0, 200)}`];
    return [];
  };
  return [
    {
      answer: w.admin('POST', `/partners/${p.id}/topups`, body),
      done: (a) => judge(a, false),
      lost: async () => judge(await w.admin('POST', `/partners/${p.id}/topups`, body), true),
    },
  ];
}

/** The top-ups of one chain transaction, whatever spelling each path stored (it is in every spelling's text). */
function topupsOf(w: World, hash: string): { topup_id: string; partner_id: number }[] {
  return w.sql('select topup_id, partner_id from topups where instr(lower(tx_hash), ?) > 0', hash);
}

const REQUEST_AMOUNTS: Record<Currency, string[]> = { USD: ['10', '20'], TON: ['10', '20'] };

interface RequestRow {
  request_id: string;
  partner_id: number;
  currency: Currency;
  amount_to_send: number;
  comment_code: string | null;
  expires_at: number;
  status: string;
  canceled_at: number | null;
}

/** A top-up request on a partner's behalf: the exact amount to send. A request whose answer was lost is read back from the restarted service. */
export async function beginRequestTopup(w: World, m: Model, partnerIdx: number, currency: Currency, amountIdx: number): Promise<Pending[]> {
  const p = m.partners[partnerIdx % m.partners.length];
  return [
    {
      answer: w.admin('POST', `/partners/${p.id}/topup-requests`, { currency, amount: REQUEST_AMOUNTS[currency][amountIdx % 2] }),
      done: (a) => {
        const err = serverError(a, 'POST /topup-requests');
        if (err) return [err];
        if (a.status !== 201) return [];
        m.addresses ??= {};
        for (const ad of a.body.addresses as { network: Network; address: string }[]) m.addresses[`${currency}:${ad.network}`] = ad.address;
        m.requests.push({
          id: a.body.request_id,
          partner: p.id,
          currency,
          amountToSend: minorOf(a.body.amount_to_send, currency),
          commentCode: a.body.comment_code ?? null,
          expiresAt: Date.parse(a.body.expires_at),
          state: 'open',
          canceledAt: null,
        });
        saw(m, 'top-up request made');
        return [];
      },
      lost: () => {
        const known = new Set(m.requests.map((r) => r.id));
        for (const r of w.sql<RequestRow>('select request_id, partner_id, currency, amount_to_send, comment_code, expires_at, status, canceled_at from topup_requests where partner_id = ?', p.id)) {
          if (known.has(r.request_id)) continue;
          saw(m, 'top-up request: its answer lost, found made');
          m.requests.push({ id: r.request_id, partner: r.partner_id, currency: r.currency, amountToSend: r.amount_to_send, commentCode: r.comment_code, expiresAt: r.expires_at, state: r.status === 'canceled' ? 'canceled' : 'open', canceledAt: r.canceled_at });
        }
        return [];
      },
    },
  ];
}

/** Support (or the owner) cancels one of the requests; a canceled request ends unpaid at that moment. */
export async function beginRequestCancel(w: World, m: Model, idx: number): Promise<Pending[]> {
  if (!m.requests.length) return [];
  const r = m.requests[idx % m.requests.length];
  const at = w.now();
  const canceled = () => {
    r.state = r.state === 'paid' ? 'paid' : 'canceled';
    r.canceledAt ??= at;
  };
  return [
    {
      answer: w.admin('DELETE', `/partners/${r.partner}/topup-requests/${r.id}`),
      done: (a) => {
        const err = serverError(a, 'DELETE /topup-requests');
        if (err) return [err];
        const open = r.state === 'open' && at < r.expiresAt;
        if (a.status === 200) {
          saw(m, 'top-up request canceled');
          if (!open) return [`request ${r.id} (${r.state}, expires ${new Date(r.expiresAt).toISOString()}) canceled at ${new Date(at).toISOString()}`];
          canceled();
        } else if (open && a.status !== 409) return [`canceling open request ${r.id} answered ${a.status} ${a.raw.slice(0, 200)}`];
        return [];
      },
      lost: () => {
        // the restarted service says whether the cancellation was made
        const row = w.sql<{ status: string }>('select status from topup_requests where request_id = ?', r.id)[0];
        if (row?.status === 'canceled') canceled();
        return [];
      },
    },
  ];
}

/** How a transfer for a request is made: exactly, or mistyped, or in another token, or (TON) with its code. */
export type PayVariant = 'exact' | 'round' | 'fraction' | 'other_token' | 'with_code' | 'code_wrong_amount' | 'again';

/**
 * Which request a transfer is for: any of them, one paid already (paid twice), one that ended unpaid (expired or
 * canceled), or an open one paid late (the clock first moves past its expiry). When none is of that kind, any.
 */
export type TransferTarget = 'any' | 'paid' | 'ended' | 'late';

/** How the model sees a request now. */
function requestState(r: RequestM, now: number): 'paid' | 'canceled' | 'expired' | 'open' {
  if (r.state === 'paid' || r.state === 'canceled') return r.state;
  return r.expiresAt <= now ? 'expired' : 'open';
}

/** A chain transfer reported as a watcher would (POST /sandbox/deposits), for a request (late, twice, …). */
export async function beginTransfer(w: World, m: Model, reqIdx: number, variant: PayVariant, networkIdx: number, target: TransferTarget = 'any'): Promise<Pending[]> {
  const hash = crypto.createHash('sha256').update(`transfer-${m.steps}-${m.txs.length}`).digest('hex');
  if (variant === 'again') {
    const seen = m.txs.filter((t) => t.report);
    if (!seen.length) return [];
    const t = seen[reqIdx % seen.length];
    saw(m, 'transfer: reported again');
    return [report(w, m, t, new Set([null]), 'a transfer reported before', false)];
  }
  if (!m.requests.length) return [];
  let now = w.now();
  const wanted = (x: RequestM) => {
    const st = requestState(x, now);
    if (target === 'paid') return st === 'paid';
    if (target === 'ended') return st === 'canceled' || st === 'expired';
    // late: an open one, when the clock may jump past its expiry (at most a day; not while a supplier is down)
    if (target === 'late') return st === 'open' && !m.faultsOn;
    return true;
  };
  const pool = m.requests.filter(wanted);
  const r: RequestM = (pool.length ? pool : m.requests)[reqIdx % (pool.length || m.requests.length)];
  if (target === 'late' && pool.length) {
    const a = await w.advance(Math.ceil((r.expiresAt - now) / 1000) + 1 + (reqIdx % 600));
    if (a.status !== 200) return [{ answer: Promise.resolve(a), done: () => [`clock advance answered ${a.status} ${a.raw.slice(0, 200)}`], lost: () => [] }];
    now = w.now();
  }
  saw(m, `transfer for a request ${requestState(r, now)}`);
  saw(m, `transfer: ${variant}`);
  const networks: Network[] = r.currency === 'TON' ? ['ton'] : ['ton', 'trc20', 'bep20'];
  const network = networks[networkIdx % networks.length];
  const to = m.addresses?.[`${r.currency}:${network}`];
  if (!to) return [];
  const unit = r.currency === 'USD' ? 100 : 1000;
  let amountText = textOf(r.amountToSend, r.currency);
  let amount = r.amountToSend;
  let exact = true;
  let asset = r.currency === 'USD' ? 'USDT' : 'TON';
  let comment: string | null = null;
  if (variant === 'round') {
    amount = Math.floor(r.amountToSend / unit) * unit;
    amountText = textOf(amount, r.currency);
  } else if (variant === 'fraction') {
    // not a whole cent (milli-TON): pays no request; support credits it rounded down
    amountText = `${amountText}7`;
    exact = false;
  } else if (variant === 'other_token') {
    asset = r.currency === 'USD' ? 'USDC' : 'NOT';
    exact = false;
  } else if (variant === 'with_code' || variant === 'code_wrong_amount') {
    if (r.currency !== 'TON' || !r.commentCode) return [];
    comment = `top-up ${r.commentCode.toLowerCase()}`;
    if (variant === 'code_wrong_amount') {
      amount = r.amountToSend + 1;
      amountText = textOf(amount, r.currency);
    }
  }
  const t: TxM = { hash, network, currency: r.currency, amount, creditedTo: null };
  t.report = { network, asset, amount: amountText, to, tx_hash: watcherHash(t), ...(comment ? { comment } : {}) };
  if (asset !== 'USDT' && asset !== 'TON') t.ignored = true;
  m.txs.push(t);
  const at = w.now();
  const allowed = t.ignored ? new Set<number | null>([null]) : depositRecipients(m.requests, r.currency, exact ? amount : null, comment, at);
  const meant = `${r.id} (${variant}, ${r.state}, expires ${new Date(r.expiresAt).toISOString()}, now ${new Date(at).toISOString()})`;
  return [report(w, m, t, allowed, meant, true)];
}

/** One report of a transfer; a report lost to a kill is made again after the restart (the watcher did not move on). */
function report(w: World, m: Model, t: TxM, allowed: Set<number | null>, meantFor: string, fresh: boolean): Pending {
  const judge = (a: Answer): string[] => {
    const err = serverError(a, 'POST /sandbox/deposits');
    if (err) return [err];
    if (fresh && a.status !== 201) return [`a new transfer was answered ${a.status} ${a.raw.slice(0, 200)}`];
    if (!fresh && a.status !== 200) return [`a transfer reported again was answered ${a.status} ${a.raw.slice(0, 200)}`];
    m.pendingDeposits.push({ tx: t, allowed, meantFor });
    return [];
  };
  return {
    answer: w.admin('POST', '/sandbox/deposits', t.report),
    done: judge,
    lost: async () => {
      const again = await w.admin('POST', '/sandbox/deposits', t.report);
      const err = serverError(again, 'POST /sandbox/deposits');
      if (err) return [err];
      m.pendingDeposits.push({ tx: t, allowed, meantFor });
      return [];
    },
  };
}

// --- support --------------------------------------------------------------------------------------

/** Support resolves one of the orders waiting for review. */
export async function beginResolve(w: World, m: Model, idx: number, outcome: 'delivered' | 'refunded'): Promise<Pending[]> {
  const list = await w.admin('GET', '/reviews');
  if (list.status !== 200) return [{ answer: Promise.resolve(list), done: () => [`GET /reviews answered ${list.status}`], lost: () => [] }];
  const items = list.body.items as { order_id: string }[];
  if (!items.length) return [];
  const id = items[idx % items.length].order_id;
  const o = m.orders.get(id);
  const decided = (sure: boolean) => {
    if (!o) return;
    if (outcome === 'refunded' && o.operatorRefund !== 'done') o.operatorRefund = sure ? 'done' : 'maybe';
    if (outcome === 'delivered') o.operatorDelivered = true;
  };
  return [
    {
      answer: w.admin('POST', `/orders/${id}/resolve`, { outcome }),
      done: (a) => {
        const err = serverError(a, `POST /orders/${id}/resolve`);
        if (err) return [err];
        if (a.status === 200) {
          decided(true);
          saw(m, `review resolved ${outcome}`);
        }
        return [];
      },
      lost: () => {
        decided(false);
        return [];
      },
    },
  ];
}

/** Support cancels a Premium order: never one that was delivered. */
export async function beginCancel(w: World, m: Model, idx: number): Promise<Pending[]> {
  const premium = [...m.orders.values()].filter((o) => o.type === 'premium');
  if (!premium.length) return [];
  const o = premium[idx % premium.length];
  return [
    {
      answer: w.admin('POST', `/orders/${o.id}/cancel`, { note: 'simulated' }),
      done: (a) => {
        const err = serverError(a, `POST /orders/${o.id}/cancel`);
        saw(m, a.status === 200 ? 'premium canceled by support' : `premium cancel answered ${a.status}`);
        return err ? [err] : [];
      },
      lost: () => [],
    },
  ];
}

/**
 * Support handles an unmatched deposit: credits it to a partner (rounded down when not a whole cent) or closes
 * it. A transaction credited before is never credited again.
 */
export async function beginDepositResolve(w: World, m: Model, idx: number, partnerIdx: number, close: boolean): Promise<Pending[]> {
  const list = await w.admin('GET', '/deposits?status=unmatched');
  if (list.status !== 200) return [{ answer: Promise.resolve(list), done: () => [`GET /deposits answered ${list.status}`], lost: () => [] }];
  const items = list.body.items as { deposit_id: string; tx_hash: string }[];
  if (!items.length) return [];
  const d = items[idx % items.length];
  const t = m.txs.find((x) => d.tx_hash.toLowerCase().includes(x.hash));
  if (!t) return [{ answer: Promise.resolve(list), done: () => [`deposit ${d.deposit_id} of an unknown transaction ${d.tx_hash}`], lost: () => [] }];
  const p = m.partners[partnerIdx % m.partners.length];
  const body = close ? { action: 'close', note: 'simulated' } : { action: 'credit', partner_id: p.id };
  const expect = (maybe: boolean) => {
    if (close) return;
    const allowed = new Set<number | null>(t.creditedTo === null ? [p.id] : [null]);
    if (maybe) allowed.add(null);
    m.pendingDeposits.push({ tx: t, allowed, meantFor: `support's credit to partner ${p.id}` });
  };
  return [
    {
      answer: w.admin('POST', `/deposits/${d.deposit_id}/resolve`, body),
      done: (a) => {
        const err = serverError(a, `POST /deposits/${d.deposit_id}/resolve`);
        if (err) return [err];
        if (a.status === 200) saw(m, close ? 'unmatched deposit closed' : 'unmatched deposit credited by support');
        if (!close && t.creditedTo === null && a.status !== 200) return [`support's credit of unmatched deposit ${d.deposit_id} to partner ${p.id} answered ${a.status} ${a.raw.slice(0, 200)}`];
        expect(a.status !== 200);
        return [];
      },
      lost: () => {
        expect(true);
        return [];
      },
    },
  ];
}

/** Support corrects a balance with an adjustment: taken or given, never below zero. */
export async function beginAdjust(w: World, m: Model, partnerIdx: number, currency: Currency, amountIdx: number, give: boolean): Promise<Pending[]> {
  const p = m.partners[partnerIdx % m.partners.length];
  const amount = (give ? 1 : -1) * minorOf(ADJUST_AMOUNTS[currency][amountIdx % ADJUST_AMOUNTS[currency].length], currency);
  const note = `simulated correction ${m.steps}.${m.txs.length}.${amountIdx}`;
  // the balance now, as the model has checked it after the last step
  const refunded = new Set(w.sql<{ order_id: string }>('select order_id from orders where refunded = 1').map((o) => o.order_id));
  const before = expectedBalance(m, p.id, currency, (id) => refunded.has(id));
  const text = `${amount < 0 ? '-' : ''}${textOf(Math.abs(amount), currency)}`;
  return [
    {
      answer: w.admin('POST', `/partners/${p.id}/adjustments`, { currency, amount: text, note }),
      done: (a) => {
        const err = serverError(a, 'POST /adjustments');
        if (err) return [err];
        if (before + amount >= 0) {
          if (a.status !== 201) return [`an adjustment of ${text} ${currency} to a balance of ${before} was answered ${a.status} ${a.raw.slice(0, 200)}`];
          saw(m, give ? 'adjustment given' : 'adjustment taken');
          addCredit(m, p.id, currency, amount);
          return [];
        }
        const code = a.body?.code ?? a.body?.detail?.code;
        saw(m, 'adjustment refused below zero');
        return a.status === 409 && code === 'insufficient_balance' ? [] : [`an adjustment of ${text} ${currency} below zero (balance ${before}) was answered ${a.status} ${a.raw.slice(0, 200)}`];
      },
      lost: () => {
        // the restarted service says whether it was made
        if (w.sql("select 1 from ledger_entries where kind = 'adjustment' and note = ?", note).length) addCredit(m, p.id, currency, amount);
        return [];
      },
    },
  ];
}

const ADJUST_AMOUNTS: Record<Currency, string[]> = { USD: ['1.00', '5.50', '40.00', '500.00'], TON: ['1.000', '5.500', '30.000', '500.000'] };

// --- the sandbox's suppliers ------------------------------------------------------------------------

export interface Faults {
  stars: boolean;
  premium: boolean;
  nft: boolean;
  resolver: boolean;
}

export async function setFaults(w: World, m: Model, f: Faults): Promise<string[]> {
  const a = await w.admin('PUT', '/sandbox/faults', { resolver_error: f.resolver, upstream_unavailable: { stars: f.stars, premium: f.premium, nft: f.nft } });
  m.faultsOn = f.stars || f.premium || f.nft || f.resolver;
  return a.status === 200 ? [] : [`PUT /sandbox/faults answered ${a.status} ${a.raw.slice(0, 200)}`];
}

export type GiftChange = { kind: 'price'; factor: number } | { kind: 'outcome'; outcome: string } | { kind: 'relist' };

/** A listing changes under the orders: its price, the outcome of its next purchase, or it is listed again. */
export async function changeGift(w: World, m: Model, giftIdx: number, change: GiftChange): Promise<string[]> {
  const g = m.gifts[giftIdx % m.gifts.length];
  const gift = g.gift;
  let body: Record<string, unknown>;
  if (change.kind === 'price') {
    g.priceMilli = Math.max(1, Math.round(g.priceMilli * change.factor));
    body = { price_ton: textOf(g.priceMilli, 'TON') };
  } else if (change.kind === 'outcome') body = { outcome: change.outcome };
  else body = { available: true };
  const a = await w.admin('PUT', `/sandbox/gifts/${gift}`, body);
  return a.status === 200 ? [] : [`PUT /sandbox/gifts/${gift} ${JSON.stringify(body)} answered ${a.status} ${a.raw.slice(0, 200)}`];
}

