/**
 * The price cap of a gift purchase (pure): nothing is ever bought above the price the order fixed. Checked
 * by the application against the supplier's payment form before every paid call, whatever the supplier.
 */

/** milli-TON (the order's `gift.price_ton`) → nanoTON. */
export function milliToNano(milli: number): bigint {
  return BigInt(milli) * 1_000_000n;
}

/** Why a payment form may not be paid for an order capped at `capNano`, or null when it may. */
export function formRefusal(form: { currency: string; amount: string }, capNano: bigint): { reason: 'price_above_cap' | 'invalid_upstream_price'; detail: string } | null {
  if (!/^\d{1,30}$/.test(form.amount)) return { reason: 'invalid_upstream_price', detail: `form amount ${JSON.stringify(form.amount)} is not a whole number of the smallest unit` };
  // a form in Stars (or any currency but TON) is never paid: the order's price is in TON
  if (form.currency !== 'TON') return { reason: 'price_above_cap', detail: `form in ${form.currency}, not TON` };
  const amount = BigInt(form.amount);
  if (amount <= 0n) return { reason: 'invalid_upstream_price', detail: 'form amount is not positive' };
  if (amount > capNano) return { reason: 'price_above_cap', detail: `form amount ${amount} nanoTON above the order's fixed ${capNano}` };
  return null;
}
