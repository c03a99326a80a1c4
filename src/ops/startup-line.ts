import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/env.js';
import { buildInfo } from './build-info.js';
import { modeOf } from './database-mode.js';

/** The fields of the start-up line: the release (version, commit), where it listens, and its mode and suppliers. */
export function startupFields(config: Config, app: FastifyInstance) {
  const { version, commit } = buildInfo();
  const address = app.server.address();
  const bind = address && typeof address === 'object' ? (address.family === 'IPv6' ? `[${address.address}]:${address.port}` : `${address.address}:${address.port}`) : String(address);
  return {
    version,
    commit,
    node: process.version,
    pid: process.pid,
    bind,
    public_url: config.publicBaseUrl,
    mode: modeOf(config),
    upstream: config.UPSTREAM,
    gifts_upstream: config.gifts.upstream,
    database: config.DATABASE_PATH,
    node_env: process.env.NODE_ENV ?? null,
  };
}
