import type { FastifyInstance } from 'fastify';

/** A start-up step that cannot go on, told in one line (like a ConfigError): no stack trace for a known cause. */
export class StartupRefused extends Error {
  constructor(readonly line: string) {
    super(line);
  }
}

const WHY: Record<string, string> = {
  EADDRINUSE: 'the address is already in use (another process listens there)',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'this machine has no such address',
};

/** Listens on HOST:PORT; a busy port (or another known cause) becomes StartupRefused naming the variables. */
export async function listenOrRefuse(app: FastifyInstance, host: string, port: number): Promise<void> {
  try {
    await app.listen({ port, host });
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    if (!(code in WHY)) throw e;
    const at = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    throw new StartupRefused(`cannot listen on ${at}: ${WHY[code]}: set PORT (or HOST) to another value`);
  }
}
