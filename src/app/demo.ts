import type { Config } from '../config/env.js';
import { getBotUser, setMutedNotices, upsertBotUser } from '../store/bot-repo.js';
import { inTx } from '../store/db.js';
import { countPartners } from '../store/partners-repo.js';
import { audit } from '../store/audit-repo.js';
import { createSignInLink } from './app-access.js';
import type { Deps } from './deps.js';
import { issueKey, type KeyCache } from './keys.js';
import { NOTICES } from './notices.js';
import { createPartner } from './partners.js';
import { creditTopup } from './topups.js';
import { LOCAL_RECEIVER_SUBNETS, localReceiversAllowed } from './webhooks/config.js';

/** What the demo start uses of the service. */
export type SeedDemoDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'log' | 'bus' | 'config'>;

/**
 * The demo partner's owner, for the dashboard's browser sign-in: a Telegram user id no real account can
 * have (Telegram's ids have at most 52 significant bits; this one needs 53), so no bot user is ever it.
 */
export const DEMO_OWNER_TELEGRAM_ID = 2 ** 52;

/**
 * SANDBOX_DEMO: on the first start with an empty database, an active demo partner with 1000.00 USD and
 * 1000.000 TON and a key, so a newcomer can try the API at once; and an owner of it who signs in to the
 * dashboard (the Mini App) in a browser, where the webhook address is set and its secret shown once.
 */
export function seedDemo(deps: SeedDemoDeps, keys: KeyCache): { partnerId: number; apiKey: string } | null {
  if (countPartners(deps.db) > 0) return null;
  const p = createPartner(deps, 'Demo partner', 'demo');
  creditTopup(deps, p.partner_id, { currency: 'USD', amount: '1000.00', network: 'ton', tx_hash: 'sandbox-demo-usd' }, 'demo');
  creditTopup(deps, p.partner_id, { currency: 'TON', amount: '1000.000', network: 'ton', tx_hash: 'sandbox-demo-ton' }, 'demo');
  const k = issueKey(deps, keys, p.partner_id, [], 'demo');
  const now = deps.clock.now();
  inTx(deps.db, (tx) => {
    upsertBotUser(tx, { telegramUserId: DEMO_OWNER_TELEGRAM_ID, chatId: DEMO_OWNER_TELEGRAM_ID, partnerId: p.partner_id, role: 'owner', language: 'en', linkedAt: now, displayName: 'Demo owner (browser sign-in)' });
    // no chat behind it: a bot, when one runs, sends it nothing
    setMutedNotices(tx, DEMO_OWNER_TELEGRAM_ID, [...NOTICES], now);
    audit(tx, now, 'demo', 'demo.owner', String(p.partner_id), {});
  });
  return { partnerId: p.partner_id, apiKey: k.api_key };
}

export interface DemoStart {
  /** The partner made by this start (first start only). */
  created: { partnerId: number; apiKey: string } | null;
  /** A fresh one-time sign-in link to the demo partner's dashboard (every start, once the demo owner exists). */
  signInUrl: string | null;
}

/** The demo at start-up: seeds it on an empty database, then gives a new dashboard sign-in link. */
export function startDemo(deps: SeedDemoDeps, keys: KeyCache): DemoStart {
  const created = seedDemo(deps, keys);
  const signInUrl = getBotUser(deps.db, DEMO_OWNER_TELEGRAM_ID) ? createSignInLink(deps, DEMO_OWNER_TELEGRAM_ID).url : null;
  return { created, signInUrl };
}

/**
 * What the demo start prints: the partner and its key (first start), the dashboard link, and the one
 * setting that lets a webhook receiver on this machine in (loopback addresses are refused otherwise).
 */
export function demoStartText(config: Config, demo: DemoStart): string {
  const base = config.publicBaseUrl;
  const lines: string[] = [''];
  if (demo.created) {
    const { partnerId, apiKey } = demo.created;
    lines.push(
      `Sandbox demo partner #${partnerId} created with 1000.00 USD and 1000.000 TON.`,
      `API key (shown once): ${apiKey}`,
      'Try it:',
      `  curl -s -H 'Authorization: Bearer ${apiKey}' ${base}/api/partner/v1/me`,
      `  curl -s -H 'Authorization: Bearer ${apiKey}' -H 'Content-Type: application/json' \\`,
      `    -d '{"type":"stars","idempotency_key":"demo-1","params":{"quantity":100,"recipient":"@demo_user"}}' \\`,
      `    ${base}/api/partner/v1/orders`,
      '',
    );
  }
  if (demo.signInUrl) {
    lines.push(
      "The demo partner's dashboard in a browser (set the webhook address there; its secret is shown once).",
      'Sign-in link, single use, valid 10 minutes (every start prints a new one):',
      `  ${demo.signInUrl}`,
      '',
    );
  }
  if (localReceiversAllowed(config)) {
    lines.push('Webhook receivers on this machine (http://127.0.0.1:<port>/…) are let in (WEBHOOK_ALLOW_SUBNETS).');
  } else {
    const value = [...config.WEBHOOK_ALLOW_SUBNETS, ...LOCAL_RECEIVER_SUBNETS.filter((s) => !config.WEBHOOK_ALLOW_SUBNETS.includes(s))].join(',');
    lines.push(
      'Webhooks to a receiver on this machine are refused (a private address). To let one in, put this line in .env',
      '(or the environment) and restart:',
      `  WEBHOOK_ALLOW_SUBNETS=${value}`,
    );
  }
  return `${lines.join('\n')}\n\n`;
}
