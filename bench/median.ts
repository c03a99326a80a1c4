import fs from 'node:fs';
import { median } from './lib.js';
import type { Report } from './compare.js';

/**
 * `npx tsx bench/median.ts run1.json run2.json … [--out file]`: the median of several `npm run bench` reports
 * (bench/results/latest.json of each run), figure by figure, in the same shape: print it, or write it as the
 * saved baseline (`--out bench/baseline.json`) that `npm run bench -- --compare` reads. Figures a run lacks
 * (the 1,000,000-order ones of a run without --big) are the median of the runs that have them.
 */
function medianOf(values: unknown[]): unknown {
  const present = values.filter((v) => v !== undefined && v !== null);
  if (!present.length) return null;
  if (present.every((v) => typeof v === 'number')) return median(present as number[]);
  if (present.every((v) => typeof v === 'object' && !Array.isArray(v))) {
    const keys = [...new Set(present.flatMap((v) => Object.keys(v as object)))];
    return Object.fromEntries(keys.map((k) => [k, medianOf(present.map((v) => (v as Record<string, unknown>)[k]))]));
  }
  return present[present.length - 1];
}

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? args.splice(outAt, 2)[1] : null;
const runs = args.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as Report);
const names = [...new Set(runs.flatMap((r) => r.results.map((x) => x.name)))];
const report = {
  at: runs[runs.length - 1].at,
  runs: runs.map((r) => r.at),
  summary: medianOf(runs.map((r) => r.summary)) as Record<string, unknown>,
  results: names.map((name) => medianOf(runs.map((r) => r.results.find((x) => x.name === name)))) as Report['results'],
};
const text = `${JSON.stringify(report, null, 2)}\n`;
if (out) fs.writeFileSync(out, text);
else process.stdout.write(text);
