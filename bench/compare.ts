import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib.js';

/**
 * `npm run bench -- --compare`: this run against the saved baseline (`npm run bench -- --save` writes it to
 * bench/baseline.json, committed: the last run measured on the machine alone). Every figure that is more than
 * 10 % worse than the saved one is flagged: a rate or a percentage more than 10 % below it, a p99 or the
 * memory more than 10 % above it. Compare runs of the same machine only.
 */
export const SAVED_BASELINE = path.join(ROOT, 'bench/baseline.json');
export const TOLERANCE = 0.1;

export interface Report {
  at: string;
  summary: Record<string, unknown>;
  results: { name: string; rps: number; p99: number }[];
}

interface Figure {
  name: string;
  value: number;
  /** whether a higher value is better */
  higher: boolean;
}

/** The figures of a report that are compared, by name. */
export function figuresOf(r: Report): Figure[] {
  const s = r.summary as Record<string, any>;
  const out: Figure[] = [];
  const add = (name: string, value: unknown, higher: boolean) => {
    if (typeof value === 'number' && Number.isFinite(value)) out.push({ name, value, higher });
  };
  for (const x of r.results) add(`${x.name}: req/s`, x.rps, true);
  add('create order: % of the durable-write limit', s.create_pct_of_limit, true);
  add('create order: p99 ms', s.create_p99_ms, false);
  add('read one order: % of bare Fastify, same JSON', s.read_pct_of_bare_same_json, true);
  add('GET /me: % of bare Fastify, same JSON', s.me_pct_of_bare_same_json, true);
  add('replay: % of the bare POST', s.replay_pct_of_bare_post, true);
  add('webhooks per second', s.webhooks_per_second, true);
  add('service RSS after the run, MB', s.service_rss_mb, false);
  add('metrics on: create % of metrics off (CPU)', s.metrics_on_rate_by_cpu_pct, true);
  if (s.big) {
    add('1M orders: create rate % of the small database', 100 - s.big.create_slowdown_pct, true);
    add('1M orders: GET /orders % of the small database', s.big.list_vs_small_pct, true);
  }
  return out;
}

/** The figures more than TOLERANCE worse than the saved run's. */
export function regressions(current: Report, saved: Report): { name: string; saved: number; now: number; changePct: number }[] {
  const before = new Map(figuresOf(saved).map((f) => [f.name, f]));
  const out: { name: string; saved: number; now: number; changePct: number }[] = [];
  for (const f of figuresOf(current)) {
    const b = before.get(f.name);
    if (!b || b.value === 0) continue;
    const change = (f.value - b.value) / b.value;
    if (f.higher ? change < -TOLERANCE : change > TOLERANCE) out.push({ name: f.name, saved: b.value, now: f.value, changePct: change * 100 });
  }
  return out;
}

/** The comparison's text, and whether a figure was flagged. */
export function compareWithSaved(current: Report, file = SAVED_BASELINE): { text: string; flagged: boolean } {
  if (!fs.existsSync(file)) return { text: `--compare: no saved baseline (${path.relative(ROOT, file)}); save one with npm run bench -- --save`, flagged: false };
  const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Report;
  const bad = regressions(current, saved);
  const head = `against the saved run of ${saved.at} (${path.relative(ROOT, file)}), flagging figures more than ${TOLERANCE * 100} % worse:`;
  if (!bad.length) return { text: `${head} none`, flagged: false };
  const text = [head, ...bad.map((b) => `  WORSE  ${b.name}: ${fmt(b.now)} against ${fmt(b.saved)} (${b.changePct > 0 ? '+' : ''}${b.changePct.toFixed(1)} %)`)].join('\n');
  return { text, flagged: true };
}

const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(1));
