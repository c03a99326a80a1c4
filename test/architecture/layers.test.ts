import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Imports only point down (docs/architecture.md "Layers"):
 *   domain ← kernel (clock, ids, log, event bus) ← config ← store ← suppliers ← app ← http, http-out, workers, ops, bot ← service ← main
 * Checked on every relative import of src/ and bot/ (type-only and dynamic ones included), from the source text.
 * The doors (http, bot) reach neither the store nor a concrete supplier: they ask the application (its use
 * cases and ports: the supplier accounts, the sandbox's controls, the bot's webhook door).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

/** What each layer may import besides itself. `suppliers/types` is the suppliers' port: the only supplier file app may use. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  domain: [],
  // the words the bot and the Mini App both show (the Mini App bundles the file: it imports nothing)
  presentation: [],
  kernel: ['domain'],
  config: ['domain', 'kernel'],
  store: ['domain', 'kernel', 'config'],
  'suppliers/types': ['domain', 'kernel', 'config', 'store'],
  suppliers: ['domain', 'kernel', 'config', 'store', 'suppliers/types'],
  app: ['domain', 'kernel', 'config', 'store', 'suppliers/types'],
  // the adapter of a port declared in app (app/webhooks/transport.ts)
  'http-out': ['domain', 'kernel', 'config', 'app'],
  // the scheduler and the job table: use cases only, never the store or a supplier's client (the composition root builds them)
  workers: ['domain', 'kernel', 'config', 'app', 'suppliers/types'],
  // the doors: use cases and the application's ports, never the store or a supplier
  http: ['domain', 'kernel', 'config', 'app'],
  bot: ['domain', 'kernel', 'config', 'app', 'presentation'],
  // operations: backups, restore, metrics and readiness read the store; its routes and hooks sit on the HTTP app
  ops: ['domain', 'kernel', 'config', 'store', 'suppliers/types', 'app', 'http'],
  // the composition root builds everything but the bot (src/main.ts starts it)
  service: ['domain', 'kernel', 'config', 'store', 'suppliers', 'suppliers/types', 'app', 'http', 'http-out', 'workers', 'ops'],
  main: ['domain', 'kernel', 'config', 'app', 'ops', 'service', 'bot'],
};

/** The layer of a file, by its path from the project root; null for a file of no layer (tests, scripts). */
export function layerOf(file: string): string | null {
  const rel = file.split(path.sep).join('/');
  if (rel === 'src/suppliers/types.ts') return 'suppliers/types';
  if (rel === 'src/service.ts') return 'service';
  if (rel === 'src/main.ts') return 'main';
  if (rel.startsWith('bot/')) return 'bot';
  const m = /^src\/([^/]+)\//.exec(rel);
  return m ? m[1] : null;
}

/** Files outside src/store that import drizzle (the SQL of the service lives in the store's repositories). */
export function drizzleOutsideStore(imports: Map<string, string[]>): string[] {
  return [...imports].filter(([file, targets]) => !file.split(path.sep).join('/').startsWith('src/store/') && targets.some((t) => t === 'drizzle-orm' || t.startsWith('drizzle-orm/'))).map(([f]) => f);
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

/** Each file's relative imports as paths from the root (`packages`: its package imports too, by name). */
function importsOf(files: string[], packages = false): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(path.join(ROOT, file), 'utf8'), true, true);
    const names = info.importedFiles.map((f) => f.fileName);
    const targets = names.filter((s) => s.startsWith('.')).map((s) => path.normalize(path.join(path.dirname(file), s)).replace(/\.js$/, '.ts'));
    map.set(file, packages ? [...targets, ...names.filter((s) => !s.startsWith('.'))] : targets);
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
 * through the application's narrow port, SandboxControl (src/app/sandbox-control.ts), the one file of
 * src/app that names it and that no other file of src/app imports.
 */
const SANDBOX_CLASSES = ['SandboxUpstream', 'SandboxGiftMarket'];
const SANDBOX_PORT = 'src/app/sandbox-control.ts';
export function sandboxLeaks(files: Map<string, string>, imports: Map<string, string[]> = new Map()): string[] {
  const out: string[] = [];
  for (const [file, text] of files) {
    const ids = identifiersOf(text);
    if (file.startsWith('src/app/') && file !== SANDBOX_PORT) {
      for (const id of ids) if (/sandbox/i.test(id)) out.push(`${file}: ${id}`);
      if (imports.get(file)?.includes(SANDBOX_PORT)) out.push(`${file} → ${SANDBOX_PORT}`);
    }
    if (file !== 'src/service.ts' && !file.startsWith('src/suppliers/sandbox/')) {
      for (const c of SANDBOX_CLASSES) if (ids.has(c)) out.push(`${file}: ${c}`);
    }
  }
  return out;
}

