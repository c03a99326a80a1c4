import 'dotenv/config';
import { ServiceClock } from '../../kernel/clock.js';
import { ConfigError, loadConfig } from '../../config/env.js';
import { urlOrigin } from '../chains/chain-watcher.js';
import { Toncenter } from '../chains/toncenter-wallet.js';
import { fromNano } from '../../config/fragment.js';
import { FragmentApi, FragmentDown } from './fragment-api.js';
import { fetchTonUsd } from './ton-rate.js';
import { HotWallet } from './wallet.js';

/**
 * `npm run fragment:check [username]`: checks real FRAGMENT_* credentials without buying anything:
 * the hot wallet's address, balance and seqno (toncenter), the Fragment session (a recipient lookup for
 * `username`, default FRAGMENT_PRICE_PROBE_USERNAME), Fragment's price for 1000 stars and Premium
 * (price requests for the probe account; no transaction link is asked for, nothing is signed or sent)
 * and the TON/USD rate. Prints no secret. Exit code 0 when everything answered, 1 otherwise.
 */
async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig({ ...process.env, UPSTREAM: 'fragment' });
  } catch (e) {
    if (e instanceof ConfigError) {
      for (const line of e.lines) process.stderr.write(`${line}\n`);
      return 1;
    }
    throw e;
  }
  const c = config.fragment!;
  let ok = true;
  const say = (good: boolean, text: string) => {
    if (!good) ok = false;
    process.stdout.write(`${good ? 'ok  ' : 'FAIL'} ${text}\n`);
  };
  const wallet = await HotWallet.fromMnemonic(c.mnemonic, c.walletVersion ?? 'v5r1');
  say(true, `hot wallet ${wallet.version}: ${wallet.friendlyAddress}`);
  // unset version: V5R1 for a new wallet, but the service keeps V4R2 where its database already paid from it
  if (c.walletVersion === null) say(true, `(FRAGMENT_WALLET_VERSION unset: a service whose database already paid from this mnemonic's v4r2 wallet ${(await HotWallet.fromMnemonic(c.mnemonic, 'v4r2')).friendlyAddress} keeps it)`);
  try {
    const w = await new Toncenter(c.toncenterUrl, c.toncenterApiKey).wallet(wallet.address.toString());
    say(w.balanceNano >= c.walletMinNano, `balance ${fromNano(w.balanceNano)} TON (FRAGMENT_WALLET_MIN_TON ${fromNano(c.walletMinNano)}), seqno ${w.seqno}, ${w.deployed ? 'deployed' : 'not deployed yet (the first payment deploys it)'}`);
  } catch (e) {
    say(false, `toncenter: ${(e as Error).message}`);
  }
  // the page-state nonce only: a command-line check runs on real time (no sandbox offset)
  const clock = new ServiceClock();
  const api = new FragmentApi(c.apiUrl, c.hash, c.cookies, () => Math.floor(clock.now() / 1000));
  const username = (process.argv[2] ?? c.probeUsername).replace(/^@/, '');
  try {
    const s = await api.search('stars', username);
    say(s.kind === 'found', `Fragment session works; stars recipient @${username}: ${s.kind === 'found' ? `found (${s.found.name})` : s.kind}`);
    const p = await api.search('premium', username, 3);
    say(true, `Premium recipient @${username}: ${p.kind === 'found' ? 'can receive Premium' : p.kind}`);
    let usd = null;
    try {
      usd = await fetchTonUsd(c.tonUsdUrl);
      say(true, `TON/USD ${usd.toString()} (${urlOrigin(c.tonUsdUrl)})`);
    } catch (e) {
      say(false, `TON/USD rate: ${(e as Error).message}`);
    }
    const probe = await api.search('stars', c.probeUsername);
    if (probe.kind === 'found') {
      const stars = await api.init('stars', probe.found.recipient, 1000);
      const shown = usd ? ` ≈ ${usd.mul(stars.amountTon).toFixed(2)} USD` : '';
      say(Number(stars.amountTon) > 0, `price of 1000 stars: ${stars.amountTon} TON${shown}`);
    } else say(false, `price probe @${c.probeUsername}: ${probe.kind}`);
    const pp = await api.search('premium', c.probeUsername, 3);
    if (pp.kind === 'found') {
      for (const m of [3, 6, 12]) {
        const q = await api.init('premium', pp.found.recipient, m);
        say(true, `price of Premium ${m} months: ${q.amountTon} TON`);
      }
    } else say(false, `price probe @${c.probeUsername} for Premium: ${pp.kind} (the probe account must not have Premium)`);
  } catch (e) {
    say(false, e instanceof FragmentDown ? `Fragment: ${e.problem} (${e.message})` : `Fragment: ${(e as Error).message}`);
  }
  say(true, `payments go only to: ${c.payAddresses.join(', ')}`);
  process.stdout.write(ok ? 'fragment:check passed (nothing was bought)\n' : 'fragment:check found problems (nothing was bought)\n');
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`fragment:check failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
