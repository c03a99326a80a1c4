import { fromNano } from '../../config/fragment.js';
import { offsetIso } from '../../domain/time-format.js';
import { fragmentOrderCostNano, getPayment } from '../../store/fragment-payments-repo.js';
import { getGiftPurchase } from '../../store/gift-purchases-repo.js';
import { ordersInReview, type OrderRow } from '../../store/orders-repo.js';
import { GiftsDisabled, UpstreamUnavailable } from '../../suppliers/types.js';
import type { Deps } from '../deps.js';
import { operatorOrderView } from '../orders/review.js';

/** The most a review list waits for the gift market's transfer record of one order (real time). */
const TRANSFER_WAIT_MS = 3_000;

/** The console's review list: the operator API's GET /reviews items, each with the supplier's evidence. */
export async function reviewsWithEvidence(deps: Pick<Deps, 'db' | 'suppliers'>) {
  const rows = ordersInReview(deps.db);
  return { items: await Promise.all(rows.map(async (o) => ({ ...operatorOrderView(deps, o), evidence: await reviewEvidence(deps, o) }))) };
}

const iso = (ms: number | null) => (ms === null ? null : offsetIso(ms));

/**
 * What the supplier side recorded for an order waiting for review, so an operator decides on evidence:
 * the gift purchase record (the payment form checked against the order's cap, the paid call's receipt or
 * the supplier's answer), the Fragment payment (amount, comment reference, transaction hash, the
 * supplier's answer), the TON cost the order was fixed at, and the gift market's record of the transfer
 * (`sent` with its hash, `none`, or `unavailable` when the market does not answer in time).
 * Amounts in nanoTON are shown in TON with all nine places: they are evidence, not prices.
 */
export async function reviewEvidence(deps: Pick<Deps, 'db' | 'suppliers'>, o: OrderRow) {
  const purchase = getGiftPurchase(deps.db, o.orderId);
  const payment = getPayment(deps.db, o.orderId);
  const cost = fragmentOrderCostNano(deps.db, o.orderId);
  return {
    gift_purchase: purchase
      ? {
          state: purchase.state,
          cap_ton: fromNano(BigInt(purchase.capNano)),
          form:
            purchase.formRef === null
              ? null
              : {
                  ref: purchase.formRef,
                  currency: purchase.formCurrency,
                  amount: purchase.formAmount,
                  ...(purchase.formCurrency === 'TON' && purchase.formAmount && /^\d{1,30}$/.test(purchase.formAmount) ? { amount_ton: fromNano(BigInt(purchase.formAmount)) } : {}),
                },
          receipt: purchase.receipt,
          supplier_answer: purchase.detail,
          attempts: purchase.attempts,
          paying_since: iso(purchase.payingSince),
          updated_at: offsetIso(purchase.updatedAt),
        }
      : null,
    fragment_payment: payment
      ? {
          state: payment.state,
          amount_ton: fromNano(BigInt(payment.amountNano)),
          ref: payment.ref,
          tx_hash: payment.txHash,
          supplier_answer: payment.detail,
          attempts: payment.attempts,
          confirmed_at: iso(payment.confirmedAt),
          updated_at: offsetIso(payment.updatedAt),
        }
      : null,
    cost_ton: cost === null ? null : fromNano(cost),
    transfer: o.type === 'nft' ? await transferRecord(deps, o.orderId) : null,
  };
}

async function transferRecord(deps: Pick<Deps, 'suppliers'>, orderId: string): Promise<{ status: 'sent'; transfer_hash: string } | { status: 'none' } | { status: 'unavailable' }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), TRANSFER_WAIT_MS)));
  try {
    const r = await Promise.race([deps.suppliers.gifts.transferOf(orderId), late]);
    if (r === 'late') return { status: 'unavailable' };
    return r ? { status: 'sent', transfer_hash: r.transferHash } : { status: 'none' };
  } catch (e) {
    // a market that stalls, or gifts switched off: the list still shows, without the market's record
    if (e instanceof UpstreamUnavailable || e instanceof GiftsDisabled) return { status: 'unavailable' };
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
