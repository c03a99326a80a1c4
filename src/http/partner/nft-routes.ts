import type { FastifyInstance } from 'fastify';
import type { GiftCatalog } from '../../app/nft/gift-catalog.js';
import type { PartnerRouteDeps } from './routes.js';

/** GET /nft/collections, /nft/gifts, /nft/gifts/{gift}: every NFT catalog read counts against `nft_catalog`. */
export function nftRoutes(catalog: GiftCatalog) {
  return (app: FastifyInstance, ctx: PartnerRouteDeps) => {
    const limit = (keyId: string) => ctx.limiter.hit('nft_catalog', keyId);
    app.get('/nft/collections', async (req) => {
      limit(req.partner!.keyId);
      return catalog.collections();
    });
    app.get('/nft/gifts', async (req) => {
      limit(req.partner!.keyId);
      return catalog.list(req.query as Record<string, unknown>);
    });
    app.get<{ Params: { gift: string } }>('/nft/gifts/:gift', async (req) => {
      limit(req.partner!.keyId);
      return catalog.quote(req.params.gift);
    });
  };
}
