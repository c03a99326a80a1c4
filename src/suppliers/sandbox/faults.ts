import type { GoodsSide } from '../compose.js';
import { UpstreamUnavailable, type GiftMarket, type SandboxFaults } from '../types.js';

/** Seconds a simulated outage asks callers to wait (503 Retry-After, the job's next try). */
const RETRY_AFTER = 30;

/*
 * The simulated faults of PUT /sandbox/faults (operator-api.md section 2) as decorators around the suppliers:
 * the use cases see only the suppliers' port, and a fault reaches them the way a real outage would
 * (UpstreamUnavailable thrown, a `status` that is down). The simulator itself knows nothing of outages.
 * `purchase_funds_low` is a market answer, not an outage: the sandbox market gives it itself.
 * `ledger_unavailable` concerns the service's own idempotency check, not a supplier: it comes in as
 * `Deps.keyLedger` (SandboxUpstream.keyLedger). SandboxUpstream.withFaults puts them around its suppliers.
 */

/** `resolver_error` and `upstream_unavailable.stars|premium` around the Stars and Premium side and its resolver. */
export function goodsWithSimulatedFaults(inner: GoodsSide, faults: () => SandboxFaults): GoodsSide {
  const resolverDown = () => {
    if (faults().resolver_error) throw new UpstreamUnavailable(RETRY_AFTER, 'resolver unavailable');
  };
  const { resolver, goods } = inner;
  return {
    name: inner.name,
    resolver: {
      resolve: async (username) => (resolverDown(), resolver.resolve(username)),
      checkGameUser: async (username) => (resolverDown(), resolver.checkGameUser(username)),
    },
    goods: {
      firstCallDelayMs: goods.firstCallDelayMs,
      costs: () => goods.costs(),
      status: (product) => (faults().upstream_unavailable[product] ? { up: false, retryAfterSec: RETRY_AFTER } : goods.status(product)),
      deliver: async (req) => {
        if (faults().upstream_unavailable[req.product]) throw new UpstreamUnavailable(RETRY_AFTER);
        return goods.deliver(req);
      },
      ...(goods.paymentInFlight ? { paymentInFlight: (orderId: string) => goods.paymentInFlight!(orderId) } : {}),
    },
  };
}

/** `upstream_unavailable.nft` around a gift market: every call to the market stalls, as a market that does not answer. */
export function giftsWithSimulatedFaults(inner: GiftMarket, faults: () => SandboxFaults): GiftMarket {
  const down = () => faults().upstream_unavailable.nft;
  const stall = () => {
    if (down()) throw new UpstreamUnavailable(RETRY_AFTER, 'gift market unavailable');
  };
  return {
    status: () => (down() ? { up: false, retryAfterSec: RETRY_AFTER } : inner.status()),
    collections: async () => (stall(), inner.collections()),
    listings: async (collection) => (stall(), inner.listings(collection)),
    gift: async (gift) => (stall(), inner.gift(gift)),
    feesMilli: () => inner.feesMilli(),
    tonUsdCents: () => inner.tonUsdCents(),
    runStage: async (stage, p) => (stall(), inner.runStage(stage, p)),
    quote: async (p) => (stall(), inner.quote(p)),
    pay: async (p, form) => (stall(), inner.pay(p, form)),
    reconcile: async (p, form) => (stall(), inner.reconcile(p, form)),
    transferOf: async (orderId, paidReceipt) => (stall(), inner.transferOf(orderId, paidReceipt)),
    links: (gift, transferHash) => inner.links(gift, transferHash),
  };
}
