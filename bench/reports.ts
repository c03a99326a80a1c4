import { performance } from 'node:perf_hooks';
import { median } from './lib.js';

/**
 * Reports on the 1M-order database (npm run bench -- --big): GET /stats over a year (issue 15 point 5,
 * target: under 200 ms), timed one request at a time as a dashboard would ask.
 */
export interface StatsTiming {
  query: string;
  p50_ms: number;
  max_ms: number;
}

export async function statsLatency(base: string, auth: Record<string, string>, rounds = 20): Promise<StatsTiming[]> {
  // a year up to a minute from now, bounds off the hour: the edges are partial hours counted from the orders
  const to = Math.floor(Date.now() / 1000) + 60 * 60 + 17;
  const from = to - 365 * 86_400;
  const queries = [`/api/partner/v1/stats?from=${from}&to=${to}`, `/api/partner/v1/stats?from=${from}&to=${to}&group_by=day`, '/api/partner/v1/stats'];
  const out: StatsTiming[] = [];
  for (const q of queries) {
    const times: number[] = [];
    for (let i = 0; i < rounds + 2; i++) {
      const t0 = performance.now();
      const r = await fetch(`${base}${q}`, { headers: auth });
      const body = (await r.json()) as { totals?: { count: number }[] };
      if (r.status !== 200) throw new Error(`GET ${q}: ${r.status} ${JSON.stringify(body)}`);
      if (i >= 2) times.push(performance.now() - t0); // the first two warm the statement cache
    }
    out.push({ query: q.replace('/api/partner/v1', ''), p50_ms: median(times), max_ms: Math.max(...times) });
  }
  return out;
}
