import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, envSchema, loadConfig } from '../../src/config/env.js';
import { FRAGMENT_VARIABLES } from '../../src/config/fragment.js';

/** .env.example lists every variable the service reads, each with its default and a line saying what it means. */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const lines = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8').split('\n');
const VAR = /^#?([A-Z][A-Z0-9_]*)=(.*)$/;
const entries = lines.flatMap((l, i) => {
  const m = VAR.exec(l);
  return m ? [{ name: m[1], value: m[2], meaning: lines[i - 1] ?? '' }] : [];
});

describe('.env.example', () => {
  it('names every variable of the configuration, once, and no other', () => {
    const names = entries.map((e) => e.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i), 'listed twice').toEqual([]);
    const known = [...CONFIG_VARIABLES, ...FRAGMENT_VARIABLES];
    expect(known.filter((n) => !names.includes(n)).sort(), 'missing from .env.example').toEqual([]);
    expect(names.filter((n) => !known.includes(n)).sort(), 'not read by the service').toEqual([]);
  });

  it('gives each one a line of meaning above it', () => {
    for (const e of entries) {
      expect(e.meaning, e.name).toMatch(/^# \S/);
      expect(VAR.test(e.meaning), `${e.name}: its meaning line is another variable`).toBe(false);
    }
  });

  it('is the production template: it sets only NODE_ENV=production and an empty UPSTREAM, and shows each other default as a production start applies it', () => {
    const active = entries.filter((e) => lines.includes(`${e.name}=${e.value}`));
    expect(active.map((e) => `${e.name}=${e.value}`), 'uncommented: copying the file changes these settings').toEqual(['NODE_ENV=production', 'UPSTREAM=']);
    const base = { NODE_ENV: 'production', UPSTREAM: 'sandbox' };
    const defaults = loadConfig(base) as Record<string, unknown>;
    for (const e of entries.filter((x) => x.name in envSchema.shape && x.name !== 'UPSTREAM')) {
      const parsed = loadConfig({ ...base, [e.name]: e.value }) as Record<string, unknown>;
      expect([e.name, parsed[e.name]]).toEqual([e.name, defaults[e.name]]);
    }
    // copied unedited it starts nothing: UPSTREAM is required in production (and no demo partner is ever made)
    expect(() => loadConfig({ NODE_ENV: 'production', UPSTREAM: '' })).toThrow(/UPSTREAM: must be set with NODE_ENV=production/);
    expect(defaults.SANDBOX_DEMO).toBe(false);
  });
});
