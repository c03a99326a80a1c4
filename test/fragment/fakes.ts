import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Address, beginCell, Cell, loadMessage, storeMessage, toNano, type Message, type Transaction } from '@ton/core';
import { mnemonicNew } from '@ton/crypto';
import { Blockchain, createEmptyShardAccount, createShardAccount, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { commentOf, refOf } from '../../src/suppliers/fragment/payment-checks.js';
import { normalisedHash } from '../../src/suppliers/fragment/wallet.js';

/**
 * Test doubles of UPSTREAM=fragment, over real HTTP on 127.0.0.1:
 * - a fake Fragment web API answering with the shapes public clients record (errors included);
 * - a fake toncenter whose chain is @ton/sandbox: a signed external message is executed by the real
 *   wallet contract, so signature, seqno, expiry, destination, amount and payload are checked for real;
 * - a fake TON/USD rate source.
 */

export const FRAGMENT_ADDRESS = new Address(0, Buffer.alloc(32, 0x5a));
export const OTHER_ADDRESS = new Address(0, Buffer.alloc(32, 0x66));
/** A second receiving address of Fragment with no contract: a bounceable payment to it comes back (a bounce). */
export const BOUNCING_ADDRESS = new Address(0, Buffer.alloc(32, 0x5b));
export const FRAGMENT_HASH = 'a1b2c3d4e5f60718293a';
export const COOKIES = 'stel_ssid=ssid-SECRET-1; stel_dt=-180; stel_token=token-SECRET-2; stel_ton_token=tontoken-SECRET-3';
export const PROBE = 'price_probe';

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/**
 * `bad_hash`: Fragment's answer to an unknown or stale page hash (HTTP 200 `{error: "Bad request"}`);
 * `cloudflare`: Cloudflare's 403 challenge page; `rate_limited`: 429 with `Retry-After: retryAfter`.
 */
export type FragmentMode = 'ok' | 'session_expired' | 'need_verify' | 'down' | 'bad_hash' | 'cloudflare' | 'rate_limited';

export interface FakeFragment {
  url: string;
  mode: FragmentMode;
  /** the page hash the API takes now; the purchase pages show it (Fragment changes it now and then) */
  hash: string;
  /** the Retry-After of `rate_limited` answers (seconds; null: none sent) */
  retryAfter: number | null;
  /** GET requests of the purchase pages (hash re-reads) */
  pageReads: number;
  /** TON prices: per 1000 stars, per Premium term */
  prices: { stars1000: string; premium: Record<string, string> };
  /** accounts that exist; `premium: true` has an active subscription */
  users: Map<string, { name: string; premium: boolean }>;
  calls: { method: string; params: Record<string, string>; cookie: string }[];
  /** rewrites the transaction getXLink answers (bad address, amount, validUntil…) */
  linkOverride: ((tx: { validUntil: number; messages: { address: string; amount: string; payload: string }[] }) => unknown) | null;
  /** an init answer that is an error (e.g. Fragment refusing the request) */
  initError: string | null;
  /** a search answer that is an error Fragment has never been seen to give */
  searchError: string | null;
  /** init answers write amounts with thousands separators ("1,234.5"), as Fragment does for large ones */
  thousands: boolean;
  /** the confirm calls received (`confirmReq` with the signed boc) */
  confirmed: { id: string; boc: string }[];
  /** where a recipient's payment goes (default FRAGMENT_ADDRESS): a request can name another receiving address */
  payTo: Map<string, Address>;
  /** each API answer waits this long (real time), so that calls made at once overlap */
  delayMs: number;
  /** API calls being answered now, and the most ever at once */
  inFlight: number;
  maxInFlight: number;
  /** the requests opened: their reference, recipient and amount (to tell on chain which order a payment paid) */
  requests: Map<string, { product: string; amountNano: bigint; quantity: string; ref: string; recipient: string }>;
  nowSec: () => number;
  close(): Promise<void>;
}

export async function startFakeFragment(nowSec: () => number): Promise<FakeFragment> {
  let reqSeq = 0;
  const f: FakeFragment = {
    url: '',
    mode: 'ok',
    hash: FRAGMENT_HASH,
    retryAfter: 7,
    pageReads: 0,
    prices: { stars1000: '5.2', premium: { '3': '4', '6': '5.33', '12': '9.66' } },
    users: new Map([[PROBE, { name: 'Price Probe', premium: false }]]),
    calls: [],
    linkOverride: null,
    initError: null,
    searchError: null,
    thousands: false,
    confirmed: [],
    payTo: new Map(),
    delayMs: 0,
    inFlight: 0,
    maxInFlight: 0,
    requests: new Map(),
    nowSec,
    close: async () => close(server),
  };
  const requests = f.requests;
  const states = new Set<string>();
  const server = http.createServer(async (req, res) => {
    const text = await readBody(req);
    const params = Object.fromEntries(new URLSearchParams(text));
    const url = new URL(req.url!, 'http://x');
    f.calls.push({ method: params.method, params, cookie: String(req.headers.cookie ?? '') });
    f.inFlight++;
    f.maxInFlight = Math.max(f.maxInFlight, f.inFlight);
    if (f.delayMs > 0) await new Promise((r) => setTimeout(r, f.delayMs));
    res.once('finish', () => f.inFlight--);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (f.mode === 'down') return send(502, '<html>Bad Gateway</html>');
    if (f.mode === 'cloudflare') {
      res.writeHead(403, { 'content-type': 'text/html', server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f-AMS', 'cf-mitigated': 'challenge' });
      return res.end('<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>cf-chl</body></html>');
    }
    if (f.mode === 'rate_limited') {
      res.writeHead(429, { 'content-type': 'text/html', ...(f.retryAfter === null ? {} : { 'retry-after': String(f.retryAfter) }) });
      return res.end('Too Many Requests');
    }
    const cookieOk = COOKIES.split('; ').every((c) => String(req.headers.cookie ?? '').includes(c));
    if (req.method === 'GET' && (url.pathname === '/stars/buy' || url.pathname === '/premium/gift')) {
      f.pageReads++;
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(cookieOk ? `<html><script>var ajInit = {"version":1,"apiUrl":"\\/api?hash=${f.hash}","unAuth":false};</script></html>` : '<html>Log in</html>');
    }
    if (f.mode === 'bad_hash' || url.searchParams.get('hash') !== f.hash) return send(200, { error: 'Bad request' });
    if (f.mode === 'session_expired' || !cookieOk || url.pathname !== '/api') return send(200, { error: 'Session expired' });
    // the page state the purchase pages open before a request (the nonce `dh` changes with every call)
    const opened = (product: string) => states.has(product);
    const user = (q: string) => f.users.get(q.replace(/^@/, '').toLowerCase());
    switch (params.method) {
      case 'updateStarsBuyState':
      case 'updatePremiumState': {
        if (params.mode !== 'new' || !/^\d+$/.test(params.dh ?? '')) return send(200, { error: 'Bad request' });
        states.add(params.method === 'updateStarsBuyState' ? 'stars' : 'premium');
        return send(200, { ok: true, mode: 'new', need_update: false, dh: params.dh });
      }
      case 'searchStarsRecipient':
      case 'searchPremiumGiftRecipient': {
        if (f.searchError) return send(200, { error: f.searchError });
        const u = user(params.query ?? '');
        if (!u) return send(200, { error: 'No Telegram users found.' });
        if (params.method === 'searchPremiumGiftRecipient' && u.premium)
          return send(200, { error: 'This account is already subscribed to Telegram Premium.' });
        return send(200, { ok: true, found: { myself: false, recipient: `rcp_${params.query.replace(/^@/, '').toLowerCase()}`, photo: '<img src="https://cdn4.telesco.pe/x.jpg"/>', name: u.name } });
      }
      case 'initBuyStarsRequest':
      case 'initGiftPremiumRequest': {
        if (f.initError) return send(200, { error: f.initError });
        const stars = params.method === 'initBuyStarsRequest';
        if (!opened(stars ? 'stars' : 'premium') || params.payment_method !== 'ton') return send(200, { error: 'Bad request' });
        const amountTon = stars ? (Number(f.prices.stars1000) * Number(params.quantity)) / 1000 : Number(f.prices.premium[params.months]);
        const id = `req_${++reqSeq}`;
        requests.set(id, { product: stars ? 'stars' : 'premium', amountNano: toNano(amountTon.toFixed(9)), quantity: stars ? params.quantity : params.months, ref: `Rf${reqSeq}x${(reqSeq * 7919).toString(36)}`, recipient: params.recipient });
        const shown = amountTon.toFixed(4).replace(/0+$/, '').replace(/\.$/, '');
        return send(200, { req_id: id, myself: false, to_bot: false, amount: f.thousands ? shown.replace(/^(\d+?)(\d{3})(?=\.|$)/, '$1,$2') : shown, item_title: stars ? `${params.quantity} Telegram Stars` : `Telegram Premium for ${params.months} months`, content: '<div/>', button: '<button/>' });
      }
      case 'getBuyStarsLink':
      case 'getGiftPremiumLink': {
        if (f.mode === 'need_verify') return send(200, { need_verify: true, ok: false });
        const r = requests.get(params.id);
        if (!r) return send(200, { error: 'Request not found' });
        // the comment as Fragment writes it: the quantity and the request's reference
        const payload = fragmentPayload(`${r.product === 'stars' ? `${r.quantity} Telegram Stars` : `Telegram Premium for ${r.quantity} months`} \n\nRef#${r.ref}`);
        const to = f.payTo.get(r.recipient.replace(/^rcp_/, '')) ?? FRAGMENT_ADDRESS;
        const tx = { validUntil: f.nowSec() + 300, messages: [{ address: to.toString({ bounceable: true }), amount: r.amountNano.toString(), payload }] };
        return send(200, { ok: true, transaction: f.linkOverride ? f.linkOverride(tx) : tx, confirm_method: 'confirmReq', confirm_params: { id: params.id } });
      }
      case 'confirmReq': {
        if (!requests.has(params.id) || !params.boc || !params.account) return send(200, { error: 'Request not found' });
        f.confirmed.push({ id: params.id, boc: params.boc });
        return send(200, { ok: true });
      }
      default:
        return send(200, { error: 'Unknown method' });
    }
  });
  f.url = await listen(server);
  return f;
}

/** A payload cell with a text comment (op 0), as Fragment's transactions carry. */
export function fragmentPayload(comment: string): string {
  return beginCell().storeUint(0, 32).storeStringTail(comment).endCell().toBoc().toString('base64');
}

export interface FakeToncenter {
  url: string;
  chain: Blockchain;
  treasury: SandboxContract<TreasuryContract>;
  /** every external message received by sendBoc (base64) */
  received: string[];
  /** executed wallet transactions by normalised message hash (hex) */
  executed: Map<string, Transaction>;
  /** 'ok': execute and answer; 'hang': execute, never answer; 'drop': hold (never execute), answer 500; 'fail500': execute, answer 500 */
  sendMode: 'ok' | 'hang' | 'drop' | 'fail500';
  /** lookups answer 503 while true */
  indexDown: boolean;
  /** getWalletInformation answers 503 while true */
  walletDown: boolean;
  /** getWalletInformation calls received */
  walletCalls: number;
  /** getWalletInformation reports this seqno instead of the chain's (a lagging node) */
  staleSeqno: number | null;
  onSend: (() => void) | null;
  /** messages held back (drop mode), to execute later */
  held: Message[];
  /** true: Fragment's address has no contract, so a bounceable payment comes back (a bounce) */
  fragmentBounces: boolean;
  /** adjacentTransactions calls answered (the receipts of batches) */
  adjacentCalls: number;
  /** called when a receipts lookup (adjacentTransactions) arrives, before it is answered */
  onAdjacent: (() => void) | null;
  execute(m: Message): Promise<Transaction | null>;
  fund(address: Address, ton: string): Promise<void>;
  /** with block timing: the blocks made (real time, ms), the external messages each executed, how long that took (ms) */
  blocks: { at: number; messages: number; tookMs: number }[];
  close(): Promise<void>;
}

/**
 * A chain that makes blocks (the benchmark's): sent messages wait in a pool and are executed together every
 * `blockMs` of real time, and the index shows a transaction `indexLagMs` after its block. Without it, a sent
 * message is executed at once and indexed at once (the tests).
 */
export interface ChainTiming {
  blockMs: number;
  indexLagMs: number;
}

function messageHash(m: Message): string {
  return beginCell().store(storeMessage(m)).endCell().hash().toString('base64');
}

export async function startFakeToncenter(nowSec: () => number, timing?: ChainTiming): Promise<FakeToncenter> {
  let bounces = false;
  /** real time (ms) from which the index shows a transaction (absent: at once) */
  const visibleAt = new WeakMap<Transaction, number>();
  const visible = (tx: Transaction | undefined): tx is Transaction => tx !== undefined && (visibleAt.get(tx) ?? 0) <= Date.now();
  const mempool: Message[] = [];
  let stopped = false;
  /** the time of the block being made (real time, ms): its transactions are indexed from blockAt + indexLagMs */
  let blockAt = 0;
  /** transactions caused by the wallet's messages (Fragment's receipt or bounce), by the received message's hash */
  const caused = new Map<string, Transaction>();
  const chain = await Blockchain.create();
  chain.now = nowSec();
  const treasury = await chain.treasury('treasury', { balance: toNano('1000000') });
  // Fragment's receiving address as an account that takes every message (empty code: the TVM returns at once)
  const acceptAll = createShardAccount({ address: FRAGMENT_ADDRESS, code: beginCell().endCell(), data: beginCell().endCell(), balance: 0n });
  await chain.setShardAccount(FRAGMENT_ADDRESS, acceptAll);
  /** wallet transactions by their hash (base64), as adjacentTransactions finds them */
  const byHash = new Map<string, Transaction>();
  const t: FakeToncenter = {
    url: '',
    chain,
    treasury,
    received: [],
    executed: new Map(),
    sendMode: 'ok',
    indexDown: false,
    walletDown: false,
    walletCalls: 0,
    staleSeqno: null,
    onSend: null,
    held: [],
    adjacentCalls: 0,
    onAdjacent: null,
    blocks: [],
    get fragmentBounces() {
      return bounces;
    },
    set fragmentBounces(on: boolean) {
      bounces = on;
      void chain.setShardAccount(FRAGMENT_ADDRESS, on ? createEmptyShardAccount(FRAGMENT_ADDRESS) : acceptAll);
    },
    async execute(m: Message) {
      chain.now = nowSec();
      try {
        // the wallet's transaction, then the transactions its messages caused (by the hash of the message each
        // received, as toncenter's index finds them)
        const record = (x: Transaction, first: boolean) => {
          if (first) t.executed.set(normalisedHash(m).toString('hex'), x);
          else if (x.inMessage) caused.set(messageHash(x.inMessage), x);
        };
        if (!timing) {
          const txs = (await chain.sendMessage(m)).transactions;
          txs.forEach((x, i) => record(x, i === 0));
          return txs[0];
        }
        // A block's transactions one at a time, the HTTP server answering in between (the emulator takes
        // ~10 ms a message, more on a loaded machine: a transfer of 255 messages would otherwise hold every
        // answer for seconds). Each is recorded as soon as it is made: the wallet's transaction is indexed
        // `indexLagMs` after its block however long the emulator then takes for the messages it sent (on the
        // chain they are other accounts' transactions); those are indexed once made, no earlier than that.
        let tx: Transaction | undefined;
        for await (const x of await chain.sendMessageIter(m)) {
          visibleAt.set(x, blockAt + timing.indexLagMs);
          record(x, tx === undefined);
          tx ??= x;
          await new Promise((r) => setImmediate(r));
        }
        return tx ?? null;
      } catch {
        return null; // the wallet did not accept it (bad signature, seqno, expired): no transaction
      }
    },
    async fund(address: Address, ton: string) {
      chain.now = nowSec();
      await treasury.send({ to: address, value: toNano(ton), bounce: false });
    },
    close: async () => {
      stopped = true;
      await close(server);
    },
  };
  if (timing) {
    // blocks on the real clock's multiples of blockMs: each executes what was sent since the last one
    void (async () => {
      for (let next = Math.ceil(Date.now() / timing.blockMs) * timing.blockMs; !stopped; next += timing.blockMs) {
        await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
        const batch = mempool.splice(0);
        blockAt = next;
        const began = Date.now();
        for (const m of batch) await t.execute(m);
        t.blocks.push({ at: next, messages: batch.length, tookMs: Date.now() - began });
      }
    })();
  }
  const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url!, 'http://x');
    const send = (status: number, b: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(b));
    };
    if (url.pathname === '/api/v2/getWalletInformation') {
      t.walletCalls++;
      if (t.walletDown) return send(503, { ok: false, error: 'service unavailable', code: 503 });
      const c = await chain.getContract(Address.parse(url.searchParams.get('address')!));
      const state = c.accountState?.type;
      let seqno: number | undefined;
      if (state === 'active') seqno = t.staleSeqno ?? Number((await c.get('seqno')).stackReader.readBigNumber());
      return send(200, { ok: true, result: { wallet: state === 'active', balance: c.balance.toString(), account_state: state === 'active' ? 'active' : 'uninitialized', ...(seqno === undefined ? {} : { seqno, wallet_type: 'wallet v4 r2' }) } });
    }
    if (url.pathname === '/api/v2/sendBoc' && req.method === 'POST') {
      const { boc } = JSON.parse(body);
      t.received.push(boc);
      const m = loadMessage(Cell.fromBase64(boc).beginParse());
      t.onSend?.();
      if (t.sendMode === 'drop') {
        t.held.push(m);
        return send(500, { ok: false, error: 'timeout', code: 500 });
      }
      if (timing) {
        mempool.push(m); // executed by the next block
        return send(200, { ok: true, result: { '@type': 'ok' } });
      }
      const tx = await t.execute(m);
      if (t.sendMode === 'hang') return;
      if (t.sendMode === 'fail500') return send(500, { ok: false, error: 'timeout', code: 500 });
      if (!tx) return send(500, { ok: false, error: 'LITE_SERVER_UNKNOWN: cannot apply external message to current state', code: 500 });
      return send(200, { ok: true, result: { '@type': 'ok' } });
    }
    if (url.pathname === '/api/v3/transactionsByMessage') {
      if (t.indexDown) return send(503, { error: 'index unavailable' });
      const key = String(url.searchParams.get('msg_hash'));
      const tx = t.executed.get(key) ?? caused.get(key);
      if (!visible(tx)) return send(200, { transactions: [], address_book: {} });
      return send(200, { transactions: [txJson(tx)], address_book: {} });
    }
    if (url.pathname === '/api/v3/adjacentTransactions') {
      if (t.indexDown) return send(503, { error: 'index unavailable' });
      const hash = String(url.searchParams.get('hash'));
      if (url.searchParams.get('direction') !== 'out') return send(422, { error: 'only direction=out is faked' });
      t.onAdjacent?.();
      const limit = Number(url.searchParams.get('limit') ?? 128);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const parent = byHash.get(hash) ?? [...t.executed.values()].find((x) => x.hash().toString('base64') === hash);
      if (parent) byHash.set(hash, parent);
      const children = visible(parent) ? [...parent.outMessages.values()].map((m) => caused.get(messageHash(m))).filter(visible) : [];
      t.adjacentCalls++;
      return send(200, { transactions: children.slice(offset, offset + limit).map(txJson), address_book: {} });
    }
    send(404, { ok: false, error: 'not found' });
  });
  t.url = await listen(server);
  return t;
}

