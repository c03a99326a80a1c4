import { afterEach } from 'vitest';
import type { Alert } from '../../src/kernel/event-bus.js';
import { startService, stopService, START, type TestService } from '../helpers.js';
import { COOKIES, FRAGMENT_ADDRESS, FRAGMENT_HASH, PROBE, newMnemonic, startFakeFragment, startFakeRate, startFakeToncenter, type FakeFragment, type FakeToncenter } from './fakes.js';

/** The service with UPSTREAM=fragment against the fakes; the service clock drives the fakes' time. */
export interface FragmentEnv {
  t: TestService;
  fragment: FakeFragment;
  ton: FakeToncenter;
  rate: Awaited<ReturnType<typeof startFakeRate>>;
  env: Record<string, string>;
  alerts: Alert[];
  mnemonic: string[];
  /** advances the service clock, running what falls due */
  advance(seconds: number): Promise<void>;
  nowSec(): number;
}

export function fragmentEnvFor(f: FakeFragment, ton: FakeToncenter, rateUrl: string, mnemonic: string[], extra: Record<string, string> = {}): Record<string, string> {
  return {
    UPSTREAM: 'fragment',
    FRAGMENT_MNEMONIC: mnemonic.join(' '),
    FRAGMENT_COOKIES: COOKIES,
    FRAGMENT_HASH,
    FRAGMENT_API_URL: f.url,
    FRAGMENT_TONCENTER_URL: ton.url,
    FRAGMENT_TON_USD_URL: rateUrl,
    FRAGMENT_PAY_ADDRESSES: FRAGMENT_ADDRESS.toString(),
    FRAGMENT_PRICE_PROBE_USERNAME: PROBE,
    FRAGMENT_WALLET_MIN_TON: '2',
    ...extra,
  };
}

export function fragmentHarness() {
  const envs: FragmentEnv[] = [];
  afterEach(async () => {
    for (const e of envs.splice(0)) {
      await stopService(e.t);
      await e.fragment.close();
      await e.ton.close();
      await e.rate.close();
    }
  });
  return async (opts: { fundTon?: string; extra?: Record<string, string>; users?: [string, boolean][] } = {}): Promise<FragmentEnv> => {
    let now = () => Math.floor(START / 1000);
    const fragment = await startFakeFragment(() => now());
    const ton = await startFakeToncenter(() => now());
    const rate = await startFakeRate('3.00');
    for (const [u, premium] of opts.users ?? [['alice_fan', false], ['bob_premium', true], ['carol_fan', false], ['dave_fan', false]]) fragment.users.set(u, { name: u, premium });
    const mnemonic = await newMnemonic();
    const env = fragmentEnvFor(fragment, ton, rate.url, mnemonic, opts.extra);
    const t = await startService(env);
    now = () => Math.floor(t.deps.clock.now() / 1000);
    const alerts: Alert[] = [];
    t.deps.bus.on('alert', (a) => alerts.push(a));
    if (opts.fundTon !== '0') await ton.fund(t.fragment!.wallet.address, opts.fundTon ?? '50');
    await t.fragment!.refresh();
    const e: FragmentEnv = {
      t,
      fragment,
      ton,
      rate,
      env,
      alerts,
      mnemonic,
      advance: async (seconds) => void (await t.scheduler.advance(seconds * 1000)),
      nowSec: () => now(),
    };
    envs.push(e);
    return e;
  };
}
