import type { Config } from '../../config/env.js';
import type { TelegramGiftsConfig } from '../../config/gifts.js';
import { fetchTonUsd, nanoToCents } from '../fragment/ton-rate.js';
import type { GiftGateway } from './gateway.js';
import { MtcuteGateway, type TlCaller } from './mtcute-gateway.js';
import { TelegramGiftMarket, type TelegramMarketDeps } from './telegram-market.js';

export { TelegramGiftMarket } from './telegram-market.js';

/** CoinGecko's public TON/USD price (the reference rate of `price_usd_ref`), as the Fragment adapter reads it. */
const TON_USD_URL = 'https://api.coingecko.com/api/v3/simple/price?ids=the-open-network&vs_currencies=usd';

export interface GiftsClient extends TlCaller {
  destroy(): Promise<void>;
}

/**
 * The account's mtcute client (imported only in this mode: MTProto loads a while). The session comes from
 * GIFTS_SESSION (a string, kept in memory) or GIFTS_SESSION_FILE (mtcute's own SQLite storage, written by
 * `npm run gifts:login`). mtcute logs only warnings and errors, and never the session.
 */
export async function openGiftsClient(c: TelegramGiftsConfig, storage?: string): Promise<GiftsClient & { importSession(s: string): Promise<void>; connect(): Promise<void> }> {
  const { TelegramClient, MemoryStorage } = await import('@mtcute/node');
  const client = new TelegramClient({
    apiId: c.apiId,
    apiHash: c.apiHash,
    storage: storage ?? c.sessionFile ?? new MemoryStorage(),
    updates: false,
    logLevel: 2,
  });
  if (c.session) await client.importSession(c.session);
  return client;
}

/** Builds the Telegram gift market; `gateway` replaces the MTProto client (the tests' fake). */
export async function createTelegramGifts(config: Config, deps: TelegramMarketDeps, gateway?: GiftGateway): Promise<{ market: TelegramGiftMarket; close(): Promise<void> }> {
  const c = config.gifts.telegram;
  if (!c) throw new Error('GIFTS_UPSTREAM=telegram without its settings');
  let client: GiftsClient | null = null;
  if (!gateway) {
    const opened = await openGiftsClient(c);
    client = opened;
    // connects in the background: until it does, market calls wait or fail as "not answering"
    opened.connect().catch((e: unknown) => deps.log.warn({ err: e instanceof Error ? e.message : 'error' }, 'telegram gifts: could not connect'));
  }
  const rate = async () => Number(nanoToCents(1_000_000_000n, await fetchTonUsd(TON_USD_URL)));
  const market = new TelegramGiftMarket(deps, c, gateway ?? new MtcuteGateway(client!), gateway ? async () => 520 : rate);
  return { market, close: async () => void (await client?.destroy()) };
}
