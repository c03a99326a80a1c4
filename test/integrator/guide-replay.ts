import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemo } from '../../src/app/demo.js';
import { ADMIN_TOKEN, startReceiver, startService, stopService, type TestService } from '../helpers.js';

/**
 * The examples of the integrator guide (docs/partner-api.md) replayed against a fresh local sandbox with its
 * demo partner, as the guide's reader would send them, and compared with what the service answers.
 *
 * In the guide an example is a fenced `http` block holding a request (`METHOD /path`, headers, a blank
 * line, a body) followed by an `http` block holding its answer (`HTTP/1.1 <status> …`, the headers worth
 * showing, a blank line, the body). `Authorization: Bearer pk_live_…` is the demo key. Steps a reader does
 * elsewhere (in the dashboard, or on a local sandbox with the operator token) are HTML comments the page
 * does not show: `<!-- setup: [N x ]METHOD /path [JSON body] -->`, one per line.
 *
 * Answers are compared exactly, modulo what differs from one run or one machine to the next: a timestamp
 * matches any timestamp of the same form, and an identifier (order ids, delivery ids, cursors, secrets) is
 * bound to the one the service gave on first sight and must then recur consistently (it is also put into
 * later requests). `127.0.0.1:4000`, the guide's receiver, is the test's receiver.
 *
 * `npx tsx test/integrator/guide-replay.ts --write` rewrites every answer block with the service's answer.
 */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const GUIDE = path.join(ROOT, 'docs', 'partner-api.md');
const GUIDE_RECEIVER = '127.0.0.1:4000';

interface Request {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}
interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}
export type Step =
  | { kind: 'setup'; line: number; repeat: number; method: string; url: string; body: string | null }
  | { kind: 'example'; line: number; request: Request; answer: Answer | null; answerLines: [number, number] | null };

const TIME_FORMS = [
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/, // local (UTC wall clock), no offset
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/, // with its UTC offset
];
const ID_FORMS = [/^pa_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, /^PA-\d{6,}$/, /^[0-9a-f]{24}$/, /^[0-9a-f]{64}$/, /^whsec_[0-9a-f]{64}$/, /^pk_live_[A-Za-z0-9_-]+$/, /^tp_[0-9a-f]{16}$/];
const TEXT_IDS = /pa_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|PA-\d{6,}|tp_[0-9a-f]{16}|\b[0-9a-f]{64}\b|\b[0-9a-f]{24}\b|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}(?:\+00:00)?/g;
/** Fields whose text is opaque and differs from run to run. */
const OPAQUE_FIELDS = new Set(['next_cursor']);
/** Numbers measured on the machine (any number of that kind matches). */
const MEASURED_FIELDS = new Set(['duration_ms']);

export function parseGuide(text: string): Step[] {
  const lines = text.split('\n');
  const steps: Step[] = [];
  let i = 0;
  while (i < lines.length) {
    const l = lines[i];
    const setup = /^<!--\s*setup:\s*(.*?)\s*(-->)?$/.exec(l);
    if (setup) {
      const body: string[] = [setup[1]];
      let j = i;
      if (!setup[2]) {
        while (!lines[++j].includes('-->')) body.push(lines[j].trim());
        body.push(lines[j].replace('-->', '').trim());
      }
      for (const d of body.filter((x) => x !== '')) {
        const m = /^(?:(\d+) x )?(GET|POST|PUT|DELETE) (\S+)(?: (.+))?$/.exec(d);
        if (!m) throw new Error(`line ${i + 1}: bad setup directive "${d}"`);
        steps.push({ kind: 'setup', line: i + 1, repeat: Number(m[1] ?? 1), method: m[2], url: m[3], body: m[4] ?? null });
      }
      i = j + 1;
      continue;
    }
    if (l.trim() === '```http') {
      const start = i;
      const block: string[] = [];
      while (lines[++i].trim() !== '```') block.push(lines[i]);
      const first = block[0] ?? '';
      if (/^HTTP\/1\.1 \d{3}/.test(first)) {
        const last = steps[steps.length - 1];
        if (!last || last.kind !== 'example' || last.answer) throw new Error(`line ${start + 1}: an answer without its request`);
        last.answer = parseAnswer(block);
        last.answerLines = [start + 1, i];
      } else if (/^(GET|POST|PUT|DELETE|PATCH|HEAD) \//.test(first)) {
        steps.push({ kind: 'example', line: start + 1, request: parseRequest(block), answer: null, answerLines: null });
      }
    }
    i++;
  }
  return steps;
}

