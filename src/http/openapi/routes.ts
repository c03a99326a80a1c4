import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { docsCsp, docsHeaders } from '../security-headers.js';
import { buildOpenApiDocument } from './document.js';

/** Headers of the documentation's own answer that belong to its connection, not to the page. */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

/**
 * GET /api/partner/v1/openapi.json (public, no key) and the interactive documentation at /docs.
 *
 * Both are made on first use, not at start-up: the document, and Swagger UI with its plugins
 * (@fastify/swagger, @fastify/swagger-ui, yaml), which otherwise keep ~2.6 MB of the JavaScript heap for
 * pages few people open. A running Fastify takes no new routes, so
 * /docs and /docs/* are routes of the service that hand each request to a Fastify instance of its own,
 * holding the two plugins, built on the first request (`inject`: no socket) and kept.
 */
export async function registerOpenApi(app: FastifyInstance, publicBaseUrl: string): Promise<void> {
  let document: object | undefined;
  const openApi = () => (document ??= buildOpenApiDocument(`${publicBaseUrl}/api/partner/v1`));
  app.get('/api/partner/v1/openapi.json', async () => openApi());

  let docs: Promise<FastifyInstance> | undefined;
  const docsApp = () =>
    (docs ??= buildDocsApp(openApi(), publicBaseUrl).catch((e: unknown) => {
      docs = undefined;
      throw e;
    }));
  // the documentation's own instance closes with the service (its plugins' onClose hooks run)
  app.addHook('onClose', async () => {
    const built = docs;
    docs = undefined;
    if (built) await (await built.catch(() => null))?.close();
  });
  const forward = async (req: FastifyRequest, reply: FastifyReply) => {
    // a HEAD is asked as a GET: the service's own HEAD route takes the length from the body and drops it
    const res = await (await docsApp()).inject({ method: 'GET', url: req.url, headers: req.headers });
    // the service's own 404 (its error body and headers), as when Swagger UI's routes did not know a path
    if (res.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(res.headers)) if (value !== undefined && !CONNECTION_HEADERS.has(name)) reply.header(name, value);
    return reply.code(res.statusCode).send(res.rawPayload.length ? res.rawPayload : undefined);
  };
  // Every page and asset of the documentation: the hook belongs to a scope holding these routes alone, so
  // the API's requests do not run it.
  await app.register(async (scope) => {
    scope.addHook('onRequest', docsHeaders);
    scope.get('/docs', forward);
    scope.get('/docs/*', forward);
  });
}

async function buildDocsApp(document: object, publicBaseUrl: string): Promise<FastifyInstance> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([import('@fastify/swagger'), import('@fastify/swagger-ui')]);
  const docs = Fastify({ logger: false });
  await docs.register(swagger, { mode: 'static', specification: { document: document as never } });
  await docs.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true, tryItOutEnabled: true },
    staticCSP: true,
    transformStaticCSP: docsCsp(publicBaseUrl),
  });
  await docs.ready();
  return docs;
}
