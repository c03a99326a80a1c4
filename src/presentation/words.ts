/**
 * Words that the bot and the Mini App both show: the presentation they share, kept out of the domain (the
 * domain holds rules, not phrases). webapp/src/i18n.ts imports this file into its bundle, so it
 * imports nothing and holds no markup and no bot command: roles, why an order failed, webhook address
 * refusals, what is sent on which network, and the refusals of requests whose explanation names no command.
 * The bot's texts (en.ts, ru.ts) build on them.
 */

export interface Words {
  role: Record<string, string>;
  webhookReasons: Record<string, string>;
  /** Why an order failed or was canceled, by its type and (gifts) `failure.reason`. */
  failureWhy(o: { type: string; status: string; failureReason: string | null }): string;
  /** What is sent and on which network, so that the two TON-network addresses are not confused. */
  assetLabel(asset: string, network: string): string;
  /** A refusal (error code and its extra fields) in words; null for codes each surface explains itself. */
  error(code: string, x: Record<string, unknown>): string | null;
}

const WEBHOOK_REASONS_EN: Record<string, string> = {
  bad_url: 'this is not a valid address (no spaces, only Latin characters; international domains in punycode)',
  bad_scheme: 'only http:// and https:// addresses are accepted (https may be required)',
  bad_host: 'the host name is missing or invalid',
  bad_port: 'the port is invalid or not allowed (only 80 and 443 may be allowed)',
  credentials_in_url: 'the address must not contain a user name or password',
  private_host: 'the address points to a local, private or internal network',
  too_long: 'the address is too long',
};

const FAILURE_WHY_EN: Record<string, string> = {
  gift_not_for_sale: 'the gift was sold to someone else before the purchase',
  gift_reserved: 'another buyer reserved the gift first',
  price_above_cap: 'the gift became more expensive than the price you confirmed; it is never bought above it',
  amount_above_cap: 'the amount was above the allowed maximum',
  invalid_recipient: 'the recipient’s account cannot receive gifts',
  manual_refund: 'support checked the order and refunded it',
  gift_unavailable: 'the gift market did not respond in time',
  insufficient_funds: 'the supplier could not pay for the purchase right now (your balance was not the problem)',
};