function splitMessage(block: string[]): { head: string[]; body: string } {
  const blank = block.indexOf('');
  return blank === -1 ? { head: block, body: '' } : { head: block.slice(0, blank), body: block.slice(blank + 1).join('\n') };
}

function parseRequest(block: string[]): Request {
  const { head, body } = splitMessage(block);
  const [method, url] = head[0].split(' ');
  const headers: Record<string, string> = {};
  for (const h of head.slice(1)) {
    const c = h.indexOf(':');
    headers[h.slice(0, c).trim().toLowerCase()] = h.slice(c + 1).trim();
  }
  return { method, url, headers, body };
}

function parseAnswer(block: string[]): Answer {
  const { head, body } = splitMessage(block);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head[0])![1]);
  const headers = head.slice(1).map((h): [string, string] => {
    const c = h.indexOf(':');
    return [h.slice(0, c).trim(), h.slice(c + 1).trim()];
  });
  return { status, headers, body };
}

/** The replay's world: a fresh sandbox with the demo partner and the guide's receiver. */
export interface World {
  t: TestService;
  key: string;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** Identifiers of the guide bound to those of this run. */
  bound: Map<string, string>;
  close(): Promise<void>;
}

export async function world(): Promise<World> {
  const t = await startService({ WEBHOOK_ALLOW_SUBNETS: '127.0.0.0/8,::1/128' });
  const demo = startDemo(t.deps, t.keys);
  const receiver = await startReceiver('127.0.0.1');
  const bound = new Map<string, string>([[GUIDE_RECEIVER, `127.0.0.1:${receiver.port}`]]);
  return {
    t,
    key: demo.created!.apiKey,
    receiver,
    bound,
    async close() {
      await receiver.close();
      await stopService(t);
    },
  };
}

function substitute(w: World, s: string): string {
  let out = s;
  for (const [from, to] of w.bound) out = out.split(from).join(to);
  return out;
}

async function send(w: World, method: string, url: string, headers: Record<string, string>, body: string) {
  const h = { ...headers };
  if (url.startsWith('/api/admin/')) h.authorization = `Bearer ${ADMIN_TOKEN}`;
  else if (h.authorization?.startsWith('Bearer pk_live_')) h.authorization = `Bearer ${w.key}`;
  if (body !== '' && h['content-type'] === undefined) h['content-type'] = 'application/json';
  const r = await w.t.app.inject({ method: method as never, url: substitute(w, url), headers: h, payload: body === '' ? undefined : substitute(w, body) });
  return r;
}

export async function runSetup(w: World, s: Extract<Step, { kind: 'setup' }>): Promise<void> {
  const headers: Record<string, string> = s.url.startsWith('/api/partner/') ? { authorization: `Bearer pk_live_` } : {};
  for (let n = 0; n < s.repeat; n++) {
    const r = await send(w, s.method, s.url, headers, s.body ?? '');
    if (r.statusCode >= 400) throw new Error(`setup at line ${s.line} (${s.method} ${s.url}) answered ${r.statusCode}: ${r.body}`);
  }
}

export interface Outcome {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: unknown;
}

export async function runExample(w: World, e: Extract<Step, { kind: 'example' }>): Promise<Outcome> {
  const r = await send(w, e.request.method, e.request.url, e.request.headers, e.request.body);
  let json: unknown;
  try {
    json = r.body === '' ? undefined : JSON.parse(r.body);
  } catch {
    json = undefined;
  }
  return { status: r.statusCode, headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k.toLowerCase(), String(v)])), body: r.body, json };
}

