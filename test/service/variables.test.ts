import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_VARIABLES, loadConfig, unknownVariablesWarning } from '../../src/config/env.js';
import { unknownVariables } from '../../src/config/unknown-variables.js';
import { freePort } from '../helpers.js';
import { processFixtures } from '../ops/service-process.js';

/** Mistyped variables are named at start-up; every secret can come from a file or a systemd credential; the env file keeps `;` and `&`. */
const { tmp, start: startTracked } = processFixtures('pos-vars-');

describe('unknown variables', () => {
  it('names a variable with one of the service prefixes that it does not read, with the nearest known name', () => {
    expect(unknownVariables({ FRAGMENT_HSAH: 'x', WEBHOOK_TIMEOUT: '5', BACKUP_EVERY: '1', PATH: '/bin', HOME: '/root', NODE_OPTIONS: '', HTTP_PROXY: 'x', FRAGMENT_HASH: 'ok' }, KNOWN_VARIABLES)).toEqual([
      { name: 'BACKUP_EVERY' },
      { name: 'FRAGMENT_HSAH', suggestion: 'FRAGMENT_HASH' },
      { name: 'WEBHOOK_TIMEOUT', suggestion: 'WEBHOOK_TIMEOUT_MS' },
    ]);
    // a whole-name typo of a long name too, but not the system's own short names
    expect(unknownVariables({ UPSTRAEM: 'fragment', PWD: '/', TERM: 'xterm', LANG: 'C', SHELL: '/bin/sh', HOSTNAME: 'vm' }, KNOWN_VARIABLES)).toEqual([{ name: 'UPSTRAEM', suggestion: 'UPSTREAM' }]);
    // every name the service reads, a secret's NAME_FILE included, is known
    expect(unknownVariables(Object.fromEntries(KNOWN_VARIABLES.map((n) => [n, 'x'])), KNOWN_VARIABLES)).toEqual([]);
    expect(KNOWN_VARIABLES).toEqual(expect.arrayContaining(['ADMIN_TOKEN_FILE', 'TELEGRAM_BOT_TOKEN_FILE', 'FRAGMENT_COOKIES_FILE', 'GIFTS_SESSION_FILE']));
    expect(unknownVariablesWarning({ PATH: '/bin' })).toBeNull();
  });
});

describe('secrets from files', () => {
  it('NAME_FILE holds a secret (trailing newline dropped) and wins over NAME; a credential in $CREDENTIALS_DIRECTORY is used when neither is set', () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'token'), 'adm_from_a_file_0123456789\n');
    expect(loadConfig({ ADMIN_TOKEN_FILE: path.join(dir, 'token'), ADMIN_TOKEN: 'adm_from_the_variable_0123' }).ADMIN_TOKEN).toBe('adm_from_a_file_0123456789');
    const creds = path.join(dir, 'credentials');
    fs.mkdirSync(creds);
    fs.writeFileSync(path.join(creds, 'TELEGRAM_BOT_TOKEN'), '123456:credential-token\n');
    fs.writeFileSync(path.join(creds, 'METRICS_TOKEN'), 'metrics_from_credential_01');
    const c = loadConfig({ CREDENTIALS_DIRECTORY: creds, METRICS_TOKEN: 'metrics_from_the_variable' });
    expect(c.TELEGRAM_BOT_TOKEN).toBe('123456:credential-token');
    expect(c.METRICS_TOKEN).toBe('metrics_from_the_variable');
    // a file that cannot be read is one line naming NAME_FILE, never the path's content
    expect(() => loadConfig({ TRON_API_KEY_FILE: path.join(dir, 'missing') })).toThrow(/^invalid configuration: TRON_API_KEY_FILE: cannot be read$/);
  });
});

describe('the service process', { timeout: 120_000 }, () => {
  it('warns in one line about mistyped variables, reads its env file with Node’s own loader (values with ; and & whole), and takes the operator token from a file', async () => {
    const dir = tmp();
    const token = 'adm_x;y&z=1_two_0123456789';
    fs.writeFileSync(path.join(dir, 'service.env'), `ADMIN_TOKEN=${token}\nFRAGMENT_HSAH=abc\nWEBHOOK_TIMEOUT=5\n`);
    const p = startTracked(dir, { PORT: String(await freePort()), DATABASE_PATH: path.join(dir, 'service.db'), SANDBOX_DEMO: '0' }, { nodeArgs: [`--env-file=${path.join(dir, 'service.env')}`] });
    await p.ready();
    const warnings = p.logLines().filter((l) => l.level === 'warn');
    expect(warnings.map((l) => l.msg)).toEqual(['unknown variables, ignored: FRAGMENT_HSAH (did you mean FRAGMENT_HASH?), WEBHOOK_TIMEOUT (did you mean WEBHOOK_TIMEOUT_MS?)']);
    const auth = (t: string) => fetch(`${p.base}/api/admin/v1/reviews`, { headers: { authorization: `Bearer ${t}` } }).then((r) => r.status);
    expect(await auth(token)).toBe(200);
    expect(await auth('adm_x')).toBe(401);
    p.signal('SIGTERM');
    expect(await p.exited).toBe(0);

    fs.writeFileSync(path.join(dir, 'admin-token'), 'adm_token_from_its_file_0123\n');
    const q = startTracked(dir, { PORT: String(await freePort()), DATABASE_PATH: path.join(dir, 'service.db'), SANDBOX_DEMO: '0', ADMIN_TOKEN_FILE: path.join(dir, 'admin-token') });
    await q.ready();
    expect(q.output()).not.toContain('Operator API token (generated');
    expect(await fetch(`${q.base}/api/admin/v1/reviews`, { headers: { authorization: 'Bearer adm_token_from_its_file_0123' } }).then((r) => r.status)).toBe(200);
    q.signal('SIGTERM');
    expect(await q.exited).toBe(0);
  });
});