const en: Words = {
  role: { owner: 'owner', staff: 'staff' },
  webhookReasons: WEBHOOK_REASONS_EN,
  failureWhy(o) {
    if (o.type === 'stars') return 'the stars could not be delivered';
    if (o.type === 'premium') return o.status === 'canceled' ? 'support canceled the subscription order' : 'the Premium subscription could not be delivered';
    return FAILURE_WHY_EN[o.failureReason ?? ''] ?? 'the delivery failed';
  },
  assetLabel(asset, network) {
    if (asset === 'TON') return 'TON coin';
    return `${asset} (${network === 'ton' ? 'TON network' : network === 'trc20' ? 'TRC-20, TRON network' : network === 'bep20' ? 'BEP-20, BNB Smart Chain' : network})`;
  },
  error(code, x) {
    switch (code) {
      case 'recipient_not_found':
        return 'No such Telegram user, or the account cannot receive this. Check the username.';
      case 'recipient_required':
        return 'The recipient username is missing.';
      case 'resolver_error':
        return 'The recipient cannot be checked right now. Try again in a minute.';
      case 'product_unavailable':
        return x.reason === 'product_disabled'
          ? 'This product is switched off for now; retrying will not help.'
          : `The supplier is temporarily unavailable. Try again in about ${x.retry_after ?? 30} seconds.`;
      case 'deferred_order_exists':
        return 'This account already has an unfinished Premium order; a second one can be placed after it finishes.';
      case 'rate_limited':
        return `Too many requests. Wait ${x.retry_after ?? 'a few'} seconds and try again.`;
      case 'order_in_progress':
        return 'This order is still being created. Try again in a second.';
      case 'ledger_unavailable':
        return 'The balance check is temporarily unavailable. Nothing was debited; try again.';
      case 'bad_quantity':
        return `The number of stars must be a whole number from ${x.min ?? 50} to ${x.max ?? 50000}.`;
      case 'bad_months':
        return 'Premium can be ordered for 3, 6 or 12 months.';
      case 'partner_program_unavailable':
        return 'The partner program is temporarily unavailable. Try again later.';
      case 'topup_below_minimum':
        return `The amount is below the minimum top-up: at least ${x.minimum} ${x.currency}.`;
      case 'topups_not_configured':
        return 'Top-ups in this currency are not configured yet: contact support.';
      case 'topup_amount_unavailable':
        return 'No exact amount is free near this one right now. Try a slightly different amount or again later.';
      case 'too_many_topup_requests':
        return `You already have ${x.max_open} open top-up ${x.max_open === 1 ? 'request' : 'requests'} in ${x.currency}, the most at once. Pay one of them (the exact amount it shows), cancel one, or wait until one expires 24 hours after it was made, then ask again.`;
      case 'not_open':
        return x.status === 'paid' ? 'This top-up request is already paid.' : x.status === 'canceled' ? 'This top-up request is already canceled.' : 'This top-up request has expired.';
      case 'bad_webhook_url':
        return `This address cannot be used: ${WEBHOOK_REASONS_EN[String(x.reason)] ?? 'it is not accepted'}.`;
      case 'validation_error':
        return 'This value is not accepted. Check it and send it again.';
      case 'gift_not_for_sale':
        return 'This gift is sold or no longer listed. Nothing was debited.';
      case 'gift_reserved':
        return 'Another order is already buying this gift.';
      case 'price_changed':
        return `The gift price went up to ${x.current_price} TON, above the confirmed maximum. Nothing was debited.`;
      case 'bad_gift':
        return 'This gift is not recognised.';
      case 'not_found':
        return 'Not found.';
      default:
        return null;
    }
  },
};

const WEBHOOK_REASONS_RU: Record<string, string> = {
  bad_url: 'это не адрес (без пробелов, только латиница; международные домены — в punycode)',
  bad_scheme: 'принимаются только адреса http:// и https:// (может требоваться https)',
  bad_host: 'имя хоста отсутствует или неверно',
  bad_port: 'порт неверен или не разрешён (могут быть разрешены только 80 и 443)',
  credentials_in_url: 'в адресе не должно быть имени пользователя и пароля',
  private_host: 'адрес указывает на локальную, частную или внутреннюю сеть',
  too_long: 'адрес слишком длинный',
};

const FAILURE_WHY_RU: Record<string, string> = {
  gift_not_for_sale: 'подарок продали другому покупателю до покупки',
  gift_reserved: 'подарок раньше забронировал другой покупатель',
  price_above_cap: 'подарок подорожал выше подтверждённой вами цены; дороже он не покупается',
  amount_above_cap: 'сумма выше допустимого максимума',
  invalid_recipient: 'аккаунт получателя не может получать подарки',
  manual_refund: 'поддержка проверила заказ и вернула деньги',
  gift_unavailable: 'маркет подарков не ответил вовремя',
  insufficient_funds: 'поставщик сейчас не смог оплатить покупку (дело не в вашем балансе)',
};