/** The differences between an answer of the guide and the service's (empty when they agree); binds identifiers. */
export function differences(w: World, expected: Answer, got: Outcome): string[] {
  const out: string[] = [];
  if (expected.status !== got.status) out.push(`status ${got.status}, the guide says ${expected.status}: ${got.body.slice(0, 300)}`);
  for (const [name, value] of expected.headers) {
    const actual = got.headers[name.toLowerCase()];
    if (actual === undefined) out.push(`no ${name} header`);
    else if (substitute(w, value) !== actual && !sameText(w, value, actual)) out.push(`${name}: ${actual}, the guide says ${value}`);
  }
  if (got.json !== undefined && (expected.body.trim().startsWith('{') || expected.body.trim().startsWith('['))) {
    let want: unknown;
    try {
      want = JSON.parse(expected.body);
    } catch (e) {
      return [...out, `the guide's body is not JSON: ${(e as Error).message}`];
    }
    compare(w, want, got.json, '$', out);
  } else if (!sameText(w, expected.body.trim(), got.body.replace(/\r\n/g, '\n').trim())) {
    out.push(`body:\n${got.body}\nthe guide says:\n${expected.body}`);
  }
  return out;
}

function bind(w: World, want: string, got: string): boolean {
  const b = w.bound.get(want);
  if (b !== undefined) return b === got;
  w.bound.set(want, got);
  return true;
}

function compare(w: World, want: unknown, got: unknown, at: string, out: string[]): void {
  if (typeof want === 'string' && typeof got === 'string') {
    const key = at.slice(at.lastIndexOf('.') + 1);
    const subst = substitute(w, want);
    if (subst === got) return;
    const form = TIME_FORMS.find((f) => f.test(want));
    if (form) {
      if (!form.test(got)) out.push(`${at}: ${JSON.stringify(got)} is not a time of the form of ${JSON.stringify(want)}`);
      return;
    }
    if (OPAQUE_FIELDS.has(key) || ID_FORMS.some((f) => f.test(want) && f.test(got))) {
      if (!bind(w, want, got)) out.push(`${at}: ${JSON.stringify(got)}, but ${JSON.stringify(want)} was ${JSON.stringify(w.bound.get(want))} before`);
      return;
    }
    if (sameText(w, want, got)) return;
    out.push(`${at}: ${JSON.stringify(got)}, the guide says ${JSON.stringify(want)}`);
    return;
  }
  if (Array.isArray(want) && Array.isArray(got)) {
    if (want.length !== got.length) out.push(`${at}: ${got.length} items, the guide shows ${want.length}`);
    for (let i = 0; i < Math.min(want.length, got.length); i++) compare(w, want[i], got[i], `${at}[${i}]`, out);
    return;
  }
  if (want && got && typeof want === 'object' && typeof got === 'object' && !Array.isArray(want) && !Array.isArray(got)) {
    const a = Object.keys(want as object);
    const b = Object.keys(got as object);
    for (const k of b) if (!a.includes(k)) out.push(`${at}.${k}: present (${JSON.stringify((got as Record<string, unknown>)[k])}), the guide does not show it`);
    for (const k of a) if (!b.includes(k)) out.push(`${at}.${k}: absent, the guide shows it`);
    for (const k of a) if (b.includes(k)) compare(w, (want as Record<string, unknown>)[k], (got as Record<string, unknown>)[k], `${at}.${k}`, out);
    return;
  }
  if (typeof want === 'number' && typeof got === 'number' && MEASURED_FIELDS.has(at.slice(at.lastIndexOf('.') + 1))) return;
  if (JSON.stringify(want) !== JSON.stringify(got)) out.push(`${at}: ${JSON.stringify(got)}, the guide says ${JSON.stringify(want)}`);
}

