import { language } from './tg';

const en = {
  home: 'Home', order: 'Order', orders: 'Orders', topup: 'Top up', apiTab: 'API', team: 'Team',
  balances: 'Balances', recent: 'Recent orders', noOrders: 'No orders yet.', all: 'All', more: 'Show more',
  stars: 'Stars', premium: 'Premium', gifts: 'Gifts', recipient: 'Recipient', recipientHint: '@username',
  checking: 'Checking…', found: 'Found', notFound: 'Not found', alreadyPremium: 'Already has Premium: the order waits until it ends',
  cannotReceive: 'Cannot receive gifts', amount: 'Amount', months: (m: number) => `${m} months`, price: 'Price', balanceAfter: 'Balance after',
  notEnough: 'Not enough balance', confirm: 'Confirm order', confirmPay: (p: string) => `Pay ${p}`, placed: 'Order placed',
  collection: 'Collection', model: 'Model', backdrop: 'Backdrop', symbol: 'Symbol', any: 'Any', sort: 'Sort',
  cheapFirst: 'Cheapest first', expensiveFirst: 'Most expensive first', number: 'Number', found_n: (n: number) => `${n} gifts`,
  tolerance: 'Accept a price rise up to', maxPrice: 'Max price', buy: 'Buy', attributes: 'Attributes', back: 'Back',
  status: 'Status', type: 'Type', timeline: 'Timeline', refund: 'Refund', refunded: 'Refunded', inReview: 'In manual review',
  deliveries: 'Webhook deliveries', noDeliveries: 'No webhook deliveries.', created: 'Created',
  st: { processing: 'Processing', completed: 'Completed', failed: 'Failed', canceled: 'Canceled', partial: 'Partial' } as Record<string, string>,
  stateName: { done: 'done', current: 'in progress', pending: 'waiting', failed: 'failed' } as Record<string, string>,
  currency: 'Currency', network: 'Network', request: 'Get payment details', sendExactly: 'Send exactly', to: 'To address',
  comment: 'Comment', copy: 'Copy', copied: 'Copied', openWallet: 'Open in wallet', expires: 'Valid until',
  rq: { open: 'Waiting for the payment', credited: 'Credited', expired: 'Expired' } as Record<string, string>,
  minimum: (m: string, c: string) => `Minimum ${m} ${c}`, newRequest: 'New request',
  apiKey: 'API key', noKey: 'No key yet.', issue: 'Issue key', reissue: 'Reissue key', whitelist: 'IP whitelist (optional)',
  whitelistHint: '203.0.113.7, 198.51.100.0/24', keyShownOnce: 'Copy it now: it is shown only once.', reissueWarn: 'The current key stops working at once.',
  webhook: 'Webhook', url: 'URL', save: 'Save', regenerate: 'Regenerate secret', secretShownOnce: 'Webhook secret (shown once):',
  hasSecret: 'A secret is set.', noSecret: 'No secret yet: it is created on the first save.', saved: 'Saved',
  events: 'Events sent',
  ev: { 'order.completed': 'Order completed', 'order.failed': 'Order failed', 'order.refunded': 'Order refunded', 'balance.low': 'Low balance (threshold set in the bot: /alerts)' } as Record<string, string>,
  inviteStaff: 'Invite staff', inviteOwner: 'Invite owner', inviteLink: 'Invite link (valid 24 h, single use)', people: 'People',
  unlink: 'Unlink', you: 'you', owner: 'owner', staff: 'staff', since: 'since',
  signinTitle: 'Partner dashboard', signinText: 'Open the dashboard from the bot in Telegram, or send /app to the bot for a one-time sign-in link.',
  notLinked: 'This Telegram account is not linked to a partner. Open your invite link in the bot first.',
  loading: 'Loading…', retry: 'Retry', error: 'Something went wrong.', inactive: 'The account is not activated yet: make the first top-up.',
  err: {
    recipient_not_found: 'Recipient not found.', insufficient_balance: 'Not enough balance.', price_changed: 'The price went up above your maximum.',
    gift_not_for_sale: 'The gift is sold.', gift_reserved: 'Someone is buying this gift right now.', rate_limited: 'Too many requests: wait a moment.',
    topup_below_minimum: 'Below the minimum top-up.', bad_webhook_url: 'This webhook address is not accepted.', network: 'No connection.',
    deferred_order_exists: 'This account already has an unfinished Premium order.', partner_inactive: 'The account is not activated yet.',
    product_unavailable: 'Temporarily unavailable.', bad_quantity: 'Amount out of limits.',
  } as Record<string, string>,
};

type Dict = typeof en;

