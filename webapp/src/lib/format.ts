/** A service timestamp (ISO 8601; one without an offset is UTC wall-clock time) in the user's locale and zone. */
export function fmtTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(/[zZ]|[+-]\d\d:\d\d$/.test(iso) ? iso : iso + 'Z');
  return d.toLocaleString(document.documentElement.lang, { dateStyle: 'short', timeStyle: 'short' });
}

/** max_price: the current price plus a tolerance in per cent, rounded up to 0.001 TON (exact integer arithmetic). */
export function maxPriceOf(price: string, percent: number): string {
  const milli = Math.round(Number(price) * 1000);
  const max = Math.ceil((milli * (100 + percent)) / 100);
  return (max / 1000).toFixed(3);
}

/** ton://transfer/<address>?amount=<nanotons>&text=<code>: opens a TON wallet with amount and comment filled in. */
export function tonTransferLink(address: string, amountTon: string, code?: string): string {
  const [whole, frac = ''] = amountTon.split('.');
  const nanotons = (BigInt(whole) * 1_000_000_000n + BigInt((frac + '000000000').slice(0, 9))).toString();
  return `ton://transfer/${address}?amount=${nanotons}${code ? `&text=${encodeURIComponent(code)}` : ''}`;
}

/** The hour of a service timestamp in the user's zone: "14:00". */
export function fmtHour(iso: string): string {
  return new Date(iso).toLocaleTimeString(document.documentElement.lang, { hour: '2-digit', minute: '2-digit' });
}
