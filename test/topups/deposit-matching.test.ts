import { describe, expect, it } from 'vitest';
import { isTronAddress, normalizeAddress, sameAddress, tonFriendlyAddress, tonRawAddress } from '../../src/domain/chain-address.js';
import {
  AMOUNT_OFFSET,
  COMMENT_CODE_ALPHABET,
  TOPUP_REQUEST_TTL_MS,
  chooseAmountToSend,
  commentTokens,
  displayAmount,
  exactMinor,
  floorMinor,
  knownAsset,
  makeCommentCode,
  matchDeposit,
  endOf,
  ENDED_AMOUNT_HOLD_MS,
  normalizeDecimal,
  unitsToDecimal,
  type DepositAddress,
  type MatchResult,
  type RequestLike,
} from '../../src/domain/deposit-matching.js';
import { SANDBOX_DEPOSIT_ADDRESSES } from '../../src/config/deposit-addresses.js';

/** Pure rules of automatic top-ups: exact amounts, comment codes, chain amounts and matching. */

const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('chooseAmountToSend: the requested amount plus a random offset, unique among open requests and never round', () => {
  const all = (requested: number, currency: 'USD' | 'TON', taken: number[] = []) => {
    const seen: number[] = [];
    for (let i = 0; ; i++) {
      const a = chooseAmountToSend(requested, currency, taken, (n) => (i < n ? i : -1));
      if (a === null || a === undefined) return seen;
      seen.push(a);
    }
  };
  it('USD adds 0.01 to 0.99, TON 0.001 to 0.999, as the randomness source picks', () => {
    expect(AMOUNT_OFFSET).toEqual({ USD: { min: 1, max: 99 }, TON: { min: 1, max: 999 } });
    expect(chooseAmountToSend(10_000, 'USD', [], () => 0)).toBe(10_001);
    expect(chooseAmountToSend(10_000, 'USD', [], (n) => n - 1)).toBe(10_099);
    expect(chooseAmountToSend(10_000, 'USD', [], () => 36)).toBe(10_037);
    expect(chooseAmountToSend(10_000, 'TON', [], () => 0)).toBe(10_001);
    expect(chooseAmountToSend(10_000, 'TON', [], (n) => n - 1)).toBe(10_999);
    // the choice is among exactly the free offsets: the random source is asked for an index below their count
    const asked: number[] = [];
    chooseAmountToSend(10_000, 'USD', [10_001, 10_002, 9_000], (n) => (asked.push(n), 0));
    expect(asked).toEqual([97]);
    expect(all(10_000, 'USD')).toEqual(Array.from({ length: 99 }, (_, i) => 10_001 + i));
    expect(all(10_000, 'TON')).toHaveLength(999);
  });
  it('never the requested round sum itself, nor any other round sum', () => {
    // 25.50 + 0.50 would be 26.00: that offset is skipped
    const usd = all(2550, 'USD');
    expect(usd).toHaveLength(98);
    expect(usd).not.toContain(2600);
    expect(usd).not.toContain(2550);
    expect(usd.every((a) => a > 2550 && a <= 2649 && a % 100 !== 0)).toBe(true);
    const ton = all(12_500, 'TON');
    expect(ton).toHaveLength(998);
    expect(ton).not.toContain(13_000);
    expect(all(10_000, 'USD')).not.toContain(10_000);
  });
  it('skips every amount an open request of the currency holds, and gives up (null) when all are taken', () => {
    const taken = [10_005, 10_006, 10_050];
    const usd = all(10_000, 'USD', taken);
    expect(usd).toHaveLength(96);
    for (const a of taken) expect(usd).not.toContain(a);
    expect(chooseAmountToSend(10_000, 'USD', Array.from({ length: 98 }, (_, i) => 10_001 + i), () => 0)).toBe(10_099);
    expect(chooseAmountToSend(10_000, 'USD', Array.from({ length: 99 }, (_, i) => 10_001 + i), () => 0)).toBeNull();
  });
  it('gives the amount of a request that ended unpaid only when every other offset is taken', () => {
    const held = Array.from({ length: 97 }, (_, i) => 10_001 + i); // 10.01 … 10.97
    const asked: number[] = [];
    expect(chooseAmountToSend(10_000, 'USD', [10_098], (n) => (asked.push(n), 0), held)).toBe(10_099);
    expect(asked).toEqual([1]);
    // 10.99 open too: only held offsets are left, and one of them is given
    expect(chooseAmountToSend(10_000, 'USD', [10_098, 10_099], () => 5, held)).toBe(10_006);
    expect(chooseAmountToSend(10_000, 'USD', [...held, 10_098, 10_099], () => 0, held)).toBeNull();
  });
});

