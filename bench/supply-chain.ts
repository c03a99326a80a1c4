import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Address } from '@ton/core';
import { paidTxOf, startFakeToncenter } from '../test/fragment/fakes.js';

/**
 * The chain of `npm run bench:supply`, in a process of its own: the project's fake toncenter over
 * @ton/sandbox (the real wallet contracts), making a block every BLOCK_MS of real time and indexing each
 * transaction INDEX_LAG_MS after its block. Its own process because the emulator takes a second or more to
 * execute a block of a few hundred messages: in the benchmark's process that would also stall the fake
 * Fragment, which the real one is not. Funds FUND_ADDRESS with FUND_TON, prints `{"url", "summary"}` as one
 * JSON line; GET `summary` answers every wallet transaction's out-message comments and the blocks made.
 */
const nowSec = () => Math.floor(Date.now() / 1000);
const ton = await startFakeToncenter(nowSec, { blockMs: Number(process.env.BLOCK_MS), indexLagMs: Number(process.env.INDEX_LAG_MS) });
await ton.fund(Address.parse(process.env.FUND_ADDRESS!), process.env.FUND_TON!);
const summary = http.createServer((_req, res) => {
  const txs = [...ton.executed.values()].map(paidTxOf);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ txs, blocks: ton.blocks }));
});
await new Promise<void>((r) => summary.listen(0, '127.0.0.1', r));
process.stdout.write(`${JSON.stringify({ url: ton.url, summary: `http://127.0.0.1:${(summary.address() as AddressInfo).port}/` })}\n`);
process.on('SIGTERM', () => process.exit(0));
