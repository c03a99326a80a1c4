import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareWithSaved, regressions, type Report } from '../../bench/compare.js';

const report = (over: { create?: number; rss?: number; p99?: number; hooks?: number; readRps?: number } = {}): Report => ({
  at: '2026-11-26T19:00:00.000Z',
  summary: { create_pct_of_limit: over.create ?? 80, create_p99_ms: over.p99 ?? 12, webhooks_per_second: over.hooks ?? 1600, service_rss_mb: over.rss ?? 140, read_pct_of_bare_same_json: 101 },
  results: [{ name: 'service: read one order', rps: over.readRps ?? 20000, p99: 3 }],
});

describe('npm run bench -- --compare', () => {
  it('flags a rate or percentage more than 10 % below the saved run, and a p99 or memory more than 10 % above it', () => {
    expect(regressions(report(), report())).toEqual([]);
    // 10 % exactly is within the tolerance
    expect(regressions(report({ create: 72, readRps: 18000, rss: 154, p99: 13.2 }), report())).toEqual([]);
    const bad = regressions(report({ create: 71.9, readRps: 17000, hooks: 2000, rss: 155, p99: 14 }), report());
    expect(bad.map((b) => b.name)).toEqual(['service: read one order: req/s', 'create order: % of the durable-write limit', 'create order: p99 ms', 'service RSS after the run, MB']);
    expect(bad[0]).toEqual({ name: 'service: read one order: req/s', saved: 20000, now: 17000, changePct: -15 });
  });

  it('reads the saved baseline file and says when there is none', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-compare-'));
    const file = path.join(dir, 'baseline.json');
    expect(compareWithSaved(report(), file)).toEqual({ text: expect.stringContaining('no saved baseline'), flagged: false });
    fs.writeFileSync(file, JSON.stringify(report()));
    expect(compareWithSaved(report(), file)).toEqual({ text: expect.stringMatching(/flagging figures more than 10 % worse: none$/), flagged: false });
    const worse = compareWithSaved(report({ hooks: 1000 }), file);
    expect(worse.flagged).toBe(true);
    expect(worse.text).toContain('WORSE  webhooks per second: 1000 against 1600 (-37.5 %)');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
