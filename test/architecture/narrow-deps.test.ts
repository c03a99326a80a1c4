import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * A use case takes what it uses: no function, method or constructor of the use-case layer (src/app) takes
 * the whole `Deps`. Each declares its collaborators (`Pick<Deps, 'db' | 'clock'>` or a named type such as
 * CreateOrderDeps), so its signature says what it touches; the shells pass the whole set, which fits any of them.
 * The bot's conversations and features (commands, operator cards, notices) follow the same rule.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

/** The parameters typed as the whole `Deps` (or another of `whole`) in a source text, as `name:line`. */
export function wholeDepsParams(text: string, whole: readonly string[] = ['Deps']): string[] {
  const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isParameter(n) && n.type && ts.isTypeReferenceNode(n.type) && whole.includes(n.type.typeName.getText(sf)) && !n.type.typeArguments) {
      out.push(`${n.name.getText(sf)}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

function files(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    return e.isDirectory() ? files(rel) : e.name.endsWith('.ts') ? [rel] : [];
  });
}

describe('narrow dependencies', () => {
  it('no use case in src/app takes the whole Deps', () => {
    const all = files('src/app');
    expect(all.length).toBeGreaterThan(50);
    const found = all.flatMap((f) => wholeDepsParams(fs.readFileSync(path.join(ROOT, f), 'utf8')).map((p) => `${f} ${p}`));
    expect(found).toEqual([]);
  });

  // The bot's conversations likewise: not the whole Deps, nor the bot's whole set (BotDeps, BotEnv, which carry it).
  it('no bot conversation or feature takes the whole Deps, BotDeps or BotEnv', () => {
    const all = [...files('bot/conversations'), ...files('bot/features')];
    expect(all.length).toBeGreaterThan(5);
    const found = all.flatMap((f) => wholeDepsParams(fs.readFileSync(path.join(ROOT, f), 'utf8'), ['Deps', 'BotDeps', 'BotEnv']).map((p) => `${f} ${p}`));
    expect(found).toEqual([]);
  });

  it('the check sees a parameter, a method and a constructor property typed Deps, and lets Pick through', () => {
    const text = [
      'export function a(deps: Deps, x: number) {}',
      "export function b(deps: Pick<Deps, 'db'>) {}",
      'class C { constructor(private readonly deps: Deps) {} m(d: Deps) {} }',
      'type F = (deps: CreateOrderDeps) => void;',
    ].join('\n');
    expect(wholeDepsParams(text)).toEqual(['deps:1', 'deps:3', 'd:3']);
    expect(wholeDepsParams('function f(env: BotEnv, deps: Deps) {}', ['BotEnv'])).toEqual(['env:1']);
  });
});
