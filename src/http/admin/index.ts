import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../app/deps.js';
import type { KeyCache } from '../../app/keys.js';
import { fail } from '../../domain/errors.js';
import type { PayingWallet } from '../../app/operator/supplier-funds.js';
import type { SandboxControl } from '../../app/sandbox-control.js';
import { fragmentAdminRoutes } from './fragment-routes.js';
import { operatorRoutes } from './operator-routes.js';
import { sandboxDepositRoutes } from './sandbox-deposit-routes.js';
import { sandboxRoutes, type AdvanceClock } from './sandbox-routes.js';
import { topupRoutes } from './topup-routes.js';

export interface AdminContext {
  deps: Deps;
  keys: KeyCache;
  adminToken: string | undefined;
  /** The sandbox clock routes move the clock and run the jobs that fall due. */
  advanceClock: AdvanceClock;
  /** The sandbox supplier: its routes exist only when it is the upstream (UPSTREAM=sandbox). */
  sandbox: SandboxControl;
  /** The Fragment hot wallet when UPSTREAM=fragment: its wallet and payment views. */
  payingWallet: PayingWallet | null;
}

function tokenMatches(given: string | undefined, expected: string | undefined): boolean {
  if (!expected || !given) return false;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(given);
  if (!m) return false;
  // equal-length digests: a constant-time comparison that does not leak the token's length
  const a = crypto.createHash('sha256').update(m[1]).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

/** The operator API, /api/admin/v1 (operator-api.md section 2): every route behind the operator token. */
export function adminApi(ctx: AdminContext) {
  const { deps } = ctx;
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', async (req) => {
      if (!tokenMatches(req.headers.authorization, ctx.adminToken)) fail('unauthorized', 'Missing or invalid operator token.');
    });
    operatorRoutes(deps, ctx.keys)(app);
    topupRoutes(deps)(app);
    if (ctx.payingWallet) fragmentAdminRoutes(ctx.payingWallet)(app);
    if (deps.config.UPSTREAM === 'sandbox') {
      sandboxRoutes(deps, ctx.sandbox, ctx.advanceClock)(app);
      sandboxDepositRoutes(deps)(app);
    }
  };
}