const ru: Words = {
  role: { owner: 'владелец', staff: 'сотрудник' },
  webhookReasons: WEBHOOK_REASONS_RU,
  failureWhy(o) {
    if (o.type === 'stars') return 'звёзды не удалось доставить';
    if (o.type === 'premium') return o.status === 'canceled' ? 'поддержка отменила заказ подписки' : 'подписку Premium не удалось доставить';
    return FAILURE_WHY_RU[o.failureReason ?? ''] ?? 'доставка не удалась';
  },
  assetLabel(asset, network) {
    if (asset === 'TON') return 'монета TON';
    return `${asset} (${network === 'ton' ? 'сеть TON' : network === 'trc20' ? 'TRC-20, сеть TRON' : network === 'bep20' ? 'BEP-20, BNB Smart Chain' : network})`;
  },
  error(code, x) {
    switch (code) {
      case 'recipient_not_found':
        return 'Такого пользователя Telegram нет, или он не может это получить. Проверьте имя пользователя.';
      case 'recipient_required':
        return 'Не указано имя пользователя получателя.';
      case 'resolver_error':
        return 'Сейчас не удаётся проверить получателя. Попробуйте через минуту.';
      case 'product_unavailable':
        return x.reason === 'product_disabled'
          ? 'Этот товар сейчас отключён; повтор не поможет.'
          : `Поставщик временно недоступен. Попробуйте примерно через ${x.retry_after ?? 30} с.`;
      case 'deferred_order_exists':
        return 'У этого аккаунта уже есть незавершённый заказ Premium; новый можно будет оформить после его завершения.';
      case 'rate_limited':
        return `Слишком много запросов. Подождите ${x.retry_after ?? 'несколько'} с и попробуйте снова.`;
      case 'order_in_progress':
        return 'Заказ ещё создаётся. Попробуйте через секунду.';
      case 'ledger_unavailable':
        return 'Проверка баланса временно недоступна. Ничего не списано; попробуйте снова.';
      case 'bad_quantity':
        return `Количество звёзд — целое число от ${x.min ?? 50} до ${x.max ?? 50000}.`;
      case 'bad_months':
        return 'Premium можно заказать на 3, 6 или 12 месяцев.';
      case 'partner_program_unavailable':
        return 'Партнёрская программа временно недоступна. Попробуйте позже.';
      case 'topup_below_minimum':
        return `Сумма меньше минимального пополнения: не меньше ${x.minimum} ${x.currency}.`;
      case 'topups_not_configured':
        return 'Пополнения в этой валюте ещё не настроены: обратитесь в поддержку.';
      case 'topup_amount_unavailable':
        return 'Рядом с этой суммой сейчас нет свободной точной суммы. Попробуйте немного другую сумму или позже.';
      case 'too_many_topup_requests':
        return `У вас уже ${x.max_open} ${openRequestsRu(Number(x.max_open))} на пополнение в ${x.currency} — больше одновременно нельзя. Оплатите один из них (точной суммой из запроса), отмените один или дождитесь, пока он истечёт через 24 часа после создания, и запросите снова.`;
      case 'not_open':
        return x.status === 'paid' ? 'Этот запрос на пополнение уже оплачен.' : x.status === 'canceled' ? 'Этот запрос на пополнение уже отменён.' : 'Срок этого запроса на пополнение истёк.';
      case 'bad_webhook_url':
        return `Этот адрес нельзя использовать: ${WEBHOOK_REASONS_RU[String(x.reason)] ?? 'он не принят'}.`;
      case 'validation_error':
        return 'Это значение не принято. Проверьте его и отправьте снова.';
      case 'gift_not_for_sale':
        return 'Подарок продан или снят с продажи. Ничего не списано.';
      case 'gift_reserved':
        return 'Этот подарок уже покупается другим заказом.';
      case 'price_changed':
        return `Цена подарка выросла до ${x.current_price} TON — выше подтверждённого максимума. Ничего не списано.`;
      case 'bad_gift':
        return 'Такой подарок не найден.';
      case 'not_found':
        return 'Не найдено.';
      default:
        return null;
    }
  },
};

export const WORDS: { en: Words; ru: Words } = { en, ru };

/** "открытый запрос" / "открытых запроса" / "открытых запросов" by the number (this file imports nothing). */
function openRequestsRu(n: number): string {
  const d = n % 10;
  const dd = n % 100;
  if (d === 1 && dd !== 11) return 'открытый запрос';
  if (d >= 2 && d <= 4 && (dd < 12 || dd > 14)) return 'открытых запроса';
  return 'открытых запросов';
}
