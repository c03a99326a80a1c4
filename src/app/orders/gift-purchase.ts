import { formRefusal, milliToNano } from '../../domain/purchase-cap.js';
import { getGiftPurchase, openGiftPurchase, updateGiftPurchase, type GiftPurchaseRow } from '../../store/gift-purchases-repo.js';
import { UpstreamUnavailable, type GiftPurchase, type NftStage, type PurchaseForm } from '../../suppliers/types.js';
import type { Deps } from '../deps.js';

/**
 * Buying an order's gift, with money safety first, for every gift supplier (the sandbox, Telegram's gift
 * marketplace). The rules, in order:
 *   1. before any paid call a purchase record (order, gift, the order's fixed price as the cap) is committed;
 *   2. the supplier's payment form is read and checked here (src/domain/purchase-cap.ts): a form not in TON or
 *      above the cap is refused, nothing paid, the order refunded (`price_above_cap`);
 *   3. the record moves to `paying` in a committed write, then the paid call is made;
 *   4. a paid call without a definite answer (a crash, a timeout, an unknown answer) leaves the record in
 *      `paying`: the next run reconciles with the supplier instead of paying again, and a purchase that stays
 *      unknown for PAYING_BOUND_MS goes to manual review. Never an automatic refund once money may have gone.
 */

export type PurchaseStep =
  /** the gift is bought: the order moves on to its transfer stage */
  | { kind: 'bought'; receipt: string }
  /** nothing was paid and nothing will be: the order fails (refunded) with `reason` at `stage` (never
   * `purchase` or `transfer`: the contract keeps those for manual refunds) */
  | { kind: 'fail'; stage: NftStage; reason: string }
  /** ask again at `retryAt` (nothing paid yet, or a reconciliation still open) */
  | { kind: 'wait'; retryAt: number }
  /** money may have gone without a definite answer: manual review, no refund */
  | { kind: 'review'; detail: string };

/** A purchase still unknown this long after its paid call goes to manual review. */
export const PAYING_BOUND_MS = 30 * 60_000;
/** How often an open reconciliation asks the supplier again. */
const RECONCILE_POLL_MS = 30_000;

type PurchaseDeps = Pick<Deps, 'db' | 'clock' | 'log' | 'suppliers'>;

function formOf(r: GiftPurchaseRow): PurchaseForm {
  return { ref: r.formRef ?? '', currency: r.formCurrency ?? '', amount: r.formAmount ?? '' };
}

/**
 * The pricing stage: the form is read and checked against the cap before the order goes on (a price that
 * rose fails the order early, nothing paid). The purchase stage checks a fresh form again before paying.
 */
export async function checkPrice(deps: PurchaseDeps, p: GiftPurchase): Promise<Extract<PurchaseStep, { kind: 'fail' | 'wait' }> | { kind: 'ok' }> {
  const q = await deps.suppliers.gifts.quote(p);
  if (q.kind === 'wait') return q;
  if (q.kind === 'fail') return { kind: 'fail', stage: q.stage ?? 'pricing', reason: q.reason };
  const refused = formRefusal(q.form, milliToNano(p.fixedPriceMilli));
  return refused ? { kind: 'fail', stage: 'pricing', reason: refused.reason } : { kind: 'ok' };
}

