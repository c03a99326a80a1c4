import { countPartners } from '../store/partners-repo.js';
import type { Deps } from './deps.js';
import { issueKey, type KeyCache } from './keys.js';
import { createPartner } from './partners.js';
import { creditTopup } from './topups.js';

/** What seedDemo uses of the service. */
export type SeedDemoDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'log' | 'bus'>;

/**
 * SANDBOX_DEMO: on the first start with an empty database, an active demo partner with 1000.00 USD and
 * 1000.000 TON and a key, so a newcomer can try the API at once.
 */
export function seedDemo(deps: SeedDemoDeps, keys: KeyCache): { partnerId: number; apiKey: string } | null {
  if (countPartners(deps.db) > 0) return null;
  const p = createPartner(deps, 'Demo partner', 'demo');
  creditTopup(deps, p.partner_id, { currency: 'USD', amount: '1000.00', network: 'ton', tx_hash: 'sandbox-demo-usd' }, 'demo');
  creditTopup(deps, p.partner_id, { currency: 'TON', amount: '1000.000', network: 'ton', tx_hash: 'sandbox-demo-ton' }, 'demo');
  const k = issueKey(deps, keys, p.partner_id, [], 'demo');
  return { partnerId: p.partner_id, apiKey: k.api_key };
}
