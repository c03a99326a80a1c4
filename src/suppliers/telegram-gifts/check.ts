import 'dotenv/config';
import { loadGiftsConfig } from '../../config/gifts.js';
import { openGiftsClient } from './index.js';
import { MtcuteGateway } from './mtcute-gateway.js';

/**
 * `npm run gifts:check`: signs in with the gift account's settings (TELEGRAM_API_ID, TELEGRAM_API_HASH,
 * GIFTS_SESSION or GIFTS_SESSION_FILE), prints the account, its TON and Stars balances and one page of
 * listings of each offered collection (GIFTS_COLLECTIONS, default all). Buys nothing, prints no secret.
 * Without the settings it prints one line naming the first missing variable and exits 1.
 */
async function main(): Promise<number> {
  const { config, lines } = loadGiftsConfig({ ...process.env, GIFTS_UPSTREAM: 'telegram' }, process.env.UPSTREAM?.trim() || 'sandbox');
  if (!config?.telegram) {
    process.stderr.write(`${lines[0]}\n`);
    return 1;
  }
  const c = config.telegram;
  const client = await openGiftsClient(c);
  const ton = (n: bigint) => `${n / 1_000_000_000n}.${(n % 1_000_000_000n).toString().padStart(9, '0')}`;
  let ok = true;
  try {
    await client.connect();
    const gw = new MtcuteGateway(client);
    const me = await gw.me();
    process.stdout.write(`account: ${me.name}${me.username ? ` (@${me.username})` : ''}, id ${me.userId}\n`);
    const b = await gw.balances();
    const low = b.tonNano < c.balanceMinNano;
    if (low) ok = false;
    process.stdout.write(`${low ? 'FAIL' : 'ok  '} balance: ${ton(b.tonNano)} TON (GIFTS_BALANCE_MIN_TON ${ton(c.balanceMinNano)}), ${b.stars} Stars\n`);
    for (const col of await gw.collections()) {
      if (col.resale <= 0) continue;
      const page = await gw.listings(col.giftId, '', 5);
      const name = page.gifts[0]?.slug.split('-')[0] ?? col.title;
      if (c.collections.length && !c.collections.includes(name)) continue;
      const priced = page.gifts.filter((g) => g.tonPriceNano !== null);
      process.stdout.write(`${name} (${col.title}): ${col.resale} on resale; ${priced.map((g) => `${g.slug} ${ton(g.tonPriceNano!)} TON`).join(', ') || 'no TON listing on the first page'}\n`);
    }
  } catch (e) {
    ok = false;
    process.stdout.write(`FAIL telegram: ${(e as Error).message}\n`);
  } finally {
    await client.destroy();
  }
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`gifts:check failed: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
