import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { MIGRATIONS_FOLDER } from '../../src/store/db.js';

/**
 * Copies of the migrations folder with the journal cut before a given migration, for tests of a migration
 * on a database written before it; removed after the file's tests.
 */
export function migrationFolders(prefix: string): (tag: string) => string {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  return (tag: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    fs.cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
    const journalFile = path.join(dir, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag === tag);
    if (at < 1) throw new Error(`no migration ${tag} after the first`);
    journal.entries = journal.entries.slice(0, at);
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    return dir;
  };
}
