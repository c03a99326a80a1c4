import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { EventBus } from '../src/kernel/event-bus.js';
import type { ServiceClock } from '../src/kernel/clock.js';
import { createMetrics } from '../src/ops/metrics.js';
import type { Db } from '../src/store/db.js';

/**
 * What metrics add to one created order, measured in isolation (npx tsx bench/metrics-cost.ts): the request
 * histogram, the order counters and the time-to-final histogram, as the service runs them, against the same
 * loop with metrics off (the `ops` events are raised either way). Free of the noise of a shared machine's
 * throughput, unlike the rates of npm run bench.
 */
const raw = new Database(':memory:');
raw.exec('create table jobs(kind, run_at); create table webhook_deliveries(status); create table deposits(status); create table accounts(currency, balance);');
const N = 1_000_000;

function perOrder(bus: EventBus, observe: (route: string, method: string, status: number, s: number) => void): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    observe('/api/partner/v1/orders', 'POST', 200, 0.004);
    bus.emit('ops', { kind: 'order_created', orderId: 'PA-1', partnerId: 1, type: 'stars', status: 'processing' });
    bus.emit('ops', { kind: 'order_state', orderId: 'PA-1', partnerId: 1, type: 'stars', from: 'processing', to: 'completed', final: true, refunded: false, reason: null, createdAt: 0, at: 3000 });
  }
  return Number(process.hrtime.bigint() - t0) / N / 1000;
}

const offBus = new EventBus();
const onBus = new EventBus();
const m = createMetrics({ db: drizzle(raw) as unknown as Db, bus: onBus, clock: { now: () => 0 } as unknown as ServiceClock, storageAvailable: () => true });
for (let round = 0; round < 5; round++) {
  const off = perOrder(offBus, () => {});
  const on = perOrder(onBus, m.observeRequest);
  console.log(`per created order: ${off.toFixed(3)} µs with metrics off, ${on.toFixed(3)} µs on: metrics add ${(on - off).toFixed(3)} µs`);
}
const t1 = process.hrtime.bigint();
await m.registry.metrics();
console.log(`one scrape: ${(Number(process.hrtime.bigint() - t1) / 1e6).toFixed(2)} ms`);