/** A wallet transaction as the checks of "paid twice" read it: whether it succeeded, its messages' comments. */
export interface PaidTx {
  success: boolean;
  comments: (string | null)[];
}

export function paidTxOf(tx: Transaction): PaidTx {
  const d = tx.description;
  return {
    success: d.type === 'generic' && !d.aborted,
    comments: [...tx.outMessages.values()].map((m) => commentOf(m.body.toBoc().toString('base64'))),
  };
}

/**
 * Per recipient, how many messages of the wallet's successful transactions paid one of the Fragment requests
 * opened for it (each message's comment names its request by `Ref#`; `?` for a message naming none). A
 * recipient counted more than once was paid twice: each order of the tests and the bench has its own.
 */
export function paidPerRecipient(fragment: Pick<FakeFragment, 'requests'>, txs: PaidTx[]): Map<string, number> {
  const byRef = new Map([...fragment.requests.values()].map((r) => [r.ref, r.recipient]));
  const n = new Map<string, number>();
  for (const tx of txs) {
    if (!tx.success) continue;
    for (const c of tx.comments) {
      const who = byRef.get(refOf(c) ?? '') ?? '?';
      n.set(who, (n.get(who) ?? 0) + 1);
    }
  }
  return n;
}

/** A sandbox transaction in toncenter v3's JSON shape (the fields the adapter reads). */
function txJson(tx: Transaction) {
  const d = tx.description;
  if (d.type !== 'generic') throw new Error('unexpected transaction type');
  return {
    hash: tx.hash().toString('base64'),
    lt: tx.lt.toString(),
    now: tx.now,
    in_msg: tx.inMessage ? { hash: messageHash(tx.inMessage) } : null,
    description: {
      type: 'ord',
      aborted: d.aborted,
      compute_ph: d.computePhase.type === 'vm' ? { success: d.computePhase.success, exit_code: d.computePhase.exitCode } : { skipped: true },
      action: d.actionPhase ? { success: d.actionPhase.success, result_code: d.actionPhase.resultCode, skipped_actions: d.actionPhase.skippedActions } : undefined,
    },
    out_msgs: [...tx.outMessages.values()].map((m) => ({
      hash: messageHash(m),
      destination: m.info.dest instanceof Address ? m.info.dest.toRawString().toUpperCase() : '',
      value: m.info.type === 'internal' ? m.info.value.coins.toString() : '0',
      message_content: { hash: m.body.hash().toString('base64'), body: m.body.toBoc().toString('base64') },
    })),
  };
}

export async function startFakeRate(usd = '3.00'): Promise<{ url: string; usd: string; close(): Promise<void> }> {
  const r = { url: '', usd, close: async () => close(server) };
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"the-open-network":{"usd":${r.usd}}}`);
  });
  r.url = `${await listen(server)}/api/v3/simple/price?ids=the-open-network&vs_currencies=usd`;
  return r;
}

export async function newMnemonic(): Promise<string[]> {
  return mnemonicNew(24);
}
