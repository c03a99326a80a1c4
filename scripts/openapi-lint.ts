import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/http/openapi/document.js';

/**
 * Redocly CLI's lint of the partner API's OpenAPI document with the rules of ./redocly.yaml (Redocly's
 * recommended set), offline: no telemetry, no update check. `npm run openapi:lint` prints its report;
 * test/http/openapi-lint.test.ts asserts 0 errors and 0 warnings.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

export interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Lints `doc` (written to a temporary file) and returns Redocly's JSON report. */
export async function lintOpenApi(doc: object = buildOpenApiDocument('http://127.0.0.1:8080/api/partner/v1')): Promise<LintReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-lint-'));
  try {
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(doc, null, 2));
    const r = await run(['lint', '--config', path.join(ROOT, 'redocly.yaml'), '--format=json', file]);
    const start = r.stdout.indexOf('{');
    if (start === -1) throw new Error(`redocly lint gave no report (exit ${r.code}): ${r.stderr.slice(-2000)}`);
    return JSON.parse(r.stdout.slice(start)) as LintReport;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = await lintOpenApi();
  for (const p of report.problems) process.stdout.write(`${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}\n`);
  process.stdout.write(`${report.totals.errors} errors, ${report.totals.warnings} warnings\n`);
  process.exit(report.totals.errors + report.totals.warnings === 0 ? 0 : 1);
}
