import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { TopupCredited } from '../../src/kernel/event-bus.js';
import { tonRawAddress } from '../../src/domain/chain-address.js';
import { BscWatcher, TRANSFER_TOPIC } from '../../src/suppliers/chains/bsc-rpc.js';
import { WATCHER_JOB, watcherBackoffMs } from '../../src/app/deposit-watch.js';
import { TonWatcher } from '../../src/suppliers/chains/toncenter.js';
import { TronWatcher } from '../../src/suppliers/chains/trongrid.js';
import type { ObservedTransfer } from '../../src/suppliers/chains/chain-watcher.js';
import { startService, stopService, type TestService } from '../helpers.js';

/**
 * The chain watchers against fake HTTP servers on 127.0.0.1 that answer in the shape of each network's
 * public API (toncenter v3, TronGrid, BSC JSON-RPC): pagination, confirmations, API failures with backoff,
 * and a restart in the middle.
 */

// ---- fake servers

interface Fake {
  url: string;
  requests: { method: string; url: URL; body: any; headers: http.IncomingHttpHeaders }[];
  /** Answer HTTP 500 to this many next requests. */
  fail: number;
  close(): Promise<void>;
}

const fakes: Fake[] = [];
const services: TestService[] = [];

afterEach(async () => {
  for (const s of services.splice(0)) await stopService(s);
  for (const f of fakes.splice(0)) await f.close();
});