const ru: Dict = {
  home: 'Главная', order: 'Заказ', orders: 'Заказы', topup: 'Пополнить', apiTab: 'API', team: 'Команда',
  balances: 'Балансы', recent: 'Последние заказы', noOrders: 'Заказов пока нет.', all: 'Все', more: 'Показать ещё',
  stars: 'Звёзды', premium: 'Premium', gifts: 'Подарки', recipient: 'Получатель', recipientHint: '@username',
  checking: 'Проверяем…', found: 'Найден', notFound: 'Не найден', alreadyPremium: 'Premium уже есть: заказ подождёт его окончания',
  cannotReceive: 'Не может получать подарки', amount: 'Количество', months: (m: number) => `${m} мес.`, price: 'Цена', balanceAfter: 'Баланс после',
  notEnough: 'Недостаточно средств', confirm: 'Подтвердить заказ', confirmPay: (p: string) => `Оплатить ${p}`, placed: 'Заказ создан',
  collection: 'Коллекция', model: 'Модель', backdrop: 'Фон', symbol: 'Символ', any: 'Любой', sort: 'Сортировка',
  cheapFirst: 'Сначала дешёвые', expensiveFirst: 'Сначала дорогие', number: 'Номер', found_n: (n: number) => `${n} подарков`,
  tolerance: 'Допустимый рост цены до', maxPrice: 'Макс. цена', buy: 'Купить', attributes: 'Атрибуты', back: 'Назад',
  status: 'Статус', type: 'Тип', timeline: 'Ход заказа', refund: 'Возврат', refunded: 'Возвращено', inReview: 'На ручной проверке',
  deliveries: 'Доставка вебхуков', noDeliveries: 'Вебхуков нет.', created: 'Создан',
  st: { processing: 'В работе', completed: 'Выполнен', failed: 'Ошибка', canceled: 'Отменён', partial: 'Частично' },
  stateName: { done: 'готово', current: 'идёт', pending: 'ожидает', failed: 'ошибка' },
  currency: 'Валюта', network: 'Сеть', request: 'Получить реквизиты', sendExactly: 'Отправьте ровно', to: 'На адрес',
  comment: 'Комментарий', copy: 'Копировать', copied: 'Скопировано', openWallet: 'Открыть в кошельке', expires: 'Действует до',
  rq: { open: 'Ждём платёж', credited: 'Зачислено', expired: 'Истёк' },
  minimum: (m: string, c: string) => `Минимум ${m} ${c}`, newRequest: 'Новый запрос',
  apiKey: 'API-ключ', noKey: 'Ключа ещё нет.', issue: 'Выпустить ключ', reissue: 'Перевыпустить ключ', whitelist: 'Белый список IP (необязательно)',
  whitelistHint: '203.0.113.7, 198.51.100.0/24', keyShownOnce: 'Скопируйте сейчас: ключ показывается один раз.', reissueWarn: 'Текущий ключ сразу перестанет работать.',
  webhook: 'Вебхук', url: 'URL', save: 'Сохранить', regenerate: 'Новый секрет', secretShownOnce: 'Секрет вебхука (показывается один раз):',
  hasSecret: 'Секрет задан.', noSecret: 'Секрета ещё нет: он появится при первом сохранении.', saved: 'Сохранено',
  events: 'Отправляемые события',
  ev: { 'order.completed': 'Заказ выполнен', 'order.failed': 'Заказ не выполнен', 'order.refunded': 'Возврат по заказу', 'balance.low': 'Низкий баланс (порог задаётся в боте: /alerts)' } as Record<string, string>,
  inviteStaff: 'Пригласить сотрудника', inviteOwner: 'Пригласить владельца', inviteLink: 'Ссылка-приглашение (24 ч, одноразовая)', people: 'Люди',
  unlink: 'Отвязать', you: 'вы', owner: 'владелец', staff: 'сотрудник', since: 'с',
  signinTitle: 'Кабинет партнёра', signinText: 'Откройте кабинет из бота в Telegram или отправьте боту /app, чтобы получить одноразовую ссылку для входа.',
  notLinked: 'Этот аккаунт Telegram не привязан к партнёру. Сначала откройте ссылку-приглашение в боте.',
  loading: 'Загрузка…', retry: 'Повторить', error: 'Что-то пошло не так.', inactive: 'Аккаунт ещё не активирован: сделайте первое пополнение.',
  err: {
    recipient_not_found: 'Получатель не найден.', insufficient_balance: 'Недостаточно средств.', price_changed: 'Цена выросла выше вашего максимума.',
    gift_not_for_sale: 'Подарок уже продан.', gift_reserved: 'Этот подарок сейчас покупает кто-то другой.', rate_limited: 'Слишком много запросов: подождите.',
    topup_below_minimum: 'Меньше минимального пополнения.', bad_webhook_url: 'Этот адрес вебхука не принимается.', network: 'Нет соединения.',
    deferred_order_exists: 'У аккаунта уже есть незавершённый заказ Premium.', partner_inactive: 'Аккаунт ещё не активирован.',
    product_unavailable: 'Временно недоступно.', bad_quantity: 'Количество вне допустимых пределов.',
  },
};

export const lang = language();
export const t: Dict = lang === 'ru' ? ru : en;
document.documentElement.lang = lang;

export function errorText(e: unknown): string {
  const err = e as { code?: string; detail?: string };
  return (err.code && t.err[err.code]) || err.detail || t.error;
}
