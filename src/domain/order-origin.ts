/**
 * Who placed an order, read from its idempotency key (stored with the order): the bot makes
 * `bot-<Telegram user id>-<random hex>` (one per confirmation), the Mini App prefixes its keys with `app:`
 * (src/http/app-api/ordering-routes.ts), anything else came over the partner API. Only notices depend on
 * it (src/app/notices.ts): a partner who sends an API key shaped like the bot's merely changes who hears
 * of the order.
 */
export type OrderOrigin = { by: 'bot'; telegramUserId: number | null } | { by: 'app' } | { by: 'api' };

const BOT_KEY = /^bot-(?:(\d{1,20})-)?[0-9a-f]{8,}$/;

export function botOrderKey(telegramUserId: number, randomHex: string): string {
  return `bot-${telegramUserId}-${randomHex}`;
}

export function orderOrigin(idempotencyKey: string): OrderOrigin {
  const m = BOT_KEY.exec(idempotencyKey);
  // Keys made before the user id was part of them (`bot-<hex>`) name no user.
  if (m) return { by: 'bot', telegramUserId: m[1] === undefined ? null : Number(m[1]) };
  if (idempotencyKey.startsWith('app:')) return { by: 'app' };
  return { by: 'api' };
}
