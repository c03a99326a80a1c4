import type { FastifyInstance } from 'fastify';
import { fail } from '../../domain/errors.js';
import type { PayingWallet } from '../../app/operator/supplier-funds.js';

/**
 * Operator routes of UPSTREAM=fragment (under /api/admin/v1, operator token):
 * GET /fragment/wallet: the hot wallet's address, a fresh balance (the last known one when toncenter does
 * not answer), the FRAGMENT_WALLET_MIN_TON threshold and Fragment's state.
 * GET /fragment/payments/{order_id}: the order's payment and its on-chain evidence.
 * Nothing here returns a secret (mnemonic, cookies, api hash).
 */
export function fragmentAdminRoutes(upstream: PayingWallet) {
  return (app: FastifyInstance) => {
    app.get('/fragment/wallet', async () => {
      await upstream.refreshWallet().catch(() => undefined);
      return upstream.walletView();
    });
    app.get<{ Params: { order_id: string } }>('/fragment/payments/:order_id', async (req) => {
      const p = upstream.paymentView(req.params.order_id);
      if (!p) fail('not_found', 'No Fragment payment for this order.');
      return p;
    });
  };
}
