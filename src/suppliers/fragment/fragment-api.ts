import { request } from 'undici';

/**
 * Fragment's web API (the form POSTs fragment.com's own pages make to `/api?hash=…`), written here rather
 * than taken from a published client: at least one such client adds a hidden fee payment to every
 * transfer. The methods, fields and answers follow public client libraries' source (README "Fragment").
 */

export type FragmentProduct = 'stars' | 'premium';

/** Why Fragment cannot be used now: new orders get 503, accepted orders wait, operators are alerted. */
export type FragmentProblem = 'session_expired' | 'need_verify' | 'unreachable';

export class FragmentDown extends Error {
  constructor(
    readonly problem: FragmentProblem,
    detail: string,
  ) {
    super(`fragment ${problem}: ${detail}`);
  }
}

/** Fragment asked to slow down (HTTP 429): no call is made before `retryAfterSec` has passed. */
export class FragmentBusy extends Error {
  constructor(readonly retryAfterSec: number) {
    super(`fragment rate limit: retry in ${retryAfterSec} s`);
  }
}

/** Fragment answered with an error about this request (not about the session). */
export class FragmentRejected extends Error {}

/** initGiftPremiumRequest: the recipient has an active Premium subscription (the order waits, nothing is paid). */
export class FragmentAlreadyPremium extends FragmentRejected {}

export interface FoundRecipient {
  recipient: string;
  name: string;
}

export type SearchResult = { kind: 'found'; found: FoundRecipient } | { kind: 'not_found' } | { kind: 'already_premium' };

export interface InitResult {
  reqId: string;
  /** Fragment's price for this request in TON, as it answered (a decimal string). */
  amountTon: string;
}

export interface LinkMessage {
  address: string;
  amount: string;
  payload?: string;
}

export interface LinkTransaction {
  validUntil: number;
  messages: LinkMessage[];
}

/** How Fragment's page reports a sent transaction (`confirm_method`, `confirm_params` of the getXLink answer). */
export interface LinkConfirm {
  method: string;
  params: Record<string, string>;
}

export interface LinkAnswer {
  transaction: LinkTransaction;
  confirm: LinkConfirm | null;
}

/** The wallet as a TON Connect wallet describes itself to Fragment's getXLink methods. */
export interface WalletAccount {
  address: string;
  chain: '-239';
  walletStateInit: string;
  publicKey: string;
}

const METHODS = {
  stars: { search: 'searchStarsRecipient', state: 'updateStarsBuyState', init: 'initBuyStarsRequest', link: 'getBuyStarsLink', page: 'stars/buy' },
  premium: { search: 'searchPremiumGiftRecipient', state: 'updatePremiumState', init: 'initGiftPremiumRequest', link: 'getGiftPremiumLink', page: 'premium/gift' },
} as const;

/** Fragment answers HTTP 200 `{error: "Bad request"}` when the page `hash` is unknown or stale: the session must be renewed. */
const BAD_HASH = 'Bad request';

const DEVICE = JSON.stringify({
  platform: 'linux',
  appName: 'partner-ordering-service',
  appVersion: '1',
  maxProtocolVersion: 2,
  features: ['SendTransaction', { name: 'SendTransaction', maxMessages: 4 }],
});

const TIMEOUT_MS = 15_000;
/** Backoff after a 429 without Retry-After: doubling from the first to the last. */
const BACKOFF_FIRST_SEC = 5;
const BACKOFF_MAX_SEC = 300;

/** A 403 from Cloudflare's edge (a challenge or a block) rather than from Fragment: not a session problem. */
function isCloudflare(headers: Record<string, string | string[] | undefined>, text: string): boolean {
  return headers['cf-mitigated'] !== undefined || /cloudflare|just a moment|cf-chl|attention required/i.test(text);
}

/** The page's api hash as Fragment's pages embed it (`"apiUrl":"\/api?hash=…"`). */
export function hashFromPage(html: string): string | null {
  const m = /[?&]hash=([0-9a-fA-F]{8,64})/.exec(html);
  return m ? m[1] : null;
}

/** An answer saying the page hash is stale or the session is gone: the hash is re-read once before giving up. */
class StaleSession extends FragmentDown {}

export class FragmentApi {
  /** No call before this (unix seconds): Fragment asked to slow down. */
  private pausedUntilSec = 0;
  private backoffSec = 0;