/**
 * Suppliers behind their port, both ways: a supplier's own records and settings (its repository in the store,
 * its configuration file) are used by its own folder, the configuration and the composition root only, so no use case knows a
 * particular supplier; and an adapter reads nothing of the application's records (the purchase record, the
 * orders, the ledger): the application passes what it needs. The store files any adapter may use are the
 * handle, the key-value table and prepared statements.
 */
const SUPPLIER_OWN: Record<string, string> = {
  'src/store/fragment-payments-repo.ts': 'src/suppliers/fragment/',
  'src/config/fragment.ts': 'src/suppliers/fragment/',
  'src/store/sandbox-repo.ts': 'src/suppliers/sandbox/',
};
const STORE_FOR_SUPPLIERS = ['src/store/db.ts', 'src/store/kv-repo.ts', 'src/store/prepared.ts'];
export function supplierRecordLeaks(imports: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [file, targets] of imports) {
    for (const t of targets) {
      const owner = SUPPLIER_OWN[t];
      if (owner !== undefined ? !file.startsWith(owner) && !file.startsWith('src/config/') && file !== 'src/service.ts' : file.startsWith('src/suppliers/') && t.startsWith('src/store/') && !STORE_FOR_SUPPLIERS.includes(t))
        out.push(`${file} → ${t}`);
    }
  }
  return out;
}

