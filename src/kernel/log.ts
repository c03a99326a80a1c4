/** Where the service writes its log lines (JSON objects plus a message). */
export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** A small JSON-lines logger on stdout; secrets and keys are never passed to it. */
export function createLogger(level: string): Logger & { debug(obj: unknown, msg?: string): void } {
  const order = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
  const min = level === 'silent' ? Infinity : order.indexOf(level);
  const write = (lvl: string) => (obj: unknown, msg?: string) => {
    if (order.indexOf(lvl) < min) return;
    const extra = obj instanceof Error ? { err: obj.message } : typeof obj === 'object' && obj !== null ? normalise(obj as Record<string, unknown>) : { value: obj };
    process.stdout.write(`${JSON.stringify({ level: lvl, time: new Date().toISOString(), msg, ...extra })}\n`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

function normalise(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k] = v instanceof Error ? { message: v.message, stack: v.stack } : v;
  return out;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
