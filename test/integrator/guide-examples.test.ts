import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../../src/domain/errors.js';
import { buildOpenApiDocument } from '../../src/http/openapi/document.js';
import { differences, GUIDE, parseGuide, runExample, runSetup, world } from './guide-replay.js';

/**
 * The integrator guide (docs/partner-api.md) against the running service: every example's request replayed
 * on a fresh local sandbox with the demo partner answers what the guide shows (test/integrator/guide-replay.ts
 * says how they are compared); every endpoint has a successful example and an error example; the table of
 * error codes by endpoint and format is the OpenAPI document's; and the first thing the guide has the reader
 * run lets a webhook receiver on this machine in.
 */
const text = fs.readFileSync(GUIDE, 'utf8');
const steps = parseGuide(text);
const examples = steps.filter((s) => s.kind === 'example');
const doc = buildOpenApiDocument('http://127.0.0.1:8080/api/partner/v1') as any;

/** The document's path template of a request URL. */
function operationOf(method: string, url: string): string | undefined {
  const bare = url.split('?')[0].replace(/^\/api\/partner\/v1/, '');
  const literal = Object.keys(doc.paths).filter((p) => !p.includes('{'));
  const paths = [...literal, ...Object.keys(doc.paths).filter((p) => p.includes('{'))];
  const p = paths.find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare));
  return p && doc.paths[p][method.toLowerCase()] ? `${method} ${p}` : undefined;
}

describe('the integrator guide', () => {
  it('every example answers as the guide shows, replayed in order on a fresh sandbox', async () => {
    expect(examples.length).toBeGreaterThan(40);
    const w = await world();
    const problems: string[] = [];
    try {
      for (const s of steps) {
        if (s.kind === 'setup') {
          await runSetup(w, s);
          continue;
        }
        if (!s.answer) {
          problems.push(`line ${s.line}: ${s.request.method} ${s.request.url} has no answer block`);
          continue;
        }
        const got = await runExample(w, s);
        for (const d of differences(w, s.answer, got)) problems.push(`line ${s.line}: ${s.request.method} ${s.request.url}: ${d}`);
      }
    } finally {
      await w.close();
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('every endpoint has an example that succeeds and one that fails', () => {
    const seen = new Map<string, Set<'ok' | 'error'>>();
    for (const e of examples) {
      const op = operationOf(e.request.method, e.request.url);
      if (!op || !e.answer) continue;
      if (!seen.has(op)) seen.set(op, new Set());
      seen.get(op)!.add(e.answer.status < 300 ? 'ok' : 'error');
    }
    const all = Object.entries(doc.paths).flatMap(([p, item]: [string, any]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    const missing = all.flatMap((op) => (['ok', 'error'] as const).filter((k) => !seen.get(op)?.has(k)).map((k) => `${op}: no ${k === 'ok' ? 'successful' : 'error'} example`));
    // GET /products has no error of its own beyond those every endpoint shares (its 401 example is GET /me's)
    expect(missing.filter((m) => m !== 'GET /products: no error example')).toEqual([]);
  });

  it("the table of error codes by endpoint and format is the OpenAPI document's", () => {
    const start = text.indexOf('<!-- the error table');
    const rows = text.slice(start).split('\n').slice(3).filter((l, i, a) => a.slice(0, i + 1).every((x) => x.startsWith('|')));
    const codes = (cell: string) => [...cell.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).sort();
    const table = new Map(rows.map((r) => {
      const [, name, flat, nested] = r.split('|').map((c) => c.trim());
      return [name, { flat: codes(flat), nested: codes(nested) }];
    }));
    const ops: { op: string; method: string; codes: Set<ErrorCode> }[] = [];
    for (const [p, item] of Object.entries<any>(doc.paths))
      for (const [m, op] of Object.entries<any>(item)) {
        const cs = new Set<ErrorCode>();
        for (const r of Object.values<any>(op.responses)) for (const c of Object.keys(r.content?.['application/json']?.examples ?? {})) cs.add(c as ErrorCode);
        ops.push({ op: `${m.toUpperCase()} ${p}`, method: m, codes: cs });
      }
    const every = [...ops[0].codes].filter((c) => ops.every((o) => o.codes.has(c)));
    const posts = ops.filter((o) => o.method === 'post');
    const everyPost = [...posts[0].codes].filter((c) => !every.includes(c) && posts.every((o) => o.codes.has(c)));
    const split = (cs: ErrorCode[]) => ({ flat: cs.filter((c) => ERRORS[c].format === 'flat').sort(), nested: cs.filter((c) => ERRORS[c].format === 'nested').sort() });
    expect(table.get('every endpoint')).toEqual(split(every));
    expect(table.get('every POST')).toEqual(split(everyPost));
    for (const o of ops) {
      const own = [...o.codes].filter((c) => !every.includes(c) && !(o.method === 'post' && everyPost.includes(c)));
      const row = [...table.entries()].find(([name]) => name.split(', ').map((n) => n.replace(/`/g, '')).includes(o.op));
      expect(row, `${o.op} has a row`).toBeDefined();
      expect(row![1], o.op).toEqual(split(own));
    }
  });

  it('has the reader start the sandbox with local webhook receivers let in, before anything else', () => {
    const firstShell = /```sh\n([\s\S]*?)```/.exec(text)![1];
    expect(firstShell).toContain('WEBHOOK_ALLOW_SUBNETS=127.0.0.0/8,::1/128 npm start');
    expect(text.indexOf('WEBHOOK_ALLOW_SUBNETS=127.0.0.0/8,::1/128')).toBeLessThan(text.indexOf('## The sandbox clock'));
  });
});