describe('layers', () => {
  const imports = importsOf([...sourceFiles('src'), ...sourceFiles('bot')]);

  it('every import of src/ and bot/ points down (domain only domain; config, store, suppliers nothing above them; app no http, workers, ops, bot or concrete supplier; workers no store or supplier client; http and the bot no store, supplier, worker or each other; service.ts no bot)', () => {
    expect(imports.size).toBeGreaterThan(100);
    expect(violations(imports)).toEqual([]);
  });

  it('SQL only in the store: no file of src/ or bot/ outside src/store imports drizzle', () => {
    const withPackages = importsOf([...imports.keys()], true);
    expect(withPackages.get('src/store/db.ts')).toContain('drizzle-orm/better-sqlite3');
    expect(drizzleOutsideStore(withPackages)).toEqual([]);
    expect(drizzleOutsideStore(new Map([['src/suppliers/sandbox/x.ts', ['drizzle-orm']], ['bot/y.ts', ['drizzle-orm/sqlite-core']], ['src/store/z.ts', ['drizzle-orm']]]))).toEqual(['src/suppliers/sandbox/x.ts', 'bot/y.ts']);
  });

  it('the check sees an import that points up, a type-only one included', () => {
    const bad = new Map([
      ['src/domain/money.ts', ['src/store/db.ts']],
      ['src/store/snapshot.ts', ['src/app/ledger.ts']],
      ['src/app/orders/create.ts', ['src/suppliers/sandbox/sandbox-upstream.ts', 'src/suppliers/types.ts', 'src/http/app.ts']],
      ['src/workers/jobs.ts', ['src/store/jobs-repo.ts', 'src/app/orders/process.ts']],
      ['src/workers/deposit-watchers.ts', ['src/suppliers/chains/toncenter.ts', 'src/suppliers/types.ts']],
      ['src/config/env.ts', ['src/suppliers/fragment/config.ts']],
      ['src/http/errors.ts', ['src/store/storage-health.ts', 'src/app/deps.ts']],
      ['src/http/admin/index.ts', ['src/suppliers/fragment/fragment-upstream.ts', 'src/workers/scheduler.ts']],
      ['bot/runner.ts', ['src/http/bot-webhook.ts', 'src/app/deps.ts', 'bot/index.ts']],
      ['src/ops/wiring.ts', ['src/store/db.ts', 'src/http/errors.ts', 'bot/index.ts']],
      ['src/service.ts', ['src/suppliers/sandbox/sandbox-upstream.ts', 'bot/runner.ts']],
    ]);
    expect(violations(bad)).toEqual([
      'src/domain/money.ts → src/store/db.ts',
      'src/store/snapshot.ts → src/app/ledger.ts',
      'src/app/orders/create.ts → src/suppliers/sandbox/sandbox-upstream.ts',
      'src/app/orders/create.ts → src/http/app.ts',
      'src/workers/jobs.ts → src/store/jobs-repo.ts',
      'src/workers/deposit-watchers.ts → src/suppliers/chains/toncenter.ts',
      'src/config/env.ts → src/suppliers/fragment/config.ts',
      'src/http/errors.ts → src/store/storage-health.ts',
      'src/http/admin/index.ts → src/suppliers/fragment/fragment-upstream.ts',
      'src/http/admin/index.ts → src/workers/scheduler.ts',
      'bot/runner.ts → src/http/bot-webhook.ts',
      'src/ops/wiring.ts → bot/index.ts',
      'src/service.ts → bot/runner.ts',
    ]);
    const typeOnly = importsOf(['src/kernel/event-bus.ts']).get('src/kernel/event-bus.ts');
    expect(typeOnly).toContain('src/kernel/ops-events.ts');
  });

  it('the sandbox stays out of the core: no use case names it, only the composition root knows its classes', () => {
    const texts = new Map([...imports.keys()].map((f) => [f, fs.readFileSync(path.join(ROOT, f), 'utf8')]));
    expect(texts.get('src/app/deps.ts')).toContain('export interface Deps');
    expect(identifiersOf(texts.get('src/service.ts')!)).toContain('SandboxUpstream');
    expect(sandboxLeaks(texts, imports)).toEqual([]);
    // the HTTP app gets the simulator as the application's SandboxControl port
    expect(importsOf(['src/http/app.ts']).get('src/http/app.ts')).toContain(SANDBOX_PORT);
    expect(identifiersOf(texts.get('src/http/app.ts')!)).toContain('SandboxControl');
    // the fault switch is the sandbox's own: the composition root wires what the simulator gives, it builds no switch
    expect([...identifiersOf(texts.get('src/service.ts')!)].filter((id) => /fault/i.test(id))).toEqual(['withFaults']);
  });

  it('suppliers behind their port: no use case reaches a particular supplier\'s records or settings, no adapter reads the application\'s records', () => {
    expect(imports.get('src/suppliers/fragment/fragment-upstream.ts')).toContain('src/store/fragment-payments-repo.ts');
    expect(supplierRecordLeaks(imports)).toEqual([]);
    const bad = new Map([
      ['src/app/operator/review-evidence.ts', ['src/config/fragment.ts', 'src/store/fragment-payments-repo.ts', 'src/store/gift-purchases-repo.ts']],
      ['src/suppliers/telegram-gifts/telegram-market.ts', ['src/store/gift-purchases-repo.ts', 'src/store/db.ts']],
      ['src/suppliers/sandbox/gift-market.ts', ['src/store/sandbox-repo.ts', 'src/store/kv-repo.ts', 'src/store/fragment-payments-repo.ts']],
      ['src/service.ts', ['src/config/fragment.ts']],
    ]);
    expect(supplierRecordLeaks(bad)).toEqual([
      'src/app/operator/review-evidence.ts → src/config/fragment.ts',
      'src/app/operator/review-evidence.ts → src/store/fragment-payments-repo.ts',
      'src/suppliers/telegram-gifts/telegram-market.ts → src/store/gift-purchases-repo.ts',
      'src/suppliers/sandbox/gift-market.ts → src/store/fragment-payments-repo.ts',
    ]);
  });

  it('the sandbox check sees a sandbox member of a use case\'s dependencies and the concrete class in the HTTP app', () => {
    const bad = new Map([
      ['src/app/deps.ts', 'export interface Deps { db: Db; sandbox?: { faults: unknown } }'],
      ['src/app/orders/create.ts', "// the sandbox said so\nconst s = 'sandbox';\nif (deps.sandboxFaults.ledger) fail('x');"],
      ['src/http/app.ts', "import { SandboxUpstream } from '../suppliers/sandbox/sandbox-upstream.js';\nexport type H = { s: SandboxUpstream };"],
      ['src/service.ts', 'const s = new SandboxUpstream(db, clock);'],
      ['src/suppliers/sandbox/faults.ts', 'export function f(s: SandboxGiftMarket) {}'],
      [SANDBOX_PORT, 'export interface SandboxControl { getFaults(): SandboxFaults }'],
      ['src/app/operator/overview.ts', "import type { Control } from '../sandbox-control.js';"],
    ]);
    const imports = new Map([['src/app/operator/overview.ts', [SANDBOX_PORT]]]);
    expect(sandboxLeaks(bad, imports)).toEqual([
      'src/app/deps.ts: sandbox',
      'src/app/orders/create.ts: sandboxFaults',
      'src/http/app.ts: SandboxUpstream',
      `src/app/operator/overview.ts → ${SANDBOX_PORT}`,
    ]);
  });
});
