import { fromNano } from '../../domain/money.js';
import { offsetIso } from '../../domain/time-format.js';
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
 * the supplier's answer), the Stars and Premium supplier's record of the payment (`fragment_payment`: amount,
 * comment reference, transaction hash, the supplier's answer) and the TON cost the order was fixed at, as the
 * supplier gives them (GoodsSupplier.paymentEvidence; none from the sandbox), and the gift market's record of the transfer
 * (`sent` with its hash, `none`, or `unavailable` when the market does not answer in time).
 * Amounts in nanoTON are shown in TON with all nine places: they are evidence, not prices.
 */
export async function reviewEvidence(deps: Pick<Deps, 'db' | 'suppliers'>, o: OrderRow) {
  const purchase = getGiftPurchase(deps.db, o.orderId);
  const goods = deps.suppliers.goods.paymentEvidence?.(o.orderId) ?? { payment: null, cost_ton: null };
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
    fragment_payment: goods.payment,
    cost_ton: goods.cost_ton,
    transfer: o.type === 'nft' ? await transferRecord(deps, o.orderId, purchase?.state === 'paid' ? purchase.receipt : null) : null,
  };
}

async function transferRecord(deps: Pick<Deps, 'suppliers'>, orderId: string, paidReceipt: string | null): Promise<{ status: 'sent'; transfer_hash: string } | { status: 'none' } | { status: 'unavailable' }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), TRANSFER_WAIT_MS)));
  try {
    const r = await Promise.race([deps.suppliers.gifts.transferOf(orderId, paidReceipt), late]);
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
