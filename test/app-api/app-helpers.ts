import { sign } from '@telegram-apps/init-data-node';
import { redeemInvite } from '../../src/app/invites.js';
import { perTest, START, toRes, type Res, type TestPartner, type TestService } from '../helpers.js';

/**
 * The Mini App API under test: the real service with a bot token, partners and linked Telegram users.
 * initData is signed by @telegram-apps/init-data-node, an implementation independent of the service's.
 */
export const BOT_TOKEN = '7000000001:AAH-test-token-of-the-mini-app-0123456';
export const OTHER_BOT_TOKEN = '7000000002:AAH-another-bot-token-0123456789abcd';

export function initData(userId: number, opts: { token?: string; authDate?: number; language?: string } = {}): string {
  return sign(
    { user: { id: userId, first_name: `User${userId}`, language_code: opts.language ?? 'en' }, query_id: 'AAH-query' },
    opts.token ?? BOT_TOKEN,
    new Date(opts.authDate ?? START),
  );
}

export interface AppUser {
  id: number;
  tma: string;
  call(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<Res>;
}

let nextUser = 500_000;

export function appWorld() {
  const pt = perTest();
  return {
    ...pt,
    async start(env: Record<string, string> = {}) {
      const t = await pt.service({ TELEGRAM_BOT_TOKEN: BOT_TOKEN, ...env });
      const p = await t.newPartner();
      return { t, p, owner: await linkUser(t, p, 'owner'), staff: await linkUser(t, p, 'staff') };
    },
  };
}

export function raw(t: TestService, method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res> {
  return t.app
    .inject({
      method: method as never,
      url: `/api/app/v1${url}`,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
    .then(toRes);
}

/** `tma` is signed at the test start; `call` signs afresh at the service clock's time, as Telegram does on each opening. */
export function asUser(t: TestService, id: number): AppUser {
  const tma = initData(id);
  return { id, tma, call: (m, u, b, h = {}) => raw(t, m, u, b, { authorization: `tma ${initData(id, { authDate: t.deps.clock.now() })}`, ...h }) };
}

export async function linkUser(t: TestService, p: TestPartner, role: 'owner' | 'staff'): Promise<AppUser> {
  const inv = await t.admin('POST', `/partners/${p.id}/invites`, { role });
  const id = ++nextUser;
  redeemInvite(t.deps, inv.body.code, id, id, 'en');
  return asUser(t, id);
}
