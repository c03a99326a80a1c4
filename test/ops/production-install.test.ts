import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * The rules of package.json and its lock that a production install depends on
 * (`npm ci && npm run build && npm prune --omit=dev`, docs/production.md). The build, prune and start run in
 * .ci/run's smoke test (scripts/smoke-production.mjs, the Dockerfile's steps); these are the cheap checks that
 * keep it working.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
const locked = Object.entries(lock.packages as Record<string, any>).filter(([k]) => k.startsWith('node_modules/'));
const nameOf = (k: string) => k.slice(k.lastIndexOf('node_modules/') + 'node_modules/'.length);

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe('production install', () => {
  it('every package the server and the bot import at run time is a dependency, not a devDependency', () => {
    const used = new Set<string>();
    for (const f of [...files(path.join(ROOT, 'src')), ...files(path.join(ROOT, 'bot'))]) {
      const text = fs.readFileSync(f, 'utf8');
      // value imports only: `import type` is erased by tsc
      for (const m of text.matchAll(/^\s*(?:import(?!\s+type\b)[^'";]*?from\s*|import\s*\(\s*|import\s+|export\s+[^'";]*?from\s*)['"]([^'".][^'"]*)['"]/gm)) {
        const spec = m[1];
        if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
        used.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
      }
    }
    expect(used.size).toBeGreaterThan(10);
    const missing = [...used].filter((m) => !(m in pkg.dependencies)).sort();
    expect(missing).toEqual([]);
  });

  it('build tools, types and the Mini App’s front-end packages are devDependencies', () => {
    const deps = Object.keys(pkg.dependencies);
    expect(deps.filter((d) => ['typescript', 'vite', 'tsx', 'preact', '@tma.js/sdk', 'qrcode-generator'].includes(d) || d.startsWith('@types/'))).toEqual([]);
    for (const d of ['typescript', 'vite', 'tsx']) expect(pkg.devDependencies[d]).toBeTruthy();
    // and none of them is pulled into the production tree by a dependency: `npm prune --omit=dev` removes only
    // what the lock flags `dev` (a `devOptional` package, such as an optional peer of a dependency, stays)
    const prodLocked = locked.filter(([, p]) => !p.dev).map(([k]) => nameOf(k));
    // Known exception: @mtcute/core lists @types/events as a dependency of its own, and with it npm keeps
    // @types/node (and undici-types) in the production tree. They are type files only (no code runs).
    const MTCUTE_TYPES = ['@types/events', '@types/node'];
    expect(prodLocked.filter((n) => ['typescript', 'vite', 'tsx', 'esbuild', 'rollup'].includes(n) || (n.startsWith('@types/') && !MTCUTE_TYPES.includes(n)))).toEqual([]);
  });

  it('start and the operations commands run the built JavaScript, building only when it is stale', () => {
    const s = pkg.scripts as Record<string, string>;
    // exec: the shell npm runs the script in becomes node, so a signal to npm's child reaches the service
    expect(s.start).toMatch(/^exec node .*dist\/src\/main\.js$/);
    expect(s.prestart).toBe('node scripts/build.mjs --if-stale');
    expect(s.build).toBe('node scripts/build.mjs');
    // a production install (npm ci --omit=dev) runs postinstall without the build tools: it must not fail there
    expect(s.postinstall).toBe('node scripts/build.mjs --if-stale --optional');
    // the operations commands run the build that is there in a pruned install (no staleness gate without the tools)
    for (const cmd of ['backup', 'restore', 'fragment:check', 'gifts:login', 'gifts:check']) {
      const m = /^node scripts\/build\.mjs --if-stale --server --use-built && node (dist\/\S+)\.js$/.exec(s[cmd]);
      expect(m, cmd).not.toBeNull();
      // the built file comes from a source that exists
      expect(fs.existsSync(path.join(ROOT, m![1].replace(/^dist\//, '') + '.ts')), cmd).toBe(true);
    }
    for (const [name, cmd] of Object.entries(s)) if (/^(start|backup|restore|fragment:check|gifts:check)$/.test(name)) expect(cmd, name).not.toMatch(/\btsx\b/);
  });

  it('every locked package with an install script is reviewed in allowScripts', () => {
    const withScripts = [...new Set(locked.filter(([, p]) => p.hasInstallScript).map(([k]) => nameOf(k)))].sort();
    expect(withScripts).toContain('better-sqlite3');
    const allowed = Object.keys(pkg.allowScripts ?? {}).map((k) => k.replace(/(.)@.*$/, '$1'));
    expect(withScripts.filter((n) => !allowed.includes(n))).toEqual([]);
  });

  it('rollup is not pinned by an override and its lock entry has every platform package', () => {
    expect(pkg.overrides?.rollup).toBeUndefined();
    const rollup = lock.packages['node_modules/rollup'];
    const platforms = Object.keys(rollup.optionalDependencies).filter((d) => d.startsWith('@rollup/'));
    expect(platforms.length).toBeGreaterThan(10);
    for (const d of platforms) expect(lock.packages[`node_modules/${d}`]?.version, d).toBe(rollup.version);
  });

  it('engines.node is the Node line CI runs, from the true minimum of the locked tree; .nvmrc and @types/node name the same line', () => {
    const range = pkg.engines.node as string;
    // CI proves this line: the tests run on it
    expect(semver.satisfies(process.version, range), `${process.version} outside ${range}`).toBe(true);
    const ours = semver.minVersion(range)!;
    const ranges = locked.filter(([, p]) => p.engines?.node && !p.os && !p.cpu).map(([k, p]) => [nameOf(k), p.engines.node as string, Boolean(p.dev)] as const);
    // every locked package runs on our minimum (no EBADENGINE from npm ci)…
    expect(ranges.filter(([, r]) => !semver.satisfies(ours, r)).map(([n, r]) => `${n} ${r}`)).toEqual([]);
    // …production packages on every release of the line too (cookie 2 and content-disposition 3 ask for Node 22: overridden)
    expect(ranges.filter(([, r, dev]) => !dev && !semver.satisfies(`${ours.major}.99.0`, r)).map(([n, r]) => `${n} ${r}`)).toEqual([]);
    // …and the minimum is not lower than one of them needs: the previous release line fails some package
    const lower = semver.coerce(`${ours.major}.${ours.minor - 1}.99`)!;
    expect(ranges.some(([, r]) => !semver.satisfies(lower, r))).toBe(true);
    // one major line, named the same way everywhere
    expect(semver.intersects(range, `>=${ours.major + 1}`)).toBe(false);
    expect(fs.readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim()).toBe(String(ours.major));
    expect(semver.minVersion(pkg.devDependencies['@types/node'])!.major).toBe(ours.major);
    expect(lock.packages['node_modules/@types/node'].version.split('.')[0]).toBe(String(ours.major));
  });
});
