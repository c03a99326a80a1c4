import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../../app/deps.js';
import { fail } from '../../domain/errors.js';
import ipaddr from 'ipaddr.js';
import { offsetIso } from '../../domain/time-format.js';
import { parseAmount } from '../../domain/money.js';
import type { SandboxControl } from '../../app/sandbox-control.js';
import { parseOrFail } from '../../app/requests/parse.js';

/** Sandbox-only operator routes (operator-api.md section 2, second table), on the simulator's controls (SandboxControl). */

/** The sandbox clock: moves forward, running the jobs that fall due (the scheduler's `advance`). */
export type AdvanceClock = (ms: number) => Promise<number>;

const money = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const m = parseAmount(String(v), 'USD');
  if (m === null) {
    ctx.addIssue({ code: 'custom', message: 'must be a USD amount with at most 2 decimals' });
    return z.NEVER;
  }
  return m;
});

const marketSchema = z
  .object({
    stars_per_1000_cost: money.optional(),
    premium_cost: z.object({ '3': money.optional(), '6': money.optional(), '12': money.optional() }).strict().optional(),
    unavailable: z.boolean().optional(),
  })
  .strict();

const faultsSchema = z
  .object({
    ledger_unavailable: z.boolean().optional(),
    resolver_error: z.boolean().optional(),
    upstream_unavailable: z.object({ stars: z.boolean().optional(), premium: z.boolean().optional(), nft: z.boolean().optional() }).strict().optional(),
    purchase_funds_low: z.boolean().optional(),
  })
  .strict();

const tonAmount = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const m = parseAmount(String(v), 'TON');
  if (m === null || m <= 0) {
    ctx.addIssue({ code: 'custom', message: 'must be a positive TON amount with at most 3 decimals' });
    return z.NEVER;
  }
  return m;
});
const giftSchema = (outcomes: readonly string[]) =>
  z
    .object({
      price_ton: tonAmount.optional(),
      available: z.boolean().optional(),
      reserved: z.boolean().optional(),
      outcome: z.string().refine((o) => outcomes.includes(o), `must be one of ${outcomes.join(', ')}`).optional(),
    })
    .strict();

const advanceSchema = z.object({ seconds: z.number().min(0).max(400 * 86_400) }).strict();
const dnsSchema = z.object({ addresses: z.array(z.string().refine((s) => ipaddr.isValid(s), 'must be an IP address')).min(1) }).strict();
const accountSchema = z.object({ premium_until: z.string().nullable() }).strict();

function parse<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  return parseOrFail(schema, body ?? {});
}

export function sandboxRoutes(deps: Pick<Deps, 'clock'>, sandbox: SandboxControl, advance: AdvanceClock) {
  const gift = giftSchema(sandbox.gifts.outcomes);
  return (app: FastifyInstance) => {
    app.get('/sandbox/clock', async () => ({ now: offsetIso(deps.clock.now()) }));
    app.post('/sandbox/clock/advance', async (req) => {
      const { seconds } = parse(advanceSchema, req.body);
      const now = await advance(Math.round(seconds * 1000));
      return { now: offsetIso(now) };
    });

    app.put('/sandbox/market', async (req) => {
      const p = parse(marketSchema, req.body);
      const m = sandbox.getMarket();
      sandbox.setMarket({
        stars_per_1000_cost: p.stars_per_1000_cost ?? m.stars_per_1000_cost,
        premium_cost: {
          '3': p.premium_cost?.['3'] ?? m.premium_cost['3'],
          '6': p.premium_cost?.['6'] ?? m.premium_cost['6'],
          '12': p.premium_cost?.['12'] ?? m.premium_cost['12'],
        },
        unavailable: p.unavailable ?? m.unavailable,
      });
      return marketView(sandbox);
    });
    app.get('/sandbox/market', async () => marketView(sandbox));

    app.put('/sandbox/faults', async (req) => {
      const p = parse(faultsSchema, req.body);
      const f = sandbox.getFaults();
      sandbox.setFaults({
        ledger_unavailable: p.ledger_unavailable ?? f.ledger_unavailable,
        resolver_error: p.resolver_error ?? f.resolver_error,
        upstream_unavailable: { ...f.upstream_unavailable, ...p.upstream_unavailable },
        purchase_funds_low: p.purchase_funds_low ?? f.purchase_funds_low,
      });
      return sandbox.getFaults();
    });
    app.get('/sandbox/faults', async () => sandbox.getFaults());

    app.put<{ Params: { gift: string } }>('/sandbox/gifts/:gift', async (req) => {
      const p = parse(gift, req.body);
      const ok = sandbox.gifts.update(req.params.gift, {
        priceMilli: p.price_ton,
        available: p.available,
        reserved: p.reserved,
        outcome: p.outcome === 'ok' ? '' : p.outcome,
      });
      if (!ok) fail('not_found', 'No such gift in the sandbox market.');
      const g = (await sandbox.gifts.gift(req.params.gift))!;
      return { gift: g.gift, price_ton: (g.priceMilli / 1000).toFixed(3), available: g.available, reserved: g.reserved, outcome: p.outcome ?? null };
    });

    app.put<{ Params: { hostname: string } }>('/sandbox/dns/:hostname', async (req) => {
      const p = parse(dnsSchema, req.body);
      sandbox.setDns(req.params.hostname, p.addresses);
      return { hostname: req.params.hostname.toLowerCase(), addresses: p.addresses };
    });
    app.delete<{ Params: { hostname: string } }>('/sandbox/dns/:hostname', async (req) => {
      if (!sandbox.deleteDns(req.params.hostname)) fail('not_found', 'No such host entry.');
      return { hostname: req.params.hostname.toLowerCase(), deleted: true };
    });

    // Extension (documented in the README): set when a sandbox account's Premium subscription ends.
    app.put<{ Params: { username: string } }>('/sandbox/accounts/:username', async (req) => {
      const p = parse(accountSchema, req.body);
      const until = p.premium_until === null ? null : Date.parse(p.premium_until);
      if (until !== null && Number.isNaN(until)) fail('validation_error', 'premium_until must be an ISO 8601 time or null.');
      try {
        sandbox.setPremiumUntil(req.params.username, until);
      } catch {
        fail('validation_error', 'Not a sandbox username.');
      }
      return { username: req.params.username, premium_until: until === null ? null : offsetIso(until) };
    });
  };
}

function marketView(s: SandboxControl) {
  const m = s.getMarket();
  const f = (c: number) => (c / 100).toFixed(2);
  return {
    stars_per_1000_cost: f(m.stars_per_1000_cost),
    premium_cost: { '3': f(m.premium_cost['3']), '6': f(m.premium_cost['6']), '12': f(m.premium_cost['12']) },
    unavailable: m.unavailable,
  };
}

/** GET /sandbox/gifts/<gift>.svg (sandbox mode, no auth): the picture a sandbox gift's `image` points to. */
export function sandboxPictureRoutes(sandbox: Pick<SandboxControl, 'gifts'>) {
  return async (app: FastifyInstance) => {
    app.get<{ Params: { file: string } }>('/sandbox/gifts/:file', async (req, reply) => {
      const m = /^([A-Za-z]+-\d{1,9})\.svg$/.exec(req.params.file);
      const svg = m ? sandbox.gifts.picture(m[1]) : null;
      if (!svg) fail('not_found', 'No such gift picture.');
      // The same gift always has the same picture.
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'").send(svg);
    });
  };
}