async function startFake(handle: (method: string, url: URL, body: any) => unknown): Promise<Fake> {
  const fake: Fake = { url: '', requests: [], fail: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://127.0.0.1');
      const raw = Buffer.concat(chunks).toString();
      const body = raw ? JSON.parse(raw) : undefined;
      fake.requests.push({ method: req.method!, url, body, headers: req.headers });
      if (fake.fail > 0) {
        fake.fail--;
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end('{"error":"upstream down"}');
      }
      try {
        const out = handle(req.method!, url, body);
        res.writeHead(out === undefined ? 404 : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(out ?? { error: 'not found' }));
      } catch (e) {
        res.writeHead(500);
        res.end(String(e));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  fakes.push(fake);
  return fake;
}

const page = <T>(items: T[], url: URL) => {
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const limit = Number(url.searchParams.get('limit') ?? 100);
  return items.slice(offset, offset + limit);
};

// toncenter v3

const USDT_JETTON = 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs';
const TON_ADDR = 'UQDP-0CULkl1EbwLrs4i8hrj2mFVu6e33aCLPalaoHeZ20eK';
const USDT_TON_ADDR = 'UQAC2rQwmBpABbARhPzcvgLNqzKks3afdzHFXVN7TcSRr02A';
const SENDER = '0:' + 'ab'.repeat(32);
const T0 = 1_780_000_000; // chain time (s) at the first poll

interface TonChain {
  seqno: number;
  utime: number;
  txs: { account: string; tx: any }[];
  jettons: any[];
}

let hashN = 0;
/** A 32-byte transaction hash in base64, as toncenter v3 spells it, and its hex form. */
function tonHash(): { b64: string; hex: string } {
  const b = Buffer.alloc(32);
  b.writeUInt32BE(++hashN, 28);
  b.writeUInt32BE(process.pid, 0);
  return { b64: b.toString('base64'), hex: b.toString('hex') };
}

function coinTx(chain: TonChain, account: string, o: { now: number; nanoton?: string; comment?: string; opcode?: string; outgoing?: boolean; bounced?: boolean; mc?: number }) {
  const h = tonHash();
  const tx = {
    account: tonRawAddress(account)!.toUpperCase(),
    hash: h.b64,
    lt: String(o.now * 1000 + hashN),
    now: o.now,
    mc_block_seqno: o.mc ?? chain.seqno,
    description: { aborted: false },
    in_msg: o.outgoing
      ? { source: null, destination: account, value: null, message_content: { decoded: null } }
      : {
          source: SENDER.toUpperCase(),
          destination: tonRawAddress(account)!.toUpperCase(),
          value: o.nanoton ?? '10000000000',
          bounced: o.bounced ?? false,
          opcode: o.opcode ?? (o.comment ? '0x00000000' : null),
          message_content: { decoded: o.comment ? { type: 'text_comment', comment: o.comment } : null },
        },
    out_msgs: [],
  };
  chain.txs.push({ account: tonRawAddress(account)!, tx });
  return h.hex;
}

function jettonTransfer(chain: TonChain, owner: string, o: { now: number; units: string; aborted?: boolean; master?: string; mc?: number }) {
  const h = tonHash();
  chain.jettons.push({
    query_id: '0',
    source: SENDER.toUpperCase(),
    destination: tonRawAddress(owner)!.toUpperCase(),
    amount: o.units,
    source_wallet: '0:' + 'cd'.repeat(32),
    jetton_master: tonRawAddress(o.master ?? USDT_JETTON)!.toUpperCase(),
    transaction_hash: h.b64,
    transaction_lt: String(o.now * 1000 + hashN),
    transaction_now: o.now,
    transaction_aborted: o.aborted ?? false,
    forward_payload: null,
    _mc: o.mc ?? chain.seqno,
  });
  return h.hex;
}

async function fakeToncenter(chain: TonChain): Promise<Fake> {
  const indexed = (mc: number) => mc <= chain.seqno;
  return startFake((method, url) => {
    const q = url.searchParams;
    if (url.pathname === '/api/v3/masterchainInfo') return { first: { seqno: 1 }, last: { workchain: -1, seqno: chain.seqno, gen_utime: String(chain.utime) } };
    if (url.pathname === '/api/v3/transactions') {
      if (q.get('hash')) {
        const j = chain.jettons.find((x) => x.transaction_hash === q.get('hash'));
        return { transactions: j ? [{ hash: j.transaction_hash, now: j.transaction_now, mc_block_seqno: j._mc }] : [], address_book: {} };
      }
      const acc = tonRawAddress(q.get('account')!);
      const start = Number(q.get('start_utime') ?? 0);
      const list = chain.txs
        .filter((x) => x.account === acc && indexed(x.tx.mc_block_seqno) && x.tx.now >= start)
        .map((x) => x.tx)
        .sort((a, b) => a.now - b.now || Number(a.lt) - Number(b.lt));
      return { transactions: page(list, url), address_book: { [SENDER.toUpperCase()]: { user_friendly: 'UQsender' } } };
    }
    if (url.pathname === '/api/v3/jetton/transfers') {
      expect(q.get('direction')).toBe('in');
      const owner = tonRawAddress(q.get('owner_address')!);
      const master = tonRawAddress(q.get('jetton_master')!);
      const start = Number(q.get('start_utime') ?? 0);
      const list = chain.jettons
        .filter((j) => tonRawAddress(j.destination) === owner && tonRawAddress(j.jetton_master) === master && indexed(j._mc) && j.transaction_now >= start)
        .sort((a, b) => a.transaction_now - b.transaction_now || Number(a.transaction_lt) - Number(b.transaction_lt));
      return { jetton_transfers: page(list, url).map(({ _mc, ...j }) => j), address_book: {}, metadata: {} };
    }
    return undefined;
  });
}

// TronGrid

const USDT_TRC20 = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const TRC_ADDR = 'TWc1AWZbXZzkqGwJa4dysGKubH7q8uDUYz';
const TRON_T0 = 1_780_000_000_000; // ms

interface TronChain {
  headTs: number;
  transfers: any[];
}

function tronTransfer(chain: TronChain, o: { ts: number; units: string; id?: string; to?: string }) {
  const id = o.id ?? tonHash().hex;
  chain.transfers.push({
    transaction_id: id,
    token_info: { symbol: 'USDT', address: USDT_TRC20, decimals: 6, name: 'Tether USD' },
    block_timestamp: o.ts,
    from: 'TKHuVq1oKVruCGLvqVexFs6dawKv6fQgFs',
    to: o.to ?? TRC_ADDR,
    type: 'Transfer',
    value: o.units,
  });
  return id;
}

async function fakeTrongrid(chain: TronChain): Promise<Fake> {
  return startFake((method, url) => {
    if (url.pathname === '/wallet/getnowblock') {
      expect(method).toBe('POST');
      return { blockID: '00', block_header: { raw_data: { number: 60_000_000, timestamp: chain.headTs } } };
    }
    const m = /^\/v1\/accounts\/([^/]+)\/transactions\/trc20$/.exec(url.pathname);
    if (m) {
      const q = url.searchParams;
      expect(q.get('only_to')).toBe('true');
      expect(q.get('only_confirmed')).toBe('true');
      expect(q.get('order_by')).toBe('block_timestamp,asc');
      const min = Number(q.get('min_timestamp') ?? 0);
      const limit = Number(q.get('limit') ?? 20);
      const offset = Number(q.get('fingerprint') ?? 0);
      const list = chain.transfers
        .filter((x) => x.to === decodeURIComponent(m[1]) && x.token_info.address === q.get('contract_address') && x.block_timestamp >= min)
        .sort((a, b) => a.block_timestamp - b.block_timestamp);
      const data = list.slice(offset, offset + limit);
      const more = offset + limit < list.length;
      return { data, success: true, meta: { at: chain.headTs, page_size: data.length, ...(more ? { fingerprint: String(offset + limit), links: { next: 'x' } } : {}) } };
    }
    return undefined;
  });
}

// BSC JSON-RPC

const USDT_BEP20 = '0x55d398326f99059fF775485246999027B3197955';
const BEP_ADDR = '0xb671972287e866dfd9f2e2f626666b010a78a4fe';
const pad = (a: string) => `0x${a.toLowerCase().replace(/^0x/, '').padStart(64, '0')}`;

interface BscChain {
  head: number;
  logs: any[];
}

function bscLog(chain: BscChain, o: { block: number; wei: bigint; tx?: string; logIndex?: number; to?: string }) {
  const tx = o.tx ?? `0x${tonHash().hex}`;
  chain.logs.push({
    address: USDT_BEP20.toLowerCase(),
    topics: [TRANSFER_TOPIC, pad('0x1111111111111111111111111111111111111111'), pad(o.to ?? BEP_ADDR)],
    data: `0x${o.wei.toString(16).padStart(64, '0')}`,
    blockNumber: `0x${o.block.toString(16)}`,
    transactionHash: tx,
    logIndex: `0x${(o.logIndex ?? 0).toString(16)}`,
    removed: false,
  });
  return tx;
}

async function fakeBsc(chain: BscChain): Promise<Fake> {
  return startFake((method, url, body) => {
    const reply = (result: unknown) => ({ jsonrpc: '2.0', id: body.id, result });
    if (body?.method === 'eth_blockNumber') return reply(`0x${chain.head.toString(16)}`);
    if (body?.method === 'eth_getLogs') {
      const f = body.params[0];
      const from = Number(BigInt(f.fromBlock));
      const to = Number(BigInt(f.toBlock));
      expect(to).toBeLessThanOrEqual(chain.head);
      return reply(
        chain.logs.filter(
          (l) =>
            Number(BigInt(l.blockNumber)) >= from &&
            Number(BigInt(l.blockNumber)) <= to &&
            l.address === String(f.address).toLowerCase() &&
            l.topics[0] === f.topics[0] &&
            (f.topics[2] === null || l.topics[2] === f.topics[2]),
        ),
      );
    }
    return { jsonrpc: '2.0', id: body?.id, error: { code: -32601, message: 'method not found' } };
  });
}

const E18 = 10n ** 18n;
const brief = (ts: ObservedTransfer[]) => ts.map((x) => ({ asset: x.asset, amount: x.amount, txHash: x.txHash, comment: x.comment }));

// ---- the watchers on their own

describe('TON watcher (toncenter v3)', () => {
  it('pages through coin and USDT jetton transfers, keeps only real incoming payments, and never repeats', async () => {
    const chain: TonChain = { seqno: 100, utime: T0, txs: [], jettons: [] };
    const fake = await fakeToncenter(chain);
    const w = new TonWatcher({ apiUrl: fake.url, jettonMaster: USDT_JETTON, addresses: [TON_ADDR, USDT_TON_ADDR], confirmations: 1, pageSize: 2 });
    coinTx(chain, TON_ADDR, { now: T0 - 5, comment: 'before the first start' });
    let r = await w.poll(null);
    expect(r.transfers).toEqual([]);

    chain.seqno = 101;
    chain.utime = T0 + 20;
    const a = coinTx(chain, TON_ADDR, { now: T0 + 10, nanoton: '10001000000', comment: 'K7QM4X' });
    coinTx(chain, TON_ADDR, { now: T0 + 11, outgoing: true });
    coinTx(chain, TON_ADDR, { now: T0 + 11, nanoton: '50000000', opcode: '0x7362d09c' }); // jetton notification
    coinTx(chain, TON_ADDR, { now: T0 + 12, bounced: true });
    const b = coinTx(chain, TON_ADDR, { now: T0 + 13, nanoton: '12000000000' });
    const c = coinTx(chain, USDT_TON_ADDR, { now: T0 + 13, nanoton: '1000000000' }); // TON coin to the USDT address
    const j1 = jettonTransfer(chain, USDT_TON_ADDR, { now: T0 + 12, units: '10010000' });
    jettonTransfer(chain, USDT_TON_ADDR, { now: T0 + 12, units: '5000000', aborted: true });
    jettonTransfer(chain, USDT_TON_ADDR, { now: T0 + 12, units: '5000000', master: '0:' + 'ee'.repeat(32) }); // another jetton: not asked for
    const j2 = jettonTransfer(chain, TON_ADDR, { now: T0 + 14, units: '7000000' }); // USDT to the TON address
    r = await w.poll(r.position);
    expect(brief(r.transfers)).toEqual([
      { asset: 'TON', amount: '10.001', txHash: a, comment: 'K7QM4X' },
      { asset: 'TON', amount: '12', txHash: b, comment: null },
      { asset: 'USDT', amount: '7', txHash: j2, comment: null },
      { asset: 'TON', amount: '1', txHash: c, comment: null },
      { asset: 'USDT', amount: '10.01', txHash: j1, comment: null },
    ]);
    expect(r.transfers[0]).toMatchObject({ network: 'ton', from: 'UQsender', to: TON_ADDR, confirmations: 1 });
    expect(r.transfers[4]).toMatchObject({ to: USDT_TON_ADDR });
    // Five coin transactions on the TON address with pages of 2: offsets 0, 2, 4.
    const coinOffsets = fake.requests.filter((x) => x.url.pathname === '/api/v3/transactions' && x.url.searchParams.get('account') === TON_ADDR).slice(-3).map((x) => x.url.searchParams.get('offset'));
    expect(coinOffsets).toEqual(['0', '2', '4']);

    // Polling again re-reads the overlap window but reports nothing twice; a new transfer in the same second is reported.
    r = await w.poll(r.position);
    expect(r.transfers).toEqual([]);
    const d = coinTx(chain, TON_ADDR, { now: T0 + 13, nanoton: '20000000000', comment: 'late' });
    r = await w.poll(r.position);
    expect(brief(r.transfers)).toEqual([{ asset: 'TON', amount: '20', txHash: d, comment: 'late' }]);
  });

  it('waits for the configured masterchain confirmations before reporting, without moving past the transfer', async () => {
    const chain: TonChain = { seqno: 500, utime: T0, txs: [], jettons: [] };
    const fake = await fakeToncenter(chain);
    const w = new TonWatcher({ apiUrl: fake.url, jettonMaster: USDT_JETTON, addresses: [TON_ADDR], confirmations: 3 });
    let r = await w.poll(null);
    chain.seqno = 501;
    const a = coinTx(chain, TON_ADDR, { now: T0 + 5, mc: 501 });
    const j = jettonTransfer(chain, TON_ADDR, { now: T0 + 6, units: '15000000', mc: 501 });
    r = await w.poll(r.position);
    expect(r.transfers).toEqual([]);
    chain.seqno = 502;
    r = await w.poll(r.position);
    expect(r.transfers).toEqual([]);
    chain.seqno = 503;
    chain.utime = T0 + 600; // long after: the held transfers are still read
    r = await w.poll(r.position);
    expect(r.transfers.map((x) => [x.txHash, x.confirmations])).toEqual([
      [a, 3],
      [j, 3],
    ]);
    // The jetton transfer's masterchain block was looked up by hash.
    expect(fake.requests.some((x) => x.url.searchParams.get('hash') !== null)).toBe(true);
  });
});

describe('TRON watcher (TronGrid)', () => {
  it('follows fingerprint pages, numbers several transfers of one transaction, and waits for confirmations', async () => {
    const chain: TronChain = { headTs: TRON_T0, transfers: [] };
    const fake = await fakeTrongrid(chain);
    const w = new TronWatcher({ apiUrl: fake.url, apiKey: 'k', contract: USDT_TRC20, address: TRC_ADDR, confirmations: 19, pageSize: 2 });
    tronTransfer(chain, { ts: TRON_T0 - 60_000, units: '1000000' }); // before the first start
    let r = await w.poll(null);
    expect(r.transfers).toEqual([]);
    expect(fake.requests[0].url.pathname).toBe('/wallet/getnowblock');

    const ids = [1, 2, 3].map((i) => tronTransfer(chain, { ts: TRON_T0 + i * 3000, units: `${i}0010000` }));
    tronTransfer(chain, { ts: TRON_T0 + 9000, units: '5000000', id: ids[2] }); // a second transfer in the third transaction
    const late = tronTransfer(chain, { ts: TRON_T0 + 100_000, units: '99000000' }); // too recent yet
    chain.headTs = TRON_T0 + 100_000 + 30_000; // the first four are deep, the last has 11 blocks
    r = await w.poll(r.position);
    expect(r.transfers.map((x) => [x.txHash, x.amount])).toEqual([
      [ids[0], '10.01'],
      [ids[1], '20.01'],
      [ids[2], '30.01'],
      [`${ids[2]}:2`, '5'],
    ]);
    expect(r.transfers[0]).toMatchObject({ network: 'trc20', asset: 'USDT', to: TRC_ADDR, from: 'TKHuVq1oKVruCGLvqVexFs6dawKv6fQgFs' });
    const fps = fake.requests.filter((x) => x.url.pathname.endsWith('/trc20')).map((x) => x.url.searchParams.get('fingerprint'));
    expect(fps.slice(-3)).toEqual([null, '2', '4']);
    expect(fake.requests.every((x) => x.url.pathname !== '/wallet/getnowblock' || x.method === 'POST')).toBe(true);

    chain.headTs += 30_000;
    r = await w.poll(r.position);
    expect(r.transfers.map((x) => [x.txHash, x.amount, x.confirmations])).toEqual([[late, '99', 21]]);
    r = await w.poll(r.position);
    expect(r.transfers).toEqual([]);
  });
});

describe('BSC watcher (JSON-RPC)', () => {
  it('reads block ranges up to the confirmed head, with 18 decimals, and keys extra transfers of a transaction by log index', async () => {
    const chain: BscChain = { head: 1000, logs: [] };
    const fake = await fakeBsc(chain);
    const w = new BscWatcher({ rpcUrl: fake.url, contract: USDT_BEP20, address: BEP_ADDR, confirmations: 3, range: 10 });
    bscLog(chain, { block: 990, wei: 10n * E18 }); // before the first start
    let r = await w.poll(null);
    expect(r.transfers).toEqual([]);
    expect(JSON.parse(r.position)).toEqual({ block: 998 });

    const t1 = bscLog(chain, { block: 1005, wei: 1001n * E18 / 100n });
    bscLog(chain, { block: 1005, wei: 5n * E18, tx: t1, logIndex: 7 });
    bscLog(chain, { block: 1012, wei: 10n * E18 + 1n }); // one wei above 10: not whole cents
    bscLog(chain, { block: 1012, wei: 10n * E18, to: '0x2222222222222222222222222222222222222222' }); // someone else's
    const t3 = bscLog(chain, { block: 1030, wei: 42n * E18 });
    chain.head = 1031; // block 1030 has 2 confirmations: not yet
    r = await w.poll(r.position);
    expect(r.transfers.map((x) => [x.txHash, x.amount, x.confirmations])).toEqual([
      [t1, '10.01', 27],
      [`${t1}:7`, '5', 27],
      [expect.any(String), '10.000000000000000001', 20],
    ]);
    expect(JSON.parse(r.position)).toEqual({ block: 1029 });
    const ranges = fake.requests.filter((x) => x.body?.method === 'eth_getLogs').map((x) => [Number(BigInt(x.body.params[0].fromBlock)), Number(BigInt(x.body.params[0].toBlock))]);
    expect(ranges).toEqual([
      [999, 1008],
      [1009, 1018],
      [1019, 1028],
      [1029, 1029],
    ]);
    chain.head = 1032;
    r = await w.poll(r.position);
    expect(r.transfers.map((x) => [x.txHash, x.amount, x.confirmations, x.asset, x.from])).toEqual([[t3, '42', 3, 'USDT', '0x1111111111111111111111111111111111111111']]);
  });

  it('an RPC error is an API failure', async () => {
    const fake = await startFake((_m, _u, body) => ({ jsonrpc: '2.0', id: body.id, error: { code: -32005, message: 'limit exceeded' } }));
    const w = new BscWatcher({ rpcUrl: fake.url, contract: USDT_BEP20, address: BEP_ADDR, confirmations: 3, range: 10 });
    await expect(w.poll(null)).rejects.toThrow(/limit exceeded/);
  });
});

// ---- the watchers inside the service

async function service(env: Record<string, string>, dir?: string): Promise<TestService> {
  const s = await startService(env, { dir });
  services.push(s);
  return s;
}

function jobOf(t: TestService) {
  return t.db.$client.prepare('select run_at, attempts, last_error from jobs where kind = ?').get(WATCHER_JOB) as { run_at: number; attempts: number; last_error: string | null };
}

/** A decimal amount in base units of `decimals` places (USDT 6 or 18, TON 9). */
const units = (amount: string, decimals: number) => (BigInt(amount.replace('.', '')) * 10n ** BigInt(decimals - (amount.split('.')[1]?.length ?? 0))).toString();

async function newPartnerWithRequest(t: TestService, currency: string, amount: string) {
  const p = await t.admin('POST', '/partners', { name: 'Chain partner' });
  const r = await t.admin('POST', `/partners/${p.body.partner_id}/topup-requests`, { currency, amount });
  expect(r.status, r.raw).toBe(201);
  return { id: p.body.partner_id as number, request: r.body };
}

describe('watchers as durable jobs of the service', () => {
  it('BSC: credits a request once confirmed; backs off exponentially while the API fails, then catches up', async () => {
    const chain: BscChain = { head: 5000, logs: [] };
    const fake = await fakeBsc(chain);
    const t = await service({ DEPOSIT_ADDRESS_USDT_BEP20: BEP_ADDR, BSC_RPC_URL: fake.url, BSC_CONFIRMATIONS: '3' });
    const credited: TopupCredited[] = [];
    t.deps.bus.on('topup_credited', (e) => credited.push(e));
    // Only the network with an explicit address is watched.
    expect(t.db.$client.prepare('select ref from jobs where kind = ?').all(WATCHER_JOB)).toEqual([{ ref: 'bep20' }]);
    await t.advance(0);
    expect(JSON.parse(t.db.$client.prepare("select position from watcher_positions where network = 'bep20'").pluck().get() as string)).toEqual({ block: 4998 });

    const { id, request } = await newPartnerWithRequest(t, 'USD', '10');
    expect(request.addresses).toContainEqual({ network: 'bep20', address: BEP_ADDR });
    const hash = bscLog(chain, { block: 5001, wei: BigInt(units(request.amount_to_send, 18)) });
    chain.head = 5001;
    await t.advance(30);
    expect((await t.admin('GET', '/deposits')).body.items).toEqual([]);
    chain.head = 5003;
    await t.advance(30);
    const list = (await t.admin('GET', '/deposits')).body.items;
    expect(list).toEqual([expect.objectContaining({ network: 'bep20', asset: 'USDT', amount: request.amount_to_send, tx_hash: hash, status: 'credited', partner_id: id, request_id: request.request_id, confirmations: 3 })]);
    expect((await t.admin('GET', `/partners/${id}`)).body).toMatchObject({ status: 'active', balances: { USD: request.amount_to_send } });
    expect(credited).toEqual([expect.objectContaining({ partnerId: id, currency: 'USD', amount: request.amount_to_send })]);

    // The API fails three times: retries after 60 s, 120 s, 240 s; nothing polls in between.
    const { request: r2 } = await newPartnerWithRequest(t, 'USD', '10');
    const during = bscLog(chain, { block: 5004, wei: BigInt(units(r2.amount_to_send, 18)) });
    chain.head = 5010;
    fake.fail = 3;
    const count = () => fake.requests.length;
    let before = count();
    await t.advance(30);
    expect(count()).toBe(before + 1);
    let job = jobOf(t);
    expect(job.attempts).toBe(1);
    expect(job.last_error).toMatch(/HTTP 500/);
    expect(job.run_at - t.deps.clock.now()).toBe(60_000);
    expect(watcherBackoffMs(30_000, 0)).toBe(60_000);
    for (const [wait, attempts, next] of [
      [60, 2, 120_000],
      [120, 3, 240_000],
    ] as const) {
      before = count();
      await t.advance(wait - 1);
      expect(count()).toBe(before);
      await t.advance(1);
      expect(count()).toBe(before + 1);
      job = jobOf(t);
      expect(job.attempts).toBe(attempts);
      expect(job.run_at - t.deps.clock.now()).toBe(next);
    }
    expect((await t.admin('GET', '/deposits')).body.items).toHaveLength(1);
    await t.advance(240);
    job = jobOf(t);
    expect(job.attempts).toBe(0);
    expect(job.run_at - t.deps.clock.now()).toBe(30_000);
    const items = (await t.admin('GET', '/deposits?status=credited')).body.items;
    expect(items.map((x: any) => x.tx_hash)).toEqual([during, hash]);
    expect((await t.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
  });

  it('TRON: a restart in the middle neither misses nor repeats a transfer', async () => {
    const chain: TronChain = { headTs: TRON_T0, transfers: [] };
    const fake = await fakeTrongrid(chain);
    const env = { DEPOSIT_ADDRESS_USDT_TRC20: TRC_ADDR, TRON_API_URL: fake.url };
    const a = await service(env);
    await a.advance(0);
    const p = await newPartnerWithRequest(a, 'USD', '10');
    const r2 = await a.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'USD', amount: '11' });
    const first = tronTransfer(chain, { ts: TRON_T0 + 3000, units: units(p.request.amount_to_send, 6) });
    chain.headTs = TRON_T0 + 120_000;
    await a.advance(30);
    expect((await a.admin('GET', '/deposits')).body.items.map((x: any) => [x.tx_hash, x.status])).toEqual([[first, 'credited']]);
    const stored = a.db.$client.prepare("select position from watcher_positions where network = 'trc20'").pluck().get() as string;
    expect(JSON.parse(stored)).toMatchObject({ t: TRON_T0 + 3000, floor: TRON_T0 });

    // Stop; a transfer arrives while the service is down; start again on the same database.
    services.splice(services.indexOf(a), 1);
    await stopService(a, false);
    const second = tronTransfer(chain, { ts: TRON_T0 + 6000, units: units(r2.body.amount_to_send, 6) });
    chain.headTs = TRON_T0 + 240_000;
    const seen = fake.requests.length;
    const b = await service(env, a.dir);
    await b.advance(30);
    const after = fake.requests.slice(seen).filter((x) => x.url.pathname.endsWith('/trc20'));
    expect(after.length).toBeGreaterThan(0);
    // It resumed from the stored position (with its overlap), not from the chain head.
    expect(Number(after[0].url.searchParams.get('min_timestamp'))).toBe(TRON_T0);
    const items = (await b.admin('GET', '/deposits')).body.items;
    expect(items.map((x: any) => [x.tx_hash, x.status, x.amount])).toEqual([
      [second, 'credited', r2.body.amount_to_send],
      [first, 'credited', p.request.amount_to_send],
    ]);
    expect(items[0].request_id).toBe(r2.body.request_id);
    const cents = (a: string) => Math.round(Number(a) * 100);
    expect((await b.admin('GET', `/partners/${p.id}`)).body.balances.USD).toBe(((cents(p.request.amount_to_send) + cents(r2.body.amount_to_send)) / 100).toFixed(2));
    expect(b.db.$client.prepare('select count(*) from topups').pluck().get()).toBe(2);
    // Further polls report nothing again.
    await b.advance(90);
    expect((await b.admin('GET', '/deposits')).body.items).toHaveLength(2);
    expect((await b.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
  });

  it('TRON: judged by the block time: made before the expiry but seen after it is credited; made after it waits for support', async () => {
    const START = Date.parse('2026-03-01T12:00:00Z'); // the service clock's start (test/helpers.ts)
    const chain: TronChain = { headTs: START, transfers: [] };
    const fake = await fakeTrongrid(chain);
    // hourly polls: a day of them stays quick
    const t = await service({ DEPOSIT_ADDRESS_USDT_TRC20: TRC_ADDR, TRON_API_URL: fake.url, WATCHER_POLL_SECONDS: '3600' });
    await t.advance(0);
    const p = await newPartnerWithRequest(t, 'USD', '10');
    const other = await t.admin('POST', `/partners/${p.id}/topup-requests`, { currency: 'USD', amount: '12' });
    // the API lags: nothing is listed until after both requests expired
    await t.advance(24 * 3600 + 60);
    const before = tronTransfer(chain, { ts: START + 60_000, units: units(p.request.amount_to_send, 6) });
    const after = tronTransfer(chain, { ts: START + 24 * 3600_000 + 30_000, units: units(other.body.amount_to_send, 6) });
    chain.headTs = START + 24 * 3600_000 + 120_000;
    await t.advance(3600);
    const items = (await t.admin('GET', '/deposits')).body.items;
    expect(items.map((x: any) => [x.tx_hash, x.status, x.reason, x.partner_id])).toEqual([
      [after, 'unmatched', 'expired_request', p.id],
      [before, 'credited', null, p.id],
    ]);
    expect((await t.admin('GET', `/partners/${p.id}`)).body.balances.USD).toBe(p.request.amount_to_send);
    expect((await t.admin('GET', `/partners/${p.id}/topup-requests?status=paid`)).body.items.map((r: any) => r.request_id)).toEqual([p.request.request_id]);
  });

  it('TON: a coin transfer with the request code in its comment is credited to that request', async () => {
    const chain: TonChain = { seqno: 10, utime: Math.floor(Date.parse('2026-03-01T12:00:00Z') / 1000), txs: [], jettons: [] };
    const fake = await fakeToncenter(chain);
    const t = await service({ DEPOSIT_ADDRESS_TON: TON_ADDR, TON_API_URL: fake.url, TON_API_KEY: 'secret-key' });
    await t.advance(0);
    const p1 = await newPartnerWithRequest(t, 'TON', '10');
    const p2 = await newPartnerWithRequest(t, 'TON', '10');
    chain.seqno = 11;
    coinTx(chain, TON_ADDR, { now: chain.utime + 5, nanoton: units(p2.request.amount_to_send, 9), comment: `topup ${p2.request.comment_code}` });
    coinTx(chain, TON_ADDR, { now: chain.utime + 6, nanoton: units(p1.request.amount_to_send, 9) });
    await t.advance(30);
    const items = (await t.admin('GET', '/deposits?status=credited')).body.items;
    expect(items.map((x: any) => [x.partner_id, x.amount, x.request_id])).toEqual([
      [p1.id, p1.request.amount_to_send, p1.request.request_id],
      [p2.id, p2.request.amount_to_send, p2.request.request_id],
    ]);
    // USDT jettons arriving at the same address are watched too (they would go to manual handling), and the API key is sent.
    expect(fake.requests.some((x) => x.url.pathname === '/api/v3/jetton/transfers')).toBe(true);
    expect(fake.requests.every((x) => x.headers['x-api-key'] === 'secret-key')).toBe(true);
  });
});

describe('one chain transaction is credited once, whatever path and spelling credit it', () => {
  const topup = (t: TestService, id: number, body: Record<string, unknown>) => t.admin('POST', `/partners/${id}/topups`, { currency: 'USD', ...body });
  const ledgerOf = (t: TestService, id: number) => t.db.$client.prepare('select kind, amount, topup_id from ledger_entries where partner_id = ? order by entry_id').all(id) as { kind: string; amount: number; topup_id: string }[];

  it('TRC-20: support credits a watched transfer again by its bare hash (upper case, or network left at ton): 200 with the watcher’s top-up, no second credit', async () => {
    const chain: TronChain = { headTs: TRON_T0, transfers: [] };
    const fake = await fakeTrongrid(chain);
    const t = await service({ DEPOSIT_ADDRESS_USDT_TRC20: TRC_ADDR, TRON_API_URL: fake.url });
    await t.advance(0);
    const p = await newPartnerWithRequest(t, 'USD', '10');
    const hash = tronTransfer(chain, { ts: TRON_T0 + 3000, units: units(p.request.amount_to_send, 6) });
    chain.headTs = TRON_T0 + 120_000;
    await t.advance(30);
    const [deposit] = (await t.admin('GET', '/deposits?status=credited')).body.items;
    expect(deposit).toMatchObject({ tx_hash: hash, partner_id: p.id });
    const balance = p.request.amount_to_send;

    for (const spelling of [hash, hash.toUpperCase(), `0x${hash}`]) {
      const again = await topup(t, p.id, { amount: balance, network: 'trc20', tx_hash: spelling });
      expect(again.status, again.raw).toBe(200);
      expect(again.body).toEqual({ topup_id: deposit.topup_id, currency: 'USD', amount: balance, balance, status: 'active' });
    }
    // the network left at its default (ton): the same 32-byte hash, the same transfer
    const noNetwork = await t.admin('POST', `/partners/${p.id}/topups`, { currency: 'USD', amount: balance, tx_hash: hash.toUpperCase() });
    expect(noNetwork.status, noNetwork.raw).toBe(200);
    expect(noNetwork.body.topup_id).toBe(deposit.topup_id);
    // another amount or another partner: 409 tx_already_credited, nothing credited
    const other = await topup(t, p.id, { amount: '500.00', network: 'trc20', tx_hash: hash.toUpperCase() });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'tx_already_credited', topup_id: deposit.topup_id, partner_id: p.id, network: 'trc20', amount: balance });
    const b = (await t.admin('POST', '/partners', { name: 'B' })).body.partner_id as number;
    const toB = await topup(t, b, { amount: balance, network: 'trc20', tx_hash: hash });
    expect(toB.status).toBe(409);
    expect(toB.body.code).toBe('tx_already_credited');

    expect(ledgerOf(t, p.id)).toEqual([{ kind: 'topup', amount: Math.round(Number(balance) * 100), topup_id: deposit.topup_id }]);
    expect(ledgerOf(t, b)).toEqual([]);
    expect((await t.admin('GET', `/partners/${p.id}`)).body.balances.USD).toBe(balance);
    expect((await t.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
  });

  it('BSC: an upper-case hash with 0X credited by support before the watcher sees it in lower case is credited once', async () => {
    const chain: BscChain = { head: 5000, logs: [] };
    const fake = await fakeBsc(chain);
    const t = await service({ DEPOSIT_ADDRESS_USDT_BEP20: BEP_ADDR, BSC_RPC_URL: fake.url, BSC_CONFIRMATIONS: '3' });
    await t.advance(0);
    const p = await newPartnerWithRequest(t, 'USD', '10');
    const hash = `0x${tonHash().hex}`;
    const manual = await topup(t, p.id, { amount: p.request.amount_to_send, network: 'bep20', tx_hash: `0X${hash.slice(2).toUpperCase()}` });
    expect(manual.status, manual.raw).toBe(201);
    bscLog(chain, { block: 5001, wei: BigInt(units(p.request.amount_to_send, 18)), tx: hash });
    chain.head = 5005;
    await t.advance(30);
    const items = (await t.admin('GET', '/deposits')).body.items;
    expect(items).toEqual([expect.objectContaining({ tx_hash: hash, status: 'credited', partner_id: p.id, topup_id: manual.body.topup_id })]);
    expect(ledgerOf(t, p.id)).toHaveLength(1);
    expect((await t.admin('GET', `/partners/${p.id}`)).body.balances.USD).toBe(p.request.amount_to_send);
    expect(t.db.$client.prepare('select network, tx_hash from topups').all()).toEqual([{ network: 'bep20', tx_hash: hash }]);
    expect((await t.admin('GET', '/ledger/check')).body).toEqual({ ok: true, problems: [] });
  });

  it('TON: a hash credited by support in base64 (as an explorer shows it) is the watcher’s hex hash', async () => {
    const chain: TonChain = { seqno: 10, utime: Math.floor(Date.parse('2026-03-01T12:00:00Z') / 1000), txs: [], jettons: [] };
    const fake = await fakeToncenter(chain);
    const t = await service({ DEPOSIT_ADDRESS_TON: TON_ADDR, TON_API_URL: fake.url });
    await t.advance(0);
    const p = await newPartnerWithRequest(t, 'TON', '10');
    chain.seqno = 11;
    const hex = coinTx(chain, TON_ADDR, { now: chain.utime + 5, nanoton: units(p.request.amount_to_send, 9) });
    const b64url = Buffer.from(hex, 'hex').toString('base64url');
    const manual = await topup(t, p.id, { currency: 'TON', amount: p.request.amount_to_send, network: 'ton', tx_hash: b64url });
    expect(manual.status, manual.raw).toBe(201);
    await t.advance(30);
    expect((await t.admin('GET', '/deposits')).body.items).toEqual([expect.objectContaining({ tx_hash: hex, status: 'credited', topup_id: manual.body.topup_id })]);
    expect(ledgerOf(t, p.id)).toHaveLength(1);
    expect((await t.admin('GET', `/partners/${p.id}`)).body.balances.TON).toBe(p.request.amount_to_send);
  });
});
