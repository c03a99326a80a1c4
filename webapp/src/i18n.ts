import { WORDS } from '../../src/domain/words';
import { ruPlural } from '../../src/domain/labels';
import { language } from './tg';

const en = {
  spend7: 'Spent in the last 7 days', gift: 'Gift', ordersN: (n: number) => `${n} ${n === 1 ? 'order' : 'orders'}`,
  home: 'Home', order: 'Order', orders: 'Orders', topup: 'Top up', apiTab: 'API', team: 'Team',
  balances: 'Balances', recent: 'Recent orders', noOrders: 'No orders yet.', all: 'All', more: 'Show more',
  stars: 'Stars', premium: 'Premium', gifts: 'Gifts', recipient: 'Recipient', recipientHint: '@username',
  checking: 'Checking…', found: 'Found', notFound: 'Not found', alreadyPremium: 'Already has Premium: the order waits until it ends',
  cannotReceive: 'Cannot receive gifts', amount: 'Amount', months: (m: number) => `${m} months`, price: 'Price', balanceAfter: 'Balance after',
  notEnough: 'Not enough balance', confirm: 'Confirm order', confirmPay: (p: string) => `Pay ${p}`, placed: 'Order placed',
  collection: 'Collection', model: 'Model', backdrop: 'Backdrop', symbol: 'Symbol', any: 'Any', sort: 'Sort',
  cheapFirst: 'Price ↑', expensiveFirst: 'Price ↓', number: 'Number', found_n: (n: number) => `${n} ${n === 1 ? 'gift' : 'gifts'}`,
  tolerance: 'Accept a price rise up to', maxPrice: 'Max price', buy: 'Buy', attributes: 'Attributes', back: 'Back',
  status: 'Status', type: 'Type', timeline: 'Timeline', refund: 'Refund', refunded: 'Refunded', inReview: 'In manual review',
  deliveries: 'Webhook deliveries', noDeliveries: 'No webhook deliveries.', created: 'Created', why: 'Why',
  nextAttempt: 'Next attempt', manual: 'sent again by hand', sendAgain: 'Send again', deliveryLog: 'Delivery log', deliveryLogHint: 'Every event sent to the webhook, with each attempt',
  testWebhook: 'Send a test webhook', testResult: (ok: boolean): string => (ok ? 'The test webhook was delivered.' : 'The test webhook was not delivered:'),
  dl: { pending: 'pending', delivered: 'delivered', failed: 'given up' } as Record<string, string>,
  stage: {
    created: 'Order placed', create: 'Created at the market', confirm: 'Confirmed', queue: 'In the purchase queue', pricing: 'Price checked',
    balance: 'Paid from the purchase wallet', purchase: 'Bought', transfer: 'Sent to the recipient',
    'order.completed': 'Completed', 'order.failed': 'Failed', 'order.refunded': 'Money returned to the balance',
  } as Record<string, string>,
  ledger: 'Ledger', ledgerHint: 'Every top-up, debit and refund', noEntries: 'No entries.', balanceAfterShort: 'balance',
  kind: { topup: 'Top-up', order_debit: 'Order', order_refund: 'Refund' } as Record<string, string>,
  st: { processing: 'Processing', completed: 'Completed', failed: 'Failed', canceled: 'Canceled', partial: 'Partial' } as Record<string, string>,
  stateName: { done: 'done', current: 'in progress', pending: 'waiting', failed: 'failed' } as Record<string, string>,
  currency: 'Currency', sum: 'Amount', network: 'Network', request: 'Get payment details', sendExactly: 'Send exactly', to: 'To address',
  comment: 'Comment', copy: 'Copy', copied: 'Copied', openWallet: 'Open in wallet', expires: 'Valid until',
  rq: { open: 'Waiting for the payment', credited: 'Credited', expired: 'Expired' } as Record<string, string>,
  alerts: 'Low-balance alerts', alertsHint: 'When an order takes a balance below its threshold, owners hear it in the bot (and the webhook, if it sends Low balance). Empty: off.',
  off: 'off', alertsSaved: 'Thresholds saved.',
  minimum: (m: string, c: string) => `Minimum ${m} ${c}`, newRequest: 'New request', chooseNetwork: 'Choose the network first: a payment on another network is lost.',
  limits: (min: number, max: number) => `${min} – ${max}`,
  apiKey: 'API key', noKey: 'No key yet.', issue: 'Issue key', reissue: 'Reissue key', whitelist: 'IP whitelist (optional)',
  whitelistHint: '203.0.113.7, 198.51.100.0/24', keyShownOnce: 'Copy it now: it is shown only once.', reissueWarn: 'The current key stops working at once.',
  webhook: 'Webhook', url: 'URL', save: 'Save', regenerate: 'Regenerate secret', secretShownOnce: 'Webhook secret (shown once):',
  hasSecret: 'A secret is set.', noSecret: 'No secret yet: it is created on the first save.', saved: 'Saved',
  events: 'Events sent',
  ev: { 'order.completed': 'Order completed', 'order.failed': 'Order failed', 'order.refunded': 'Order refunded', 'balance.low': 'Low balance (thresholds on the Top up tab)' } as Record<string, string>,
  inviteStaff: 'Invite staff', inviteOwner: 'Invite owner', inviteLink: 'Invite link (valid 24 h, single use)', people: 'People',
  unlink: 'Unlink', you: 'you', since: 'since', unlinkConfirm: (id: number) => `Unlink ${id}? They lose access at once.`,
  reissueConfirm: 'Reissue the key? The current key stops working at once.', regenerateConfirm: 'Make a new secret? The current one stops verifying at once.',
  signinAs: (name: string) => `Sign in as ${name}?`, signinUser: (id: number) => `Telegram user ${id}`, signinYes: 'Sign in', signinNo: 'Cancel',
  signinAsText: (partner: string | null) => `${partner ? `You will work in the dashboard of ${partner}. ` : ''}Go on only if you asked the bot for this link yourself.`,
  signinTitle: 'Partner dashboard', signinText: 'Open the dashboard from the bot in Telegram, or send /app to the bot for a one-time sign-in link.',
  notLinked: 'This Telegram account is not linked to a partner. Open your invite link in the bot first.',
  loading: 'Loading…', retry: 'Retry', error: 'Something went wrong.', inactive: 'The account is not activated yet: make the first top-up.',
  console: {
    tab: 'Console', partnerTab: 'Partner', overview: 'Overview', partners: 'Partners', reviews: 'Reviews', deposits: 'Deposits', products: 'Products',
    liabilities: 'Partner balances (liabilities)', funds: 'Supplier funds', coverage: 'Coverage', covered: 'covered', notCovered: 'NOT covered',
    coverageWarn: (s: string, c: string) => `${s} cannot cover what partners may order in ${c}: top it up.`,
    waiting: 'Waiting', reviewsWaiting: 'Orders in review', depositsUnmatched: 'Unmatched deposits', webhooksGaveUp: 'Webhooks given up (24 h)',
    orders24: 'Orders, last 24 h', byStatus: 'By status', byType: 'By type', margin: 'Margin of completed orders (24 h)', perHour: 'Orders per hour (24 h)',
    noOrders24: 'No orders in the last 24 hours.', search: 'Search by name or id', newPartner: 'New partner', name: 'Name', create: 'Create',
    ownerInvite: 'Owner invite (single use, 24 h): send the link or show the QR code', none: 'Nothing here.', orders: 'Orders', ledger: 'Ledger',
    stage: 'Stage', since: 'since', partner: 'Partner', deliver: 'Deliver', refund: 'Refund', transferHash: 'Transfer hash (optional for a gift)',
    deliverConfirm: (id: string) => `Mark ${id} as delivered? The partner is told it completed.`,
    refundConfirm: (id: string, amount: string) => `Refund ${id}? ${amount} goes back to the partner's balance.`,
    resolved: 'Done.', credit: 'Credit', close: 'Close', note: 'Note', creditTo: 'Credit to partner', pick: 'Find the partner',
    creditConfirm: (amount: string, name: string) => `Credit ${amount} to ${name}?`, closeConfirm: 'Close this deposit without crediting anyone?',
    from: 'From', tx: 'Transaction', dep: { unmatched: 'unmatched', credited: 'credited', closed: 'closed', ignored: 'ignored' } as Record<string, string>,
    cost: 'Cost', price: 'Price', on: 'On', off: 'Off', offConfirm: (p: string) => `Switch ${p} off? Partners get product_disabled until it is on again.`,
    supplier: { sandbox_fragment: 'Fragment wallet (sandbox)', sandbox_gifts: 'Gift account (sandbox)', fragment: 'Fragment hot wallet' } as Record<string, string>,
    per1000: 'per 1000', fees: 'fees per gift', marginWord: 'margin', keys: 'API key', webhookUrl: 'Webhook', exports: 'Exports',
  },
  // the app's own words for refusals the bot explains with its commands; the rest are the bot's (words.ts)
  err: {
    insufficient_balance: 'Not enough balance: an owner can top it up on the Top up tab.', network: 'No connection.',
    partner_inactive: 'The account is not activated yet: make the first top-up.', idempotency_key_reuse: 'This confirmation was already used: start the order again.',
  } as Record<string, string>,
};