describe('comment codes', () => {
  it('are 6 characters of an alphabet without 0/O, 1/I/L', () => {
    expect(COMMENT_CODE_ALPHABET).not.toMatch(/[01OIL]/);
    let i = 0;
    const code = makeCommentCode((n) => (i++ * 7) % n);
    expect(code).toMatch(new RegExp(`^[${COMMENT_CODE_ALPHABET}]{6}$`));
    expect(makeCommentCode(() => 0)).toBe('AAAAAA');
    expect(makeCommentCode((n) => n - 1)).toBe('999999');
  });
  it('are found in a comment case-insensitively, alone or among other words', () => {
    expect(commentTokens('K7QM4X')).toEqual(['K7QM4X']);
    expect(commentTokens('  k7qm4x ')).toEqual(['K7QM4X']);
    expect(commentTokens('top-up k7qm4x, thx')).toEqual(['K7QM4X']);
    expect(commentTokens('pay K7QM4X thanks')).toEqual(['K7QM4X', 'THANKS']); // candidates; only known codes match
    expect(commentTokens('K7QM4XX')).toEqual([]); // 7 characters: not a code
    expect(commentTokens('K0QM4X')).toEqual([]); // 0 is not in the alphabet
    expect(commentTokens('')).toEqual([]);
    expect(commentTokens(null)).toEqual([]);
  });
});

describe('chain amounts: exact decimals', () => {
  it('converts base units with the token decimals exactly (USDT 6 on TON/TRON, 18 on BSC, TON 9)', () => {
    expect(unitsToDecimal('10500000', 6)).toBe('10.5');
    expect(unitsToDecimal('10010000', 6)).toBe('10.01');
    expect(unitsToDecimal('10010000000000000000', 18)).toBe('10.01');
    expect(unitsToDecimal('10000000000000000001', 18)).toBe('10.000000000000000001');
    expect(unitsToDecimal('10001000000', 9)).toBe('10.001');
    expect(unitsToDecimal('1', 9)).toBe('0.000000001');
    expect(unitsToDecimal(123456789012345678901234567890n, 18)).toBe('123456789012.34567890123456789');
    expect(unitsToDecimal('0', 6)).toBe('0');
  });
  it('gives minor units only for whole cents / milli-TON, with no rounding at 18 places', () => {
    expect(exactMinor('10.01', 'USD')).toBe(1001);
    expect(exactMinor('10.010000000000000000', 'USD')).toBe(1001);
    expect(exactMinor('1000.000000000000000001', 'USD')).toBeNull();
    expect(exactMinor('10.005', 'USD')).toBeNull();
    expect(exactMinor('10.001', 'TON')).toBe(10_001);
    expect(exactMinor('10.0015', 'TON')).toBeNull();
    expect(floorMinor('10.009', 'USD')).toBe(1000);
  });
  it('normalises decimal text and refuses anything else', () => {
    expect(normalizeDecimal('010.500')).toBe('10.5');
    expect(normalizeDecimal(12.25)).toBe('12.25');
    expect(normalizeDecimal('0')).toBe('0');
    for (const bad of ['-1', '1e3', '1,5', '', ' ', 'abc', '.5', null, {}]) expect(normalizeDecimal(bad)).toBeNull();
  });
  it('shows the currency places when exact, else every digit received', () => {
    expect(displayAmount('10.5', 'USD')).toBe('10.50');
    expect(displayAmount('10.005', 'USD')).toBe('10.005');
    expect(displayAmount('10', 'TON')).toBe('10.000');
    expect(displayAmount('123', null)).toBe('123');
  });
  it('knows USDT (also spelled USD₮) and TON; everything else is another token', () => {
    expect(knownAsset('usdt')).toBe('USDT');
    expect(knownAsset('USD₮')).toBe('USDT');
    expect(knownAsset('TON')).toBe('TON');
    expect(knownAsset('NOT')).toBeNull();
    expect(knownAsset('USDC')).toBeNull();
  });
});

