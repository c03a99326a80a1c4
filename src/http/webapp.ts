import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { miniAppHeaders } from './security-headers.js';

/**
 * The Mini App's pages under /app/, built by Vite at install time into webapp/dist. Hashed assets are
 * cached for a year (their names change with their content); index.html is revalidated on every opening.
 */
export function webappDir(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // src/http (tsx) or dist/src/http (the build)
  for (const up of ['../..', '../../..']) {
    const dir = path.resolve(here, up, 'webapp', 'dist');
    if (fs.existsSync(path.join(dir, 'index.html'))) return dir;
  }
  return null;
}

export function webappRoutes(dir = webappDir()) {
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', miniAppHeaders);
    app.get('/app', async (_req, reply) => reply.redirect('/app/', 301));
    if (!dir) {
      app.get('/app/*', async (_req, reply) =>
        reply.code(503).type('text/plain; charset=utf-8').send('The dashboard is not built: run `npm install` (or `npm run build:webapp`).'),
      );
      return;
    }
    await app.register(fastifyStatic, {
      root: dir,
      prefix: '/app/',
      decorateReply: false,
      index: ['index.html'],
      setHeaders(res, file) {
        res.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.header('x-content-type-options', 'nosniff');
      },
    });
  };
}