type Dict = typeof en;

const ru: Dict = {
  spend7: 'Потрачено за 7 дней', gift: 'Подарок', ordersN: (n: number) => `${n} ${ruPlural(n, 'заказ', 'заказа', 'заказов')}`,
  home: 'Главная', order: 'Заказ', orders: 'Заказы', topup: 'Пополнить', apiTab: 'API', team: 'Команда',
  balances: 'Балансы', recent: 'Последние заказы', noOrders: 'Заказов пока нет.', all: 'Все', more: 'Показать ещё',
  stars: 'Звёзды', premium: 'Premium', gifts: 'Подарки', recipient: 'Получатель', recipientHint: '@username',
  checking: 'Проверяем…', found: 'Найден', notFound: 'Не найден', alreadyPremium: 'Premium уже есть: заказ подождёт его окончания',
  cannotReceive: 'Не может получать подарки', amount: 'Количество', months: (m: number) => `${m} мес.`, price: 'Цена', balanceAfter: 'Баланс после',
  notEnough: 'Недостаточно средств', confirm: 'Подтвердить заказ', confirmPay: (p: string) => `Оплатить ${p}`, placed: 'Заказ создан',
  collection: 'Коллекция', model: 'Модель', backdrop: 'Фон', symbol: 'Символ', any: 'Любой', sort: 'Сортировка',
  cheapFirst: 'Цена ↑', expensiveFirst: 'Цена ↓', number: 'Номер', found_n: (n: number) => `${n} ${ruPlural(n, 'подарок', 'подарка', 'подарков')}`,
  tolerance: 'Допустимый рост цены до', maxPrice: 'Макс. цена', buy: 'Купить', attributes: 'Атрибуты', back: 'Назад',
  status: 'Статус', type: 'Тип', timeline: 'Ход заказа', refund: 'Возврат', refunded: 'Возвращено', inReview: 'На ручной проверке',
  deliveries: 'Доставка вебхуков', noDeliveries: 'Вебхуков нет.', created: 'Создан', why: 'Причина',
  nextAttempt: 'Следующая попытка', manual: 'отправлен вручную', sendAgain: 'Отправить снова', deliveryLog: 'Журнал доставки', deliveryLogHint: 'Все события, отправленные на вебхук, с каждой попыткой',
  testWebhook: 'Отправить тестовый вебхук', testResult: (ok: boolean) => (ok ? 'Тестовый вебхук доставлен.' : 'Тестовый вебхук не доставлен:'),
  dl: { pending: 'ожидает', delivered: 'доставлен', failed: 'не доставлен' },
  stage: {
    created: 'Заказ создан', create: 'Создан на маркете', confirm: 'Подтверждён', queue: 'В очереди на покупку', pricing: 'Цена проверена',
    balance: 'Оплачен с кошелька покупок', purchase: 'Куплен', transfer: 'Отправлен получателю',
    'order.completed': 'Выполнен', 'order.failed': 'Не выполнен', 'order.refunded': 'Деньги вернулись на баланс',
  },
  ledger: 'Движение средств', ledgerHint: 'Пополнения, списания и возвраты', noEntries: 'Записей нет.', balanceAfterShort: 'баланс',
  kind: { topup: 'Пополнение', order_debit: 'Заказ', order_refund: 'Возврат' },
  st: { processing: 'В работе', completed: 'Выполнен', failed: 'Ошибка', canceled: 'Отменён', partial: 'Частично' },
  stateName: { done: 'готово', current: 'идёт', pending: 'ожидает', failed: 'ошибка' },
  currency: 'Валюта', sum: 'Сумма', network: 'Сеть', request: 'Получить реквизиты', sendExactly: 'Отправьте ровно', to: 'На адрес',
  comment: 'Комментарий', copy: 'Копировать', copied: 'Скопировано', openWallet: 'Открыть в кошельке', expires: 'Действует до',
  rq: { open: 'Ждём платёж', credited: 'Зачислено', expired: 'Истёк' },
  alerts: 'Оповещения о низком балансе', alertsHint: 'Когда заказ опускает баланс ниже порога, владельцы узнают об этом в боте (и вебхук, если он отправляет «Низкий баланс»). Пусто — выключено.',
  off: 'выкл.', alertsSaved: 'Пороги сохранены.',
  minimum: (m: string, c: string) => `Минимум ${m} ${c}`, newRequest: 'Новый запрос', chooseNetwork: 'Сначала выберите сеть: платёж в другой сети пропадёт.',
  limits: (min: number, max: number) => `${min} – ${max}`,
  apiKey: 'API-ключ', noKey: 'Ключа ещё нет.', issue: 'Выпустить ключ', reissue: 'Перевыпустить ключ', whitelist: 'Белый список IP (необязательно)',
  whitelistHint: '203.0.113.7, 198.51.100.0/24', keyShownOnce: 'Скопируйте сейчас: ключ показывается один раз.', reissueWarn: 'Текущий ключ сразу перестанет работать.',
  webhook: 'Вебхук', url: 'URL', save: 'Сохранить', regenerate: 'Новый секрет', secretShownOnce: 'Секрет вебхука (показывается один раз):',
  hasSecret: 'Секрет задан.', noSecret: 'Секрета ещё нет: он появится при первом сохранении.', saved: 'Сохранено',
  events: 'Отправляемые события',
  ev: { 'order.completed': 'Заказ выполнен', 'order.failed': 'Заказ не выполнен', 'order.refunded': 'Возврат по заказу', 'balance.low': 'Низкий баланс (пороги — на вкладке «Пополнить»)' } as Record<string, string>,
  inviteStaff: 'Пригласить сотрудника', inviteOwner: 'Пригласить владельца', inviteLink: 'Ссылка-приглашение (24 ч, одноразовая)', people: 'Люди',
  unlink: 'Отвязать', you: 'вы', since: 'с', unlinkConfirm: (id: number) => `Отвязать ${id}? Доступ пропадёт сразу.`,
  reissueConfirm: 'Перевыпустить ключ? Текущий ключ сразу перестанет работать.', regenerateConfirm: 'Создать новый секрет? Текущий сразу перестанет подходить.',
  signinAs: (name: string) => `Войти как ${name}?`, signinUser: (id: number) => `пользователь Telegram ${id}`, signinYes: 'Войти', signinNo: 'Отмена',
  signinAsText: (partner: string | null) => `${partner ? `Вы будете работать в кабинете ${partner}. ` : ''}Продолжайте, только если сами запросили эту ссылку у бота.`,
  signinTitle: 'Кабинет партнёра', signinText: 'Откройте кабинет из бота в Telegram или отправьте боту /app, чтобы получить одноразовую ссылку для входа.',
  notLinked: 'Этот аккаунт Telegram не привязан к партнёру. Сначала откройте ссылку-приглашение в боте.',
  loading: 'Загрузка…', retry: 'Повторить', error: 'Что-то пошло не так.', inactive: 'Аккаунт ещё не активирован: сделайте первое пополнение.',
  console: {
    tab: 'Консоль', partnerTab: 'Кабинет', overview: 'Обзор', partners: 'Партнёры', reviews: 'Проверка', deposits: 'Депозиты', products: 'Товары',
    liabilities: 'Балансы партнёров (обязательства)', funds: 'Средства у поставщиков', coverage: 'Покрытие', covered: 'покрыто', notCovered: 'НЕ покрыто',
    coverageWarn: (s: string, c: string) => `${s}: не хватит на то, что партнёры могут заказать в ${c}. Пополните счёт.`,
    waiting: 'Ждёт', reviewsWaiting: 'Заказы на проверке', depositsUnmatched: 'Депозиты не опознаны', webhooksGaveUp: 'Вебхуки не доставлены (24 ч)',
    orders24: 'Заказы за 24 ч', byStatus: 'По статусу', byType: 'По типу', margin: 'Маржа выполненных заказов (24 ч)', perHour: 'Заказы по часам (24 ч)',
    noOrders24: 'За последние 24 часа заказов нет.', search: 'Поиск по имени или id', newPartner: 'Новый партнёр', name: 'Название', create: 'Создать',
    ownerInvite: 'Приглашение владельца (одноразовое, 24 ч): отправьте ссылку или покажите QR-код', none: 'Здесь пусто.', orders: 'Заказы', ledger: 'Движение средств',
    stage: 'Этап', since: 'с', partner: 'Партнёр', deliver: 'Доставлен', refund: 'Вернуть', transferHash: 'Хеш перевода (для подарка, необязательно)',
    deliverConfirm: (id: string) => `Отметить ${id} доставленным? Партнёр узнает, что заказ выполнен.`,
    refundConfirm: (id: string, amount: string) => `Вернуть деньги за ${id}? ${amount} вернётся на баланс партнёра.`,
    resolved: 'Готово.', credit: 'Зачислить', close: 'Закрыть', note: 'Заметка', creditTo: 'Зачислить партнёру', pick: 'Найдите партнёра',
    creditConfirm: (amount: string, name: string) => `Зачислить ${amount} партнёру ${name}?`, closeConfirm: 'Закрыть депозит, никому не зачисляя?',
    from: 'От', tx: 'Транзакция', dep: { unmatched: 'не опознан', credited: 'зачислен', closed: 'закрыт', ignored: 'пропущен' },
    cost: 'Себестоимость', price: 'Цена', on: 'Вкл.', off: 'Выкл.', offConfirm: (p: string) => `Выключить ${p}? Партнёры будут получать product_disabled, пока его не включат.`,
    supplier: { sandbox_fragment: 'Кошелёк Fragment (песочница)', sandbox_gifts: 'Аккаунт подарков (песочница)', fragment: 'Горячий кошелёк Fragment' },
    per1000: 'за 1000', fees: 'комиссии на подарок', marginWord: 'маржа', keys: 'API-ключ', webhookUrl: 'Вебхук', exports: 'Выгрузки',
  },
  err: {
    insufficient_balance: 'Недостаточно средств: владелец может пополнить баланс на вкладке «Пополнить».', network: 'Нет соединения.',
    partner_inactive: 'Аккаунт ещё не активирован: сделайте первое пополнение.', idempotency_key_reuse: 'Это подтверждение уже использовано: начните заказ заново.',
  },
};

export const lang = language();
export const t: Dict = lang === 'ru' ? ru : en;
/** The words the bot shows too (src/domain/words.ts): roles, failure reasons, networks, refusals. */
export const words = WORDS[lang];
document.documentElement.lang = lang;

/** A refusal in words: the app's own for a few codes, else the bot's, else the server's detail. */
export function errorText(e: unknown): string {
  const err = e as { code?: string; detail?: string; body?: Record<string, unknown> };
  if (!err.code) return t.error;
  return t.err[err.code] ?? words.error(err.code, err.body ?? {}) ?? err.detail ?? t.error;
}
