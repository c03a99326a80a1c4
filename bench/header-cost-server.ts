import crypto from 'node:crypto';
import Fastify from 'fastify';

/** bench/header-cost.ts's server: bare Fastify serving one order's JSON, plain or with the partner API's four answer headers. */
const order = {
  order_id: 'PA-100001', type: 'stars', status: 'processing', partner_price: '1.58', currency: 'USD', retail: null, quantity: 100, recipient: '@bench_user',
  label: '100 звёзд Telegram для @bench_user', created_at: '2026-03-01T12:00:00.000000', completed_at: null, refunded: false, client_reference: null,
};
const app = Fastify({ logger: false });
app.get('/plain', async () => order);
app.get('/headers', async (_req, reply) => {
  reply.header('x-request-id', crypto.randomUUID()).header('ratelimit-limit', '10000000').header('ratelimit-remaining', '9999999').header('ratelimit-reset', '1');
  return order;
});
void app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.on('SIGTERM', () => process.exit(0));