/** Texts equal once their identifiers and times are matched (CSV lines, headers, strings naming an id). */
function sameText(w: World, want: string, got: string): boolean {
  const a = substitute(w, want).split(TEXT_IDS);
  const b = got.split(TEXT_IDS);
  if (a.length !== b.length || a.some((x, i) => x !== b[i])) return false;
  const ta = substitute(w, want).match(TEXT_IDS) ?? [];
  const tb = got.match(TEXT_IDS) ?? [];
  return ta.every((x, i) => (TIME_FORMS.some((f) => f.test(x)) ? TIME_FORMS.some((f) => f.test(x) && f.test(tb[i])) : x === tb[i] || bind(w, x, tb[i])));
}

/** JSON as the guide shows it: an object or array on one line when it fits in `width`, else one member a line. */
export function guideJson(v: unknown, indent = '', lead = indent.length, width = 110): string {
  const flat = JSON.stringify(v, null, 1)?.replace(/\n\s*/g, ' ').replace(/([[{]) /g, '$1').replace(/ ([\]}])/g, '$1') ?? 'null';
  if (v === null || typeof v !== 'object' || lead + flat.length <= width) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(v)) return `[\n${v.map((x) => inner + guideJson(x, inner, inner.length, width)).join(',\n')}\n${indent}]`;
  const entries = Object.entries(v as Record<string, unknown>);
  return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${guideJson(x, inner, inner.length + k.length + 4, width)}`).join(',\n')}\n${indent}}`;
}

/** The guide's own spelling of what this run bound (ids the guide shows stay as they are). */
function inGuideTerms(w: World, s: string): string {
  let out = s;
  for (const [guide, actual] of w.bound) if (guide !== actual) out = out.split(actual).join(guide);
  return out;
}

/** Answers of the service as the guide writes them: the status line, the shown headers, the body. */
function answerBlock(w: World, expected: Answer | null, got: Outcome): string[] {
  const reason: Record<number, string> = { 200: 'OK', 201: 'Created', 400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 429: 'Too Many Requests', 502: 'Bad Gateway', 503: 'Service Unavailable' };
  const head = [`HTTP/1.1 ${got.status} ${reason[got.status] ?? ''}`.trimEnd()];
  for (const [name] of expected?.headers ?? []) head.push(`${name}: ${got.headers[name.toLowerCase()] ?? ''}`);
  const body = got.json !== undefined ? guideJson(got.json) : got.body.replace(/\r\n/g, '\n').trimEnd();
  return [...head, '', ...inGuideTerms(w, body).split('\n')];
}

/** Rewrites the guide's answers with the service's (keeping which headers each shows). */
async function write(): Promise<void> {
  const text = fs.readFileSync(GUIDE, 'utf8');
  const lines = text.split('\n');
  const steps = parseGuide(text);
  const w = await world();
  const edits: { from: number; to: number; block: string[] }[] = [];
  const inserts: { after: number; block: string[] }[] = [];
  try {
    for (const s of steps) {
      if (s.kind === 'setup') {
        await runSetup(w, s);
        continue;
      }
      const got = await runExample(w, s);
      if (s.answer) differences(w, s.answer, got); // binds the ids the guide already shows
      const block = answerBlock(w, s.answer, got);
      if (s.answerLines) edits.push({ from: s.answerLines[0], to: s.answerLines[1] - 1, block });
      else {
        let end = s.line;
        while (lines[end].trim() !== '```') end++;
        inserts.push({ after: end, block: ['', '```http', ...block, '```'] });
      }
    }
  } finally {
    await w.close();
  }
  const all = [...edits.map((e) => ({ at: e.from, remove: e.to - e.from + 1, block: e.block })), ...inserts.map((x) => ({ at: x.after + 1, remove: 0, block: x.block }))].sort((a, b) => b.at - a.at);
  for (const e of all) lines.splice(e.at, e.remove, ...e.block);
  fs.writeFileSync(GUIDE, lines.join('\n'));
  process.stdout.write(`${edits.length} answers rewritten, ${inserts.length} added\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv.includes('--write')) await write();
