import { ConfigError, loadConfig, type Config } from '../src/config/env.js';
import { loadGiftsConfig } from '../src/config/gifts.js';

/**
 * The configuration of a test service. GIFTS_UPSTREAM=telegram beside UPSTREAM=sandbox is refused at start-up
 * (operator-api.md §1: play money never buys real gifts); the gift tests still run the Telegram adapter against a
 * fake marketplace inside a sandbox world (its movable clock, operator top-ups) as a fixture: the adapter does
 * not know the mode. Only this helper builds that pairing (test/gifts/gifts-child.ts uses it too).
 */
export function testConfig(overrides: Record<string, string | undefined> = {}): Config {
  const env: Record<string, string | undefined> = { SANDBOX_DEMO: '0', ...overrides };
  if (env.GIFTS_UPSTREAM?.trim() !== 'telegram' || (env.UPSTREAM?.trim() || 'sandbox') !== 'sandbox') return loadConfig(env);
  const gifts = loadGiftsConfig(env, 'sandbox');
  if (!gifts.config) throw new ConfigError(gifts.lines);
  return { ...loadConfig({ ...env, GIFTS_UPSTREAM: 'off' }), gifts: gifts.config };
}