  constructor(
    private readonly baseUrl: string,
    /** The page hash: configured, then re-read from the page when Fragment calls it stale. */
    private hash: string,
    private readonly cookies: Record<string, string>,
    /** unix seconds, for the page-state nonce and the 429 backoff (the service clock) */
    private readonly nowSec: () => number,
  ) {}

  private cookieHeader(): string {
    return Object.entries(this.cookies)
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
  }

  /**
   * One API call. Transport failures, 5xx and non-JSON answers are `unreachable`; a 429 pauses every call
   * for its Retry-After (else a doubling backoff); a stale hash or an expired session is retried once with
   * the hash read afresh from the page.
   */
  async call(method: string, params: Record<string, string>, page: string): Promise<Record<string, unknown>> {
    const now = this.nowSec();
    if (now < this.pausedUntilSec) throw new FragmentBusy(this.pausedUntilSec - now);
    try {
      return await this.once(method, params, page);
    } catch (e) {
      if (!(e instanceof StaleSession)) throw e;
      const fresh = await this.rereadHash(page);
      if (fresh === null || fresh === this.hash) throw e;
      this.hash = fresh;
      return this.once(method, params, page);
    }
  }

  /** Reads the page's current api hash (with the session cookies); null when the page shows none. */
  private async rereadHash(page: string): Promise<string | null> {
    try {
      const res = await request(`${this.baseUrl}/${page}`, {
        method: 'GET',
        headers: { accept: 'text/html', cookie: this.cookieHeader() },
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
      const text = await res.body.text();
      return res.statusCode === 200 ? hashFromPage(text) : null;
    } catch {
      return null;
    }
  }

  private async once(method: string, params: Record<string, string>, page: string): Promise<Record<string, unknown>> {
    const body = new URLSearchParams({ ...params, method }).toString();
    let res;
    try {
      res = await request(`${this.baseUrl}/api?hash=${encodeURIComponent(this.hash)}`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
          accept: 'application/json, text/javascript, */*; q=0.01',
          'x-requested-with': 'XMLHttpRequest',
          origin: this.baseUrl,
          referer: `${this.baseUrl}/${page}`,
          cookie: this.cookieHeader(),
        },
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
    } catch (e) {
      throw new FragmentDown('unreachable', (e as Error).message);
    }
    const text = await res.body.text();
    if (res.statusCode === 429) {
      const asked = Number(res.headers['retry-after']);
      this.backoffSec = Math.min(BACKOFF_MAX_SEC, this.backoffSec ? this.backoffSec * 2 : BACKOFF_FIRST_SEC);
      const wait = Number.isInteger(asked) && asked > 0 ? Math.min(asked, BACKOFF_MAX_SEC) : this.backoffSec;
      this.pausedUntilSec = this.nowSec() + wait;
      throw new FragmentBusy(wait);
    }
    this.backoffSec = 0;
    if (res.statusCode === 403 && isCloudflare(res.headers, text)) throw new FragmentDown('unreachable', 'HTTP 403 from Cloudflare (a challenge or a block of this address, not the session)');
    if (res.statusCode === 401 || res.statusCode === 403 || (res.statusCode >= 300 && res.statusCode < 400))
      throw new FragmentDown('session_expired', `HTTP ${res.statusCode}`);
    if (res.statusCode !== 200) throw new FragmentDown('unreachable', `HTTP ${res.statusCode}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new FragmentDown('unreachable', 'answer is not JSON');
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new FragmentDown('unreachable', 'answer is not an object');
    const o = json as Record<string, unknown>;
    if (o.need_verify) throw new FragmentDown('need_verify', 'Fragment asks to verify the account (KYC)');
    const err = errorText(o.error);
    if (err === BAD_HASH) throw new StaleSession('session_expired', 'Fragment refused the page hash, also after reading it again from the page (renew the session: FRAGMENT_COOKIES, FRAGMENT_HASH)');
    if (err !== null && /session|log ?in|auth|access denied/i.test(err)) throw new StaleSession('session_expired', err);
    return o;
  }

  async search(product: FragmentProduct, username: string, months = 3): Promise<SearchResult> {
    const m = METHODS[product];
    const params: Record<string, string> = product === 'stars' ? { query: username, quantity: '' } : { query: username, months: String(months) };
    const o = await this.call(m.search, params, m.page);
    const err = errorText(o.error);
    if (err !== null) {
      if (/already subscribed/i.test(err)) return { kind: 'already_premium' };
      // "Please enter a username assigned to a user": the name is a channel, a bot or free
      if (/no telegram users found|not found|can.?t gift|cannot|assigned to a user/i.test(err)) return { kind: 'not_found' };
      throw new FragmentRejected(err);
    }
    const found = o.found as Record<string, unknown> | undefined;
    if (!found || typeof found.recipient !== 'string' || !found.recipient) return { kind: 'not_found' };
    return { kind: 'found', found: { recipient: found.recipient, name: typeof found.name === 'string' ? found.name : username } };
  }

  /**
   * Opens a purchase request as the page does: its state call (`mode: new`), then the init call, paid in TON.
   * Throws FragmentAlreadyPremium when Fragment says the recipient already has Premium.
   */
  async init(product: FragmentProduct, recipient: string, quantity: number): Promise<InitResult> {
    const m = METHODS[product];
    await this.call(m.state, { mode: 'new', lv: 'false', dh: String(this.nowSec()) }, m.page);
    const params: Record<string, string> = product === 'stars' ? { recipient, quantity: String(quantity) } : { recipient, months: String(quantity) };
    const o = await this.call(m.init, { ...params, payment_method: 'ton' }, m.page);
    const err = errorText(o.error);
    if (err !== null) {
      if (/already subscribed/i.test(err)) throw new FragmentAlreadyPremium(err);
      throw new FragmentRejected(err);
    }
    // Fragment writes large amounts with thousands separators ("1,234.5")
    const amount = (typeof o.amount === 'number' ? String(o.amount) : typeof o.amount === 'string' ? o.amount : '').replace(/,/g, '');
    if (typeof o.req_id !== 'string' || !o.req_id || !/^\d+(\.\d+)?$/.test(amount))
      throw new FragmentDown('unreachable', `${m.init}: answer without req_id or amount`);
    return { reqId: o.req_id, amountTon: amount };
  }

  async link(product: FragmentProduct, reqId: string, account: WalletAccount): Promise<LinkAnswer> {
    const m = METHODS[product];
    const o = await this.call(m.link, { account: JSON.stringify(account), device: DEVICE, transaction: '1', id: reqId, show_sender: '0' }, m.page);
    const err = errorText(o.error);
    if (err !== null) throw new FragmentRejected(err);
    const tx = o.transaction as Record<string, unknown> | undefined;
    const messages = tx?.messages;
    if (!tx || typeof tx.validUntil !== 'number' || !Array.isArray(messages) || messages.length === 0)
      throw new FragmentDown('unreachable', `${m.link}: answer without a transaction`);
    return {
      transaction: {
        validUntil: tx.validUntil,
        messages: messages.map((x: Record<string, unknown>) => ({
          address: String(x.address ?? ''),
          amount: String(x.amount ?? ''),
          payload: typeof x.payload === 'string' && x.payload ? x.payload : undefined,
        })),
      },
      confirm: confirmOf(o),
    };
  }

  /**
   * Reports a sent transaction as Fragment's page does after the wallet sent it: the `confirm_method` of the
   * link answer with its `confirm_params` and the signed message (`boc`). Advisory: Fragment credits the
   * purchase by the payment on chain; the service settles by the chain alone.
   */
  async confirm(product: FragmentProduct, c: LinkConfirm, account: WalletAccount, boc: string): Promise<void> {
    const o = await this.call(c.method, { account: JSON.stringify(account), device: DEVICE, boc, ...c.params }, METHODS[product].page);
    const err = errorText(o.error);
    if (err !== null) throw new FragmentRejected(err);
  }
}

/** The confirm call named by a link answer, when it names one we can make (a plain method name, scalar params). */
function confirmOf(o: Record<string, unknown>): LinkConfirm | null {
  if (typeof o.confirm_method !== 'string' || !/^[A-Za-z]{1,64}$/.test(o.confirm_method)) return null;
  const params: Record<string, string> = {};
  const raw = o.confirm_params;
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') params[k] = String(v);
    }
  }
  return { method: o.confirm_method, params };
}

function errorText(e: unknown): string | null {
  if (e === undefined || e === null || e === false || e === '') return null;
  if (typeof e === 'string') return e;
  if (typeof e === 'object' && typeof (e as { error?: unknown }).error === 'string') return (e as { error: string }).error;
  return JSON.stringify(e);
}
