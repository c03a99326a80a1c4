import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

/**
 * The machine's limit for the benchmark: a bare Fastify route that parses the same order body and runs the
 * minimal durable transaction of an order in better-sqlite3 (WAL): look up the key, insert the order, one
 * ledger row, the balance, one outbox row. Plus a bare GET returning a small JSON object, bare GETs returning
 * the same JSON as the service's order and account answers, and a bare POST that parses the order body and
 * answers a small object (the counterpart of a replayed request).
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-baseline-'));
const db = new Database(path.join(dir, 'base.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`
  create table keys (partner_id integer, key text, order_id text, primary key (partner_id, key));
  create table orders (seq integer primary key, order_id text unique, partner_id integer, amount integer, body text, created_at integer);
  create table ledger (id integer primary key, partner_id integer, amount integer, order_id text, balance_after integer, created_at integer);
  create table accounts (partner_id integer primary key, balance integer check (balance >= 0));
  create table outbox (id integer primary key, order_id text, event text, created_at integer);
  insert into accounts values (1, 100000000000);
`);
const getKey = db.prepare('select order_id from keys where partner_id = ? and key = ?');
const insOrder = db.prepare('insert into orders (order_id, partner_id, amount, body, created_at) values (?, ?, ?, ?, ?)');
const insLedger = db.prepare('insert into ledger (partner_id, amount, order_id, balance_after, created_at) values (?, ?, ?, ?, ?)');
const updBal = db.prepare('update accounts set balance = balance - ? where partner_id = ? returning balance');
const insOutbox = db.prepare('insert into outbox (order_id, event, created_at) values (?, ?, ?)');
const insKey = db.prepare('insert into keys values (?, ?, ?)');
let n = 0;
const order = db.transaction((key: string, body: string) => {
  const seen = getKey.get(1, key) as { order_id: string } | undefined;
  if (seen) return seen.order_id;
  const id = `PA-${++n}`;
  const now = Date.now();
  insOrder.run(id, 1, 158, body, now);
  const { balance } = updBal.get(158, 1) as { balance: number };
  insLedger.run(1, -158, id, balance, now);
  insOutbox.run(id, 'order.created', now);
  insKey.run(1, key, id);
  return id;
});

const app = Fastify({ logger: false });
app.post('/orders', async (req) => {
  const b = req.body as { idempotency_key: string; type: string; params: unknown };
  const id = order.immediate(b.idempotency_key, JSON.stringify(b.params));
  return { order_id: id, status: 'processing' };
});
app.get('/static', async () => ({ status: 'ok', balance: '1000.00', currency: 'USD' }));
// bare Fastify serving the same JSON as the service's GET /orders/{id} and GET /me: the bench puts the
// service's answers here once; each request serialises them as a bare route does
let sameOrder: unknown = {};
let sameMe: unknown = {};
app.put('/same', async (req) => {
  ({ order: sameOrder, me: sameMe } = req.body as { order: unknown; me: unknown });
  return { ok: true };
});
app.get('/same/order', async () => sameOrder);
app.get('/same/me', async () => sameMe);
// the bare counterpart of a replayed order request: parses the same body, answers without the database
app.post('/echo', async (req) => ({ status: 'ok', type: (req.body as { type: string }).type }));
app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' }).then((addr) => {
  process.stdout.write(`READY ${addr}\n`);
});
process.on('SIGTERM', () => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
