import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Imports only point down (docs/architecture.md "Layers"):
 *   domain ← kernel (clock, ids, log, event bus) ← config ← store ← suppliers ← app ← http, http-out, workers, ops, bot ← service, main
 * Checked on every relative import of src/ and bot/ (type-only and dynamic ones included), from the source text.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

/** What each layer may import besides itself. `suppliers/types` is the suppliers' port: the only supplier file app may use. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  domain: [],
  kernel: ['domain'],
  config: ['domain', 'kernel'],
  store: ['domain', 'kernel', 'config'],
  'suppliers/types': ['domain', 'kernel', 'config', 'store'],
  suppliers: ['domain', 'kernel', 'config', 'store', 'suppliers/types'],
  app: ['domain', 'kernel', 'config', 'store', 'suppliers/types'],
  // the adapter of a port declared in app (app/webhooks/transport.ts)
  'http-out': ['domain', 'kernel', 'config', 'app'],
  // the scheduler and the job table: use cases only, never the store
  workers: ['domain', 'kernel', 'config', 'app', 'suppliers', 'suppliers/types'],
};

/** The layer of a file, by its path from the project root; null for the top (service, main, ops, http, bot). */
export function layerOf(file: string): string | null {
  const rel = file.split(path.sep).join('/');
  if (rel === 'src/suppliers/types.ts') return 'suppliers/types';
  const m = /^src\/([^/]+)\//.exec(rel);
  return m ? m[1] : null;
}

/** The violations among `imports` (file → the files it imports, paths from the root). */
export function violations(imports: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [file, targets] of imports) {
    const from = layerOf(file);
    if (from === null || !(from in MAY_IMPORT)) continue;
    for (const target of targets) {
      const to = layerOf(target);
      if (to === from) continue;
      if (to === null || !MAY_IMPORT[from].includes(to)) out.push(`${file} → ${target}`);
    }
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

function importsOf(files: string[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(path.join(ROOT, file), 'utf8'), true, true);
    const targets = info.importedFiles
      .map((f) => f.fileName)
      .filter((s) => s.startsWith('.'))
      .map((s) => path.normalize(path.join(path.dirname(file), s)).replace(/\.js$/, '.ts'));
    map.set(file, targets);
  }
  return map;
}

/** The identifiers of a source text (comments and strings are not identifiers). */
export function identifiersOf(text: string): Set<string> {
  const out = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) out.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true));
  return out;
}

/**
 * The sandbox stays out of the core: the use cases name nothing of it (their dependencies have no sandbox
 * member; simulated faults reach them as decorators around the suppliers), and only the composition root
 * (src/service.ts) and the simulator's own folder know its concrete classes; the HTTP shell reaches it
 * through the narrow SandboxControl interface (src/http/admin/sandbox-routes.ts).
 */
const SANDBOX_CLASSES = ['SandboxUpstream', 'SandboxGiftMarket'];
export function sandboxLeaks(files: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of files) {
    const ids = identifiersOf(text);
    if (file.startsWith('src/app/')) {
      for (const id of ids) if (/sandbox/i.test(id)) out.push(`${file}: ${id}`);
    }
    if (file !== 'src/service.ts' && !file.startsWith('src/suppliers/sandbox/')) {
      for (const c of SANDBOX_CLASSES) if (ids.has(c)) out.push(`${file}: ${c}`);
    }
  }
  return out;
}

describe('layers', () => {
  const imports = importsOf([...sourceFiles('src'), ...sourceFiles('bot')]);

  it('every import of src/ points down (domain only domain; config, store, suppliers nothing above them; app no http, workers, ops, bot or concrete supplier; workers no store)', () => {
    expect(imports.size).toBeGreaterThan(100);
    expect(violations(imports)).toEqual([]);
  });

  it('the check sees an import that points up, a type-only one included', () => {
    const bad = new Map([
      ['src/domain/money.ts', ['src/store/db.ts']],
      ['src/store/snapshot.ts', ['src/app/ledger.ts']],
      ['src/app/orders/create.ts', ['src/suppliers/sandbox/sandbox-upstream.ts', 'src/suppliers/types.ts', 'src/http/app.ts']],
      ['src/workers/jobs.ts', ['src/store/jobs-repo.ts', 'src/app/orders/process.ts']],
      ['src/config/env.ts', ['src/suppliers/fragment/config.ts']],
    ]);
    expect(violations(bad)).toEqual([
      'src/domain/money.ts → src/store/db.ts',
      'src/store/snapshot.ts → src/app/ledger.ts',
      'src/app/orders/create.ts → src/suppliers/sandbox/sandbox-upstream.ts',
      'src/app/orders/create.ts → src/http/app.ts',
      'src/workers/jobs.ts → src/store/jobs-repo.ts',
      'src/config/env.ts → src/suppliers/fragment/config.ts',
    ]);
    const typeOnly = importsOf(['src/kernel/event-bus.ts']).get('src/kernel/event-bus.ts');
    expect(typeOnly).toContain('src/kernel/ops-events.ts');
  });

  it('the sandbox stays out of the core: no use case names it, only the composition root knows its classes', () => {
    const texts = new Map([...imports.keys()].map((f) => [f, fs.readFileSync(path.join(ROOT, f), 'utf8')]));
    expect(texts.get('src/app/deps.ts')).toContain('export interface Deps');
    expect(identifiersOf(texts.get('src/service.ts')!)).toContain('SandboxUpstream');
    expect(sandboxLeaks(texts)).toEqual([]);
    // the HTTP app gets the simulator as SandboxControl, the sandbox routes import only its types and outcome names
    expect(importsOf(['src/http/app.ts']).get('src/http/app.ts')!.filter((t) => t.startsWith('src/suppliers/sandbox/'))).toEqual([]);
    expect(identifiersOf(texts.get('src/http/app.ts')!)).toContain('SandboxControl');
  });

  it('the sandbox check sees a sandbox member of a use case\'s dependencies and the concrete class in the HTTP app', () => {
    const bad = new Map([
      ['src/app/deps.ts', 'export interface Deps { db: Db; sandbox?: { faults: unknown } }'],
      ['src/app/orders/create.ts', "// the sandbox said so\nconst s = 'sandbox';\nif (deps.sandboxFaults.ledger) fail('x');"],
      ['src/http/app.ts', "import { SandboxUpstream } from '../suppliers/sandbox/sandbox-upstream.js';\nexport type H = { s: SandboxUpstream };"],
      ['src/service.ts', 'const s = new SandboxUpstream(db, clock);'],
      ['src/suppliers/sandbox/faults.ts', 'export function f(s: SandboxGiftMarket) {}'],
    ]);
    expect(sandboxLeaks(bad)).toEqual(['src/app/deps.ts: sandbox', 'src/app/orders/create.ts: sandboxFaults', 'src/http/app.ts: SandboxUpstream']);
  });
});
