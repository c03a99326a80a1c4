import { formRefusal, milliToNano } from '../../domain/purchase-cap.js';
import { getGiftPurchase, openGiftPurchase, updateGiftPurchase, type GiftPurchaseRow } from '../../store/gift-purchases-repo.js';
import { UpstreamUnavailable, type GiftPurchase, type NftStage, type PurchaseForm } from '../../suppliers/types.js';
import type { Conn } from '../../store/db.js';
import type { Deps } from '../deps.js';

/**
 * Buying an order's gift, with money safety first, for every gift supplier (the sandbox, Telegram's gift
 * marketplace). The rules, in order:
 *   1. before any paid call a purchase record (order, gift, the order's fixed price as the cap) is committed;
 *   2. the supplier's payment form is read and checked here (src/domain/purchase-cap.ts): a form not in TON or
 *      above the cap is refused, nothing paid, the order refunded (`price_above_cap`);
 *   3. the record moves to `paying` in a committed write, then the paid call is made;
 *   4. a paid call without a definite answer (a crash, a timeout, an unknown answer) leaves the record in
 *      `paying`: the next run reconciles with the supplier instead of paying blindly. Proven paid (the
 *      account's payment, the recipient owning the gift) → bought. Proven NOT paid (no payment on the
 *      account and the listing still for sale, UNPAID_PROOF_MS after the call) → tried again with a fresh
 *      form under the same cap, at most MAX_RETRIES times. Anything else stays unknown and goes to manual
 *      review after PAYING_BOUND_MS. Never an automatic refund once money may have gone: a retry that
 *      cannot be paid goes to review too (the earlier call's payment may still surface).
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
/**
 * "No payment found" proves nothing was paid only this long after the paid call: a call still being
 * processed by the market when it was read lands well within it.
 */
export const UNPAID_PROOF_MS = 2 * 60_000;
/** Paid calls that went unanswered and were proven unpaid, tried again at most this many times. */
export const MAX_RETRIES = 2;

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

/**
 * The purchase stage: one step of the rules above per run. `mayPay` false (the order's give-up time has
 * passed): a purchase in `paying` is still reconciled, but no paid call is made; the step waits instead.
 */
export async function runPurchase(deps: PurchaseDeps, p: GiftPurchase, opts: { mayPay?: boolean } = {}): Promise<PurchaseStep> {
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

  if (opts.mayPay === false) return { kind: 'wait', retryAt: clock.now() };

  // 2. the form, checked here before the paid call
  const q = await gifts.quote(p);
  if (q.kind === 'wait') return q;
  // a retry after an unanswered call is never refunded automatically: that call's payment may yet surface
  const retry = rec.unanswered > 0;
  if (q.kind === 'fail') {
    if (retry) return retryRefused(deps, p, q.stage ?? 'pricing', q.reason, 'the market refused the retry before payment');
    return settleUnpaid(deps, p.orderId, q.stage ?? 'pricing', q.reason, 'the market refused before payment');
  }
  const capNano = BigInt(rec.capNano);
  const refused = formRefusal(q.form, capNano);
  if (refused) return retry ? retryRefused(deps, p, 'pricing', refused.reason, refused.detail) : settleUnpaid(deps, p.orderId, 'pricing', refused.reason, refused.detail);

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
      if (out.reason) return retry ? retryRefused(deps, p, out.stage ?? 'pricing', out.reason, out.detail) : settleUnpaid(deps, p.orderId, out.stage ?? 'pricing', out.reason, out.detail);
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
  const since = rec.payingSince ?? rec.updatedAt;
  if (r.kind === 'unpaid') {
    // proof only once a call still in flight would have landed
    if (now - since < UNPAID_PROOF_MS) {
      updateGiftPurchase(db, p.orderId, { detail: `not paid so far (${r.detail}); checked again before a retry`, updatedAt: now });
      return { kind: 'wait', retryAt: since + UNPAID_PROOF_MS };
    }
    if (rec.unanswered >= MAX_RETRIES) {
      const detail = `${rec.unanswered + 1} paid calls without an answer, none paid (${r.detail}): not tried again automatically`;
      updateGiftPurchase(db, p.orderId, { state: 'review', detail, updatedAt: now });
      return { kind: 'review', detail };
    }
    // proven not paid: the next step reads a fresh form and pays it under the same cap
    updateGiftPurchase(db, p.orderId, { state: 'quoting', unanswered: rec.unanswered + 1, detail: `retry: ${r.detail}`, payingSince: null, updatedAt: now });
    return 'unpaid';
  }
  if (now - since >= PAYING_BOUND_MS) {
    updateGiftPurchase(db, p.orderId, { state: 'review', detail: r.detail, updatedAt: now });
    return { kind: 'review', detail: r.detail };
  }
  updateGiftPurchase(db, p.orderId, { detail: r.detail, updatedAt: now });
  return { kind: 'wait', retryAt: now + RECONCILE_POLL_MS };
}

/**
 * A retry (after an unanswered call proven unpaid) that the market refuses: the earlier call is asked
 * about once more. Paid → bought; proven unpaid again (no payment, the listing still for sale) → the
 * refusal ends the order, refunded; anything else → manual review (its payment may yet surface).
 */
async function retryRefused(deps: PurchaseDeps, p: GiftPurchase, stage: NftStage, reason: string, why: string): Promise<PurchaseStep> {
  const rec = getGiftPurchase(deps.db, p.orderId)!;
  let r;
  try {
    r = await deps.suppliers.gifts.reconcile(p, formOf(rec));
  } catch (e) {
    r = { kind: 'unknown' as const, detail: (e as Error).message };
  }
  const now = deps.clock.now();
  if (r.kind === 'paid') {
    updateGiftPurchase(deps.db, p.orderId, { state: 'paid', receipt: r.receipt, updatedAt: now });
    return { kind: 'bought', receipt: r.receipt };
  }
  if (r.kind === 'unpaid') return settleUnpaid(deps, p.orderId, stage, reason, `${why}; the earlier unanswered call: ${r.detail}`);
  const detail = `the retry after an unanswered paid call was refused (${reason}: ${why}); the earlier call: ${r.detail}`;
  updateGiftPurchase(deps.db, p.orderId, { state: 'review', detail, updatedAt: now });
  return { kind: 'review', detail };
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

/**
 * True while money may have gone for the order without a definite answer: a paid call unanswered (`paying`,
 * `review`), or a retry pending after one (an unanswered call proven unpaid, not yet settled).
 */
export function purchaseInFlight(conn: Conn, orderId: string): boolean {
  const r = getGiftPurchase(conn, orderId);
  return r?.state === 'paying' || r?.state === 'review' || (r?.state === 'quoting' && r.unanswered > 0);
}

/** A stalled purchase given up while money may have gone: the record waits for the operator too. */
export function purchaseToReview(conn: Conn, now: number, orderId: string, detail: string): void {
  updateGiftPurchase(conn, orderId, { state: 'review', detail, updatedAt: now });
}

/**
 * A purchase given up before anything could have been paid: its record (made now if the stage never ran)
 * says `unpaid` and why, so nothing is paid for the order later.
 */
export function purchaseAbandoned(conn: Conn, now: number, p: Pick<GiftPurchase, 'orderId' | 'gift' | 'fixedPriceMilli'>, detail: string): void {
  openGiftPurchase(conn, { orderId: p.orderId, gift: p.gift, capNano: milliToNano(p.fixedPriceMilli), now });
  updateGiftPurchase(conn, p.orderId, { state: 'unpaid', detail, updatedAt: now });
}