describe('addresses', () => {
  const raw = '0:b113a994b5024a16719f69139328eb759596c38a25f59028b146fecdc3621dfe';
  it('TON: raw, bounceable and non-bounceable forms are one account', () => {
    expect(tonRawAddress('EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs')).toBe(raw);
    expect(tonRawAddress(tonFriendlyAddress(raw))).toBe(raw);
    expect(tonFriendlyAddress(raw, true)).toBe('EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs');
    expect(tonRawAddress(raw.toUpperCase().replace('0X', '0x'))).toBe(raw);
    expect(sameAddress('ton', tonFriendlyAddress(raw), raw.toUpperCase())).toBe(true);
    // A changed character breaks the checksum.
    expect(tonRawAddress('EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDt')).toBeNull();
  });
  it('TRON is case-sensitive base58check; BSC compares without case', () => {
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T')).toBe(false);
    expect(sameAddress('trc20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'tr7nhqjekqxgtci8q8zy4pl8otszgjlj6t')).toBe(false);
    expect(normalizeAddress('bep20', '0xABCdef0000000000000000000000000000000001')).toBe('0xabcdef0000000000000000000000000000000001');
  });
  it('the sandbox demo addresses are well-formed and distinct', () => {
    const a = SANDBOX_DEPOSIT_ADDRESSES;
    expect(tonRawAddress(a.DEPOSIT_ADDRESS_USDT_TON)).not.toBeNull();
    expect(tonRawAddress(a.DEPOSIT_ADDRESS_TON)).not.toBeNull();
    expect(tonRawAddress(a.DEPOSIT_ADDRESS_TON)).not.toBe(tonRawAddress(a.DEPOSIT_ADDRESS_USDT_TON));
    expect(isTronAddress(a.DEPOSIT_ADDRESS_USDT_TRC20)).toBe(true);
    expect(a.DEPOSIT_ADDRESS_USDT_BEP20).toMatch(/^0x[0-9a-f]{40}$/);
  });
});

describe('matchDeposit', () => {
  const U_TON = 'UQAC2rQwmBpABbARhPzcvgLNqzKks3afdzHFXVN7TcSRr02A';
  const T_TON = 'UQDP-0CULkl1EbwLrs4i8hrj2mFVu6e33aCLPalaoHeZ20eK';
  const U_TRC = 'TWc1AWZbXZzkqGwJa4dysGKubH7q8uDUYz';
  const U_BEP = '0xb671972287e866dfd9f2e2f626666b010a78a4fe';
  const ADDRS: DepositAddress[] = [
    { asset: 'USDT', network: 'ton', address: U_TON },
    { asset: 'USDT', network: 'trc20', address: U_TRC },
    { asset: 'USDT', network: 'bep20', address: U_BEP },
    { asset: 'TON', network: 'ton', address: T_TON },
  ];
  const req = (id: string, currency: 'USD' | 'TON', amountToSend: number, o: Partial<RequestLike> = {}): RequestLike => ({
    requestId: id,
    partnerId: 1,
    currency,
    amountToSend,
    commentCode: null,
    status: 'open',
    createdAt: NOW - 3600_000,
    expiresAt: NOW - 3600_000 + TOPUP_REQUEST_TTL_MS,
    canceledAt: null,
    ...o,
  });
  const usd = req('rq_usd', 'USD', 1001, { partnerId: 7 });
  const usdBig = req('rq_usd_big', 'USD', 10_000);
  const usdExpired = req('rq_usd_expired', 'USD', 2000, { status: 'expired', expiresAt: NOW - 60_000 });
  const usdLapsed = req('rq_usd_lapsed', 'USD', 3000, { expiresAt: NOW }); // still 'open' in the table, but past expiry
  const ton = req('rq_ton', 'TON', 10_000, { commentCode: 'ABCDEF', partnerId: 8 });
  const ton2 = req('rq_ton2', 'TON', 10_001, { commentCode: 'GHJKMN', partnerId: 9 });
  const tonExpired = req('rq_ton_expired', 'TON', 12_000, { commentCode: 'PQRSTU', status: 'expired', expiresAt: NOW - 1 });
  const tonCredited = req('rq_ton_credited', 'TON', 15_000, { commentCode: 'VWXYZ2', status: 'credited' });
  const usdPaid = req('rq_usd_paid', 'USD', 5000, { status: 'credited' });
  const ALL = [usd, usdBig, usdExpired, usdLapsed, usdPaid, ton, ton2, tonExpired, tonCredited];

  const m = (network: string, asset: string, amount: string, to: string, comment: string | null = null, requests = ALL, addrs = ADDRS): MatchResult =>
    matchDeposit({ network, asset, amount, to, comment }, requests, addrs, NOW);
  const credit = (r: MatchResult) => (r.kind === 'credit' ? { request: r.request.requestId, amount: r.amountMinor, by: r.by, currency: r.currency } : r);
  const reason = (r: MatchResult) => (r.kind === 'unmatched' ? r.reason : r.kind);

  it('USDT on each network to that network\'s address, by exact amount', () => {
    expect(credit(m('trc20', 'USDT', '10.01', U_TRC))).toEqual({ request: 'rq_usd', amount: 1001, by: 'amount', currency: 'USD' });
    expect(credit(m('bep20', 'USDT', '10.010000000000000000', U_BEP.toUpperCase().replace('0X', '0x')))).toEqual({ request: 'rq_usd', amount: 1001, by: 'amount', currency: 'USD' });
    // The TON-network USDT address in raw form is the same account.
    expect(credit(m('ton', 'USD₮', '10.01', tonRawAddress(U_TON)!))).toEqual({ request: 'rq_usd', amount: 1001, by: 'amount', currency: 'USD' });
  });

  it('TON: by the comment code first, else by exact amount', () => {
    expect(credit(m('ton', 'TON', '10.001', T_TON, 'ghjkmn'))).toEqual({ request: 'rq_ton2', amount: 10_001, by: 'comment', currency: 'TON' });
    expect(credit(m('ton', 'TON', '10', T_TON))).toEqual({ request: 'rq_ton', amount: 10_000, by: 'amount', currency: 'TON' });
    expect(credit(m('ton', 'TON', '10.001', T_TON, 'thanks!'))).toEqual({ request: 'rq_ton2', amount: 10_001, by: 'amount', currency: 'TON' });
    // An unknown code falls back to the amount.
    expect(credit(m('ton', 'TON', '10', T_TON, 'ZZZZZZ'))).toEqual({ request: 'rq_ton', amount: 10_000, by: 'amount', currency: 'TON' });
  });

  it('TON: a code of an open request with another amount is wrong_amount for that request, even if the amount pays another', () => {
    const r = m('ton', 'TON', '10.001', T_TON, 'ABCDEF');
    expect(r).toMatchObject({ kind: 'unmatched', reason: 'wrong_amount', request: { requestId: 'rq_ton' } });
    expect(m('ton', 'TON', '10.5', T_TON, 'ABCDEF')).toMatchObject({ kind: 'unmatched', reason: 'wrong_amount', request: { requestId: 'rq_ton' } });
  });

  it('TON: a code names its own request only: an expired one gives expired_request whatever the amount, even an open request\'s', () => {
    expect(m('ton', 'TON', '12', T_TON, 'PQRSTU')).toMatchObject({ kind: 'unmatched', reason: 'expired_request', request: { requestId: 'rq_ton_expired' } });
    expect(m('ton', 'TON', '55', T_TON, 'PQRSTU')).toMatchObject({ kind: 'unmatched', reason: 'expired_request' });
    // 10 is rq_ton's exact amount (partner 8), but the comment names rq_ton_expired: never credited to partner 8
    expect(m('ton', 'TON', '10', T_TON, 'PQRSTU')).toMatchObject({ kind: 'unmatched', reason: 'expired_request', request: { requestId: 'rq_ton_expired' } });
  });

  it('TON: a code of a paid request pays no other request (unknown_request naming it)', () => {
    expect(m('ton', 'TON', '10.001', T_TON, 'VWXYZ2')).toMatchObject({ kind: 'unmatched', reason: 'unknown_request', request: { requestId: 'rq_ton_credited' } });
    expect(m('ton', 'TON', '15', T_TON, 'VWXYZ2')).toMatchObject({ kind: 'unmatched', reason: 'unknown_request', request: { requestId: 'rq_ton_credited' } });
  });

  it('wrong_amount: near an open request, or not a whole number of cents / milli-TON', () => {
    const near = m('trc20', 'USDT', '10.02', U_TRC);
    expect(near).toMatchObject({ kind: 'unmatched', reason: 'wrong_amount', request: { requestId: 'rq_usd' }, amountMinor: 1002, currency: 'USD' });
    expect(m('trc20', 'USDT', '95', U_TRC)).toMatchObject({ reason: 'wrong_amount', request: { requestId: 'rq_usd_big' } });
    expect(m('bep20', 'USDT', '10.015', U_BEP)).toMatchObject({ reason: 'wrong_amount', amountMinor: null, request: { requestId: 'rq_usd' } });
    expect(m('ton', 'TON', '10.0005', T_TON)).toMatchObject({ reason: 'wrong_amount', amountMinor: null });
  });

  it('expired_request: the exact amount of an expired request (also one past expires_at still marked open)', () => {
    expect(m('trc20', 'USDT', '20', U_TRC)).toMatchObject({ kind: 'unmatched', reason: 'expired_request', request: { requestId: 'rq_usd_expired' } });
    expect(m('trc20', 'USDT', '30.00', U_TRC)).toMatchObject({ kind: 'unmatched', reason: 'expired_request', request: { requestId: 'rq_usd_lapsed' } });
    // Just before its expiry it is open and credited.
    expect(credit(matchDeposit({ network: 'trc20', asset: 'USDT', amount: '30', to: U_TRC }, ALL, ADDRS, NOW - 1))).toMatchObject({ request: 'rq_usd_lapsed' });
  });

  it('judged when the transfer was made: before the expiry it pays the request, even one now marked expired', () => {
    const made = usdExpired.expiresAt - 1;
    expect(credit(matchDeposit({ network: 'trc20', asset: 'USDT', amount: '20', to: U_TRC }, ALL, ADDRS, made))).toMatchObject({ request: 'rq_usd_expired', by: 'amount' });
    expect(credit(matchDeposit({ network: 'ton', asset: 'TON', amount: '12', to: T_TON, comment: 'PQRSTU' }, ALL, ADDRS, tonExpired.expiresAt - 1))).toMatchObject({ request: 'rq_ton_expired', by: 'comment' });
  });

  it('a canceled request ended at its cancel time: paid before it, expired_request after it', () => {
    const canceled = req('rq_canceled', 'USD', 4004, { status: 'canceled', canceledAt: NOW - 600_000, partnerId: 3 });
    expect(endOf(canceled)).toBe(NOW - 600_000);
    expect(credit(matchDeposit({ network: 'trc20', asset: 'USDT', amount: '40.04', to: U_TRC }, [canceled], ADDRS, NOW - 600_001))).toMatchObject({ request: 'rq_canceled' });
    expect(matchDeposit({ network: 'trc20', asset: 'USDT', amount: '40.04', to: U_TRC }, [canceled], ADDRS, NOW)).toMatchObject({
      kind: 'unmatched',
      reason: 'expired_request',
      request: { requestId: 'rq_canceled', partnerId: 3 },
      note: expect.stringContaining('was canceled'),
    });
  });

  it("an amount an ended request and another partner's open request share goes to support, never to either", () => {
    const ended = req('rq_a', 'USD', 6006, { status: 'expired', partnerId: 1, expiresAt: NOW - 3600_000 });
    const reused = req('rq_b', 'USD', 6006, { partnerId: 2, createdAt: NOW - 60_000, expiresAt: NOW - 60_000 + TOPUP_REQUEST_TTL_MS });
    expect(matchDeposit({ network: 'trc20', asset: 'USDT', amount: '60.06', to: U_TRC }, [ended, reused], ADDRS, NOW)).toMatchObject({ kind: 'unmatched', reason: 'expired_request', request: { requestId: 'rq_a' } });
    // made before A's request expired and seen now: both were taking payment then, of two partners: support
    expect(matchDeposit({ network: 'trc20', asset: 'USDT', amount: '60.06', to: U_TRC }, [ended, reused], ADDRS, NOW - 3600_001)).toMatchObject({ kind: 'unmatched', reason: 'expired_request', request: { requestId: 'rq_a' } });
    // 30 days after A's request ended its amount is B's alone
    const later = NOW - 3600_000 + ENDED_AMOUNT_HOLD_MS;
    const reusedLater = { ...reused, createdAt: later - 60_000, expiresAt: later + 3600_000 };
    expect(credit(matchDeposit({ network: 'trc20', asset: 'USDT', amount: '60.06', to: U_TRC }, [ended, reusedLater], ADDRS, later))).toMatchObject({ request: 'rq_b' });
  });

  it('below_minimum: under the smallest top-up (USD 5, TON 10)', () => {
    expect(reason(m('trc20', 'USDT', '4.99', U_TRC))).toBe('below_minimum');
    expect(reason(m('trc20', 'USDT', '0', U_TRC))).toBe('below_minimum');
    expect(reason(m('ton', 'TON', '9.999', T_TON))).toBe('below_minimum');
    expect(reason(m('trc20', 'USDT', '5', U_TRC, null, []))).toBe('unknown_request');
  });

  it('unknown_request: an exact amount no request is near', () => {
    expect(m('trc20', 'USDT', '500', U_TRC)).toMatchObject({ kind: 'unmatched', reason: 'unknown_request', request: null, amountMinor: 50_000 });
    expect(reason(m('ton', 'TON', '100', T_TON))).toBe('unknown_request');
    // The amount of a request already paid: unknown_request, naming that request.
    expect(m('trc20', 'USDT', '50', U_TRC)).toMatchObject({ kind: 'unmatched', reason: 'unknown_request', request: { requestId: 'rq_usd_paid' } });
    // Requests of the other currency never match.
    expect(reason(m('trc20', 'USDT', '100', U_TRC, null, [ton]))).toBe('unknown_request');
  });

  it('wrong_address: a stranger\'s address, or the other asset\'s address on the same network', () => {
    expect(reason(m('trc20', 'USDT', '10.01', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'))).toBe('wrong_address');
    expect(reason(m('ton', 'USDT', '10.01', T_TON))).toBe('wrong_address');
    expect(reason(m('ton', 'TON', '10', U_TON))).toBe('wrong_address');
    expect(reason(m('bep20', 'USDT', '10.01', '0x0000000000000000000000000000000000000001'))).toBe('wrong_address');
  });

  it('wrong_network: TON off the TON network, an address of another network, or a network without an address', () => {
    expect(reason(m('bep20', 'TON', '10', U_BEP))).toBe('wrong_network');
    expect(reason(m('trc20', 'TON', '10', U_TRC))).toBe('wrong_network');
    expect(reason(m('bep20', 'USDT', '10.01', U_TRC))).toBe('wrong_network');
    const noBep = ADDRS.filter((a) => a.network !== 'bep20');
    expect(reason(m('bep20', 'USDT', '10.01', U_BEP, null, ALL, noBep))).toBe('wrong_network');
  });

  it('ignored: any other token or coin, whatever the address or amount', () => {
    expect(m('ton', 'NOT', '10', T_TON)).toMatchObject({ kind: 'ignored' });
    expect(m('bep20', 'BNB', '10.01', U_BEP)).toMatchObject({ kind: 'ignored' });
    expect(m('trc20', 'USDC', '10.01', 'elsewhere')).toMatchObject({ kind: 'ignored' });
  });

  it('one address may serve both assets on TON', () => {
    const shared: DepositAddress[] = [
      { asset: 'USDT', network: 'ton', address: T_TON },
      { asset: 'TON', network: 'ton', address: T_TON },
    ];
    expect(credit(m('ton', 'USDT', '10.01', T_TON, null, ALL, shared))).toMatchObject({ request: 'rq_usd' });
    expect(credit(m('ton', 'TON', '10', T_TON, null, ALL, shared))).toMatchObject({ request: 'rq_ton' });
  });
});
