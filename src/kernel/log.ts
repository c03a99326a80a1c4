import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';

/** Where the service writes its log lines (JSON objects plus a message). */
export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/**
 * Field names whose values are replaced by "[redacted]" wherever they occur at the top level or one level
 * down. The service never passes a secret to the log on purpose (ids, statuses and reasons only); this is
 * the second line, should a key, token, secret or sign-in link ever reach a log call inside an object.
 */
const SECRET_FIELDS = ['authorization', 'api_key', 'apiKey', 'token', 'secret', 'webhook_secret', 'password', 'mnemonic', 'session', 'session_string', 'link', 'cookie'];
const REDACT = [...SECRET_FIELDS, ...SECRET_FIELDS.map((f) => `*.${f}`), 'headers', '*.headers'];

/**
 * An error as the log shows it: its name, message and stack only. Never the other fields an error may
 * carry (a Bot API error's request payload, an HTTP client's headers), which can hold message texts,
 * tokens or sign-in links.
 */
function errorFields(e: Error): Record<string, unknown> {
  return { type: e.name, message: e.message, stack: e.stack };
}

/** Any Error among an entry's fields, under whatever name, is reduced to errorFields. */
function normalise(o: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(o)) {
    if (v instanceof Error) {
      out ??= { ...o };
      out[k] = errorFields(v);
    }
  }
  return out ?? o;
}

/**
 * The service's logger: pino, JSON lines on stdout (or `destination`), `level` as its name and `time` as
 * ISO 8601 UTC, no pid or host fields. Fastify's request logger is this one too (src/http/app.ts), so the
 * lines of a request carry its `req_id`.
 */
export function createLogger(level: string, destination?: DestinationStream): PinoLogger {
  return pino(
    {
      level,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: normalise },
      serializers: { err: (e: unknown) => (e instanceof Error ? errorFields(e) : e) },
      redact: { paths: REDACT, censor: '[redacted]' },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
