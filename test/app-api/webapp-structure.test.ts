import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TYPES_FILE } from '../../webapp/scripts/api-types.js';

/**
 * The Mini App's source keeps its shape: pages import no other page (shared views are components, shared
 * state hooks), nothing is imported from the bot, and no `any`.
 */
const SRC = path.resolve(import.meta.dirname, '../../webapp/src');

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));
}
const imports = (file: string) => [...fs.readFileSync(file, 'utf8').matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]);
const own = files(SRC).filter((f) => f !== TYPES_FILE);

describe('the Mini App source', () => {
  it('has pages that import no other page', () => {
    const pages = own.filter((f) => f.includes(`${path.sep}pages${path.sep}`));
    expect(pages.length).toBeGreaterThan(8);
    const bad = pages.flatMap((f) => imports(f).filter((i) => i.startsWith('./') || i.includes('/pages/')).map((i) => `${path.basename(f)} → ${i}`));
    expect(bad).toEqual([]);
  });

  it('imports nothing from the bot, and from the service only pure modules (words, labels, the API types)', () => {
    const outside = own.flatMap((f) => imports(f).filter((i) => i.includes('../../')).map((i) => path.resolve(path.dirname(f), i)));
    const allowed = ['src/presentation/words', 'src/domain/labels', 'src/http/app-api/types'].map((x) => path.resolve(SRC, '../..', x));
    expect(outside.filter((x) => !allowed.includes(x))).toEqual([]);
    expect(own.flatMap((f) => imports(f)).filter((i) => i.includes('bot/'))).toEqual([]);
  });

  it('has no `any`', () => {
    const bad = own.filter((f) => /(:\s*any\b|as any\b|<any>|any\[\])/.test(fs.readFileSync(f, 'utf8')));
    expect(bad).toEqual([]);
  });

  it('has a route table that names every page file', () => {
    const table = fs.readFileSync(path.join(SRC, 'routes.tsx'), 'utf8');
    for (const f of own.filter((x) => x.includes(`${path.sep}pages${path.sep}`))) expect(table).toContain(`./pages/${path.relative(path.join(SRC, 'pages'), f).replace(/\.tsx?$/, '')}'`);
  });
});
