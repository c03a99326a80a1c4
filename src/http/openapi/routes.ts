import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { docsCsp, docsHeaders } from '../security-headers.js';
import { buildOpenApiDocument } from './document.js';

/** GET /api/partner/v1/openapi.json (public, no key) and the interactive documentation at /docs. */
export async function registerOpenApi(app: FastifyInstance, publicBaseUrl: string): Promise<void> {
  const document = buildOpenApiDocument(`${publicBaseUrl}/api/partner/v1`);
  app.get('/api/partner/v1/openapi.json', async () => document);
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  // Every page and asset of the documentation (Swagger UI's hooks option reaches its pages only): the hook
  // belongs to a scope holding Swagger UI alone, so the API's requests do not run it.
  await app.register(async (docs) => {
    docs.addHook('onRequest', docsHeaders);
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: { docExpansion: 'list', deepLinking: true, tryItOutEnabled: true },
      staticCSP: true,
      transformStaticCSP: docsCsp(publicBaseUrl),
    });
  });
}