/** The purchase stage: one step of the rules above per run. */
export async function runPurchase(deps: PurchaseDeps, p: GiftPurchase): Promise<PurchaseStep> {
  const { db, clock } = deps;
  const gifts = deps.suppliers.gifts;
  // 1. committed before anything is paid (a single autocommitted insert)
  let rec = openGiftPurchase(db, { orderId: p.orderId, gift: p.gift, capNano: milliToNano(p.fixedPriceMilli), now: clock.now() });
  if (rec.state === 'paid') return { kind: 'bought', receipt: rec.receipt ?? '' };
  if (rec.state === 'review') return { kind: 'review', detail: rec.detail ?? 'purchase in review' };
  if (rec.state === 'unpaid') return { kind: 'fail', stage: 'pricing', reason: 'delivery_failed' };

  if (rec.state === 'paying') {
    const r = await reconcile(deps, p, rec);
    if (r !== 'unpaid') return r;
    rec = getGiftPurchase(db, p.orderId)!;
  }

  // 2. the form, checked here before the paid call
  const q = await gifts.quote(p);
  if (q.kind === 'wait') return q;
  if (q.kind === 'fail') return settleUnpaid(deps, p.orderId, q.stage ?? 'pricing', q.reason, 'the market refused before payment');
  const capNano = BigInt(rec.capNano);
  const refused = formRefusal(q.form, capNano);
  if (refused) return settleUnpaid(deps, p.orderId, 'pricing', refused.reason, refused.detail);

  // 3. `paying` is committed before the paid call
  const now = clock.now();
  updateGiftPurchase(db, p.orderId, { state: 'paying', formRef: q.form.ref, formCurrency: q.form.currency, formAmount: q.form.amount, attempts: rec.attempts + 1, payingSince: now, detail: null, updatedAt: now });
  let out;
  try {
    out = await gifts.pay(p, q.form);
  } catch (e) {
    // a throw from the paid call is no answer: the money may have gone
    deps.log.warn({ orderId: p.orderId, err: e }, 'gift purchase: paid call without an answer, to be reconciled');
    updateGiftPurchase(db, p.orderId, { detail: `no answer: ${(e as Error).message}`, updatedAt: clock.now() });
    return { kind: 'wait', retryAt: clock.now() + RECONCILE_POLL_MS };
  }
  const at = clock.now();
  switch (out.kind) {
    case 'paid':
      updateGiftPurchase(db, p.orderId, { state: 'paid', receipt: out.receipt, updatedAt: at });
      return { kind: 'bought', receipt: out.receipt };
    case 'unpaid':
      // definite: nothing was paid. A reason ends the order; none means read the form again (it expired…)
      if (out.reason) return settleUnpaid(deps, p.orderId, out.stage ?? 'pricing', out.reason, out.detail);
      updateGiftPurchase(db, p.orderId, { state: 'quoting', detail: out.detail, payingSince: null, updatedAt: at });
      return { kind: 'wait', retryAt: out.retryAt ?? at };
    case 'unknown':
      updateGiftPurchase(db, p.orderId, { detail: out.detail, updatedAt: at });
      return { kind: 'wait', retryAt: at + RECONCILE_POLL_MS };
  }
}

/** 4. A purchase left in `paying`: paid, provably unpaid (the form may be read again), or still unknown. */
async function reconcile(deps: PurchaseDeps, p: GiftPurchase, rec: GiftPurchaseRow): Promise<PurchaseStep | 'unpaid'> {
  const { db, clock } = deps;
  let r;
  try {
    r = await deps.suppliers.gifts.reconcile(p, formOf(rec));
  } catch (e) {
    if (!(e instanceof UpstreamUnavailable)) deps.log.warn({ orderId: p.orderId, err: e }, 'gift purchase: reconciliation failed');
    r = { kind: 'unknown' as const, detail: `the market did not answer the reconciliation: ${(e as Error).message}` };
  }
  const now = clock.now();
  if (r.kind === 'paid') {
    updateGiftPurchase(db, p.orderId, { state: 'paid', receipt: r.receipt, updatedAt: now });
    return { kind: 'bought', receipt: r.receipt };
  }
  if (r.kind === 'unpaid') {
    updateGiftPurchase(db, p.orderId, { state: 'quoting', detail: r.detail, payingSince: null, updatedAt: now });
    return 'unpaid';
  }
  if (now - (rec.payingSince ?? rec.updatedAt) >= PAYING_BOUND_MS) {
    updateGiftPurchase(db, p.orderId, { state: 'review', detail: r.detail, updatedAt: now });
    return { kind: 'review', detail: r.detail };
  }
  updateGiftPurchase(db, p.orderId, { detail: r.detail, updatedAt: now });
  return { kind: 'wait', retryAt: now + RECONCILE_POLL_MS };
}

function settleUnpaid(deps: PurchaseDeps, orderId: string, stage: NftStage, reason: string, detail: string): PurchaseStep {
  updateGiftPurchase(deps.db, orderId, { state: 'unpaid', detail: `${reason}: ${detail}`, updatedAt: deps.clock.now() });
  return { kind: 'fail', stage, reason };
}

/** The receipt of an order's paid purchase, if any (the transfer stage, an operator's resolution). */
export function purchaseReceipt(deps: Pick<Deps, 'db'>, orderId: string): string | null {
  const r = getGiftPurchase(deps.db, orderId);
  return r?.state === 'paid' ? r.receipt : null;
}

/** True while a paid call for the order may have gone without a definite answer. */
export function purchaseInFlight(deps: Pick<Deps, 'db'>, orderId: string): boolean {
  const r = getGiftPurchase(deps.db, orderId);
  return r?.state === 'paying' || r?.state === 'review';
}
