import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../../app/deps.js';
import { recordDeposit, requiredConfirmations } from '../../app/deposits/record.js';
import { DEPOSIT_NETWORKS } from '../../domain/chain-address.js';
import { normalizeDecimal } from '../../domain/deposit-matching.js';
import { fail } from '../../domain/errors.js';
import { parseOrFail } from '../../app/requests/parse.js';

/**
 * POST /sandbox/deposits (operator-api.md section 2, sandbox table): a chain transfer as a watcher would
 * see it. It goes through the same record-and-match service as the watchers. `confirmations` below the
 * network's requirement records the deposit `pending`; a later report of the same transaction with
 * enough confirmations processes it. Answers 201 with the deposit when this report recorded it, 200 with
 * the deposit already recorded for that (network, tx_hash) otherwise.
 */

const schema = z
  .object({
    network: z.enum(DEPOSIT_NETWORKS as unknown as ['ton', 'trc20', 'bep20'], { error: 'must be ton, trc20 or bep20' }),
    asset: z.string().trim().min(1).max(64),
    amount: z.union([z.string(), z.number()]).transform((v, ctx) => {
      const d = normalizeDecimal(v);
      if (d === null) {
        ctx.addIssue({ code: 'custom', message: 'must be a non-negative decimal string' });
        return z.NEVER;
      }
      return d;
    }),
    to: z.string().trim().min(1).max(200),
    tx_hash: z.string().trim().min(1).max(200),
    from: z.string().trim().min(1).max(200).nullable().optional(),
    comment: z.string().max(1000).nullable().optional(),
    confirmations: z.number().int().min(0).max(1_000_000).optional(),
  })
  .strict();

/** What sandboxDepositRoutes uses of the service. */
export type SandboxDepositRoutesDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'ids' | 'log' | 'bus'>;

export function sandboxDepositRoutes(deps: SandboxDepositRoutesDeps) {
  return (app: FastifyInstance) => {
    app.post('/sandbox/deposits', async (req, reply) => {
      const body = req.body ?? {};
      if (typeof body !== 'object' || Array.isArray(body)) fail('validation_error', 'The body must be a JSON object.');
      const p = parseOrFail(schema, body);
      const result = recordDeposit(
        deps,
        {
          network: p.network,
          asset: p.asset,
          amount: p.amount,
          to: p.to,
          txHash: p.tx_hash,
          from: p.from ?? null,
          comment: p.comment ?? null,
          confirmations: p.confirmations ?? requiredConfirmations(deps.config, p.network),
        },
        'sandbox',
        'operator',
      );
      reply.code(result.created ? 201 : 200);
      return result.deposit;
    });
  };
}
