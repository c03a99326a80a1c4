import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { median } from './lib.js';

/**
 * Reports on the 1M-order database (npm run bench -- --big): GET /stats over a year (target: under 200 ms),
 * timed one request at a time as a dashboard would ask; and the CSV exports of all those orders and ledger
 * entries (target: the service's memory grows by at most 50 MB).
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

export interface ExportMemory {
  path: string;
  rows: number;
  seconds: number;
  rss_before_mb: number;
  rss_peak_mb: number;
  rss_after_mb: number;
  /** Peak less before: what the export added to the service's memory (target ≤ 50 MB). */
  growth_mb: number;
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

/**
 * A CSV export of the whole 1M-order partner, read as fast as the client can, with the
 * service's resident memory before, after and at its peak: the kernel's high-water mark (VmHWM, reset
 * through /proc/<pid>/clear_refs just before, where allowed) and a sample every 20 ms, whichever is higher.
 */
export async function exportMemory(base: string, auth: Record<string, string>, pid: number, path: string): Promise<ExportMemory> {
  await new Promise((r) => setTimeout(r, 500));
  const before = statusKb(pid, 'VmRSS');
  let hwmReset = true;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    hwmReset = false; // not allowed here: the samples alone give the peak
  }
  let sampled = before;
  const sampler = setInterval(() => (sampled = Math.max(sampled, statusKb(pid, 'VmRSS'))), 20);
  const t0 = performance.now();
  const r = await fetch(`${base}${path}`, { headers: auth });
  if (r.status !== 200 || !r.body) throw new Error(`GET ${path}: ${r.status}`);
  let lines = 0;
  for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) for (const b of chunk) if (b === 10) lines++;
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const peak = Math.max(sampled, hwmReset ? statusKb(pid, 'VmHWM') : 0);
  const after = statusKb(pid, 'VmRSS');
  return { path, rows: lines - 1, seconds, rss_before_mb: before / 1024, rss_peak_mb: peak / 1024, rss_after_mb: after / 1024, growth_mb: (peak - before) / 1024 };
}
