import { ruPlural } from '../../src/domain/labels.js';
import type { Notice } from '../../src/app/notices.js';
import type { Texts } from './en.js';
import { esc, shortTime, zonedTime, type DepositView, type ErrorInfo, type GiftCollectionInfo, type GiftItem, type GiftPage, type GiftQuote, type OrderInfo, type Quote } from './types.js';
import { WORDS } from '../../src/domain/words.js';
import type { Handled } from './types.js';
import { topupRu } from './topup.js';
import { duration, handledAt } from './format.js';

const W = WORDS.ru;
const ROLE = W.role;
const WEBHOOK_REASONS = W.webhookReasons;
const failureWhy = W.failureWhy;

/** Все русские тексты бота. */

const STATUS: Record<string, string> = {
  processing: 'выполняется ⏳',
  completed: 'выполнен ✅',
  failed: 'не выполнен ❌',
  canceled: 'отменён ❌',
  partial: 'выполнен частично',
};

function status(o: OrderInfo): string {
  if (o.status === 'failed' && !o.refunded) return 'на проверке у поддержки ⏳ (деньги пока не возвращены)';
  return STATUS[o.status] ?? o.status;
}

const REVIEW_STAGE: Record<string, string> = {
  transfer: 'подарок куплен, передача получателю не удалась',
  delivery_unconfirmed: 'звёзды отправлены, доставка не подтверждена',
  delivery_unconfirmed_premium: 'подписка Premium оплачена, доставка не подтверждена',
};
const reviewStage = (stage: string, o: OrderInfo | null) =>
  REVIEW_STAGE[stage === 'delivery_unconfirmed' && o?.type === 'premium' ? 'delivery_unconfirmed_premium' : stage] ?? 'доставку не удалось завершить автоматически';
/** Почему поступление не зачислилось само (src/domain/deposit-matching.ts UnmatchedReason). */
const DEPOSIT_REASON: Record<string, string> = {
  wrong_amount: 'сумма не совпадает ни с одним открытым запросом на пополнение',
  expired_request: 'оплачен запрос на пополнение, срок которого истёк',
  unknown_request: 'ни один открытый запрос на пополнение не ждёт такой суммы',
  below_minimum: 'сумма меньше минимального пополнения',
  wrong_address: 'отправлено не на адрес пополнения для этого актива',
  wrong_network: 'отправлено в сети, в которой этот актив не принимается',
};
const DEPOSIT_STATUS: Record<string, string> = { credited: 'зачислено', closed: 'закрыто', ignored: 'пропущено (другой токен)', pending: 'ждёт подтверждений сети', unmatched: 'ждёт разбора' };
const NETWORK: Record<string, string> = { ton: 'TON', trc20: 'TRC-20 (TRON)', bep20: 'BEP-20 (BNB Smart Chain)' };
const network = (n: string) => NETWORK[n] ?? n;
const STORAGE_FAULT: Record<string, string> = {
  disk_full: 'диск заполнен',
  io_error: 'диск сообщает об ошибках ввода-вывода',
  read_only: 'файл базы данных стал доступен только для чтения',
  busy: 'база данных долго заблокирована другим процессом',
};
/** Проблема поставщика, которую должны решить операторы (src/suppliers/fragment), словами. */
function supplierProblem(a: { problem: string; balance_ton?: string; need_ton?: string }): string {
  switch (a.problem) {
    case 'session_expired':
      return 'истекла сессия: войдите в Fragment заново и обновите настройки сессии';
    case 'need_verify':
      return 'требуется верификация аккаунта (KYC), пока продажи приостановлены';
    case 'unreachable':
      return 'не отвечает; заказы ждут и будут повторены';
    case 'wallet_below_min':
      return `на кошельке для покупок ${a.balance_ton ?? '?'} TON — меньше минимума ${a.need_ton ?? '?'} TON: пополните его`;
    case 'wallet_funds_low':
      return `кошелёк для покупок (${a.balance_ton ?? '?'} TON) не может оплатить следующий заказ, нужно ${a.need_ton ?? '?'} TON: пополните его`;
    case 'payment_bounced':
      return 'платёж вернулся (TON пришли обратно на кошелёк): заказ ждёт проверки';
    case 'payment_refused':
      return 'платёж остановлен проверками безопасности';
    default:
      return 'сообщает о проблеме';
  }
}
/** Почему доставка вебхука прекращена, словами. */
function webhookWhy(reason: string): string {
  const http = /^HTTP (\d{3})$/.exec(reason);
  if (http) return `сервер ответил HTTP ${http[1]}`;
  if (reason === 'timeout') return 'сервер не ответил вовремя';
  if (reason === 'dns_failure') return 'имя хоста не удалось разрешить';
  if (reason === 'private_address') return 'имя хоста указывает на адрес частной сети';
  if (reason === 'no_secret') return 'у вебхука ещё нет секрета';
  if (WEBHOOK_REASONS[reason]) return `адрес не принят: ${WEBHOOK_REASONS[reason]}`;
  return 'не удалось соединиться с сервером';
}
const OPERATOR_REASON: Record<string, string> = {
  insufficient_funds: 'на кошельке для покупок не хватает средств (пополните его; партнёру деньги вернулись)',
  hub_rejected: 'хаб поставщика отклонил покупку (партнёру деньги вернулись)',
  queue_rejected: 'очередь поставщика отклонила заказ (партнёру деньги вернулись)',
};

/** Заказ в двух словах (кнопки). */
function what(o: OrderInfo): string {
  if (o.type === 'stars') return `⭐ ${o.quantity}`;
  if (o.type === 'premium') return `💎 ${o.quantity} мес.`;
  return `🎁 ${o.gift ?? 'подарок'}`;
}

function failureNext(o: OrderInfo): string {
  switch (o.failureReason) {
    case 'gift_not_for_sale':
    case 'gift_reserved':
      return 'Выберите другой подарок через /order.';
    case 'price_above_cap':
      return 'Можно заказать его снова по сегодняшней цене через /order.';
    case 'invalid_recipient':
      return 'Проверьте имя пользователя или выберите другого получателя через /order.';
    case 'manual_refund':
      return 'За подробностями обратитесь в поддержку.';
    default:
      return 'Можно попробовать снова через /order; если ошибка повторяется, поддержка уже знает.';
  }
}
/** События вебхука словами. */
const EVENT: Record<string, string> = {
  'order.completed': 'событие «заказ выполнен»',
  'order.failed': 'событие «заказ не выполнен»',
  'order.refunded': 'событие «деньги за заказ возвращены»',
  'balance.low': 'событие «низкий баланс»',
};
const eventName = (e: string) => EVENT[e] ?? `событие «${e}»`;
/** Как называется прерванное действие, по команде, которая его начинает. */
const ACTIVITY: Record<string, string> = { '/order': 'заказ', '/topup': 'пополнение', '/apikey': 'выпуск API-ключа', '/webhook': 'настройка вебхука', '/alerts': 'настройка оповещений о балансе', '/deposits': 'обработка поступления' };

const months = (m: number) => `${m} ${ruPlural(m, 'месяц', 'месяца', 'месяцев')}`;
const stars = (n: number) => `${n} ${ruPlural(n, 'звезда', 'звезды', 'звёзд')}`;

export const ru: Texts = {
  lang: 'ru',
  common: {
    notLinked:
      'Этот бот работает для партнёров сервиса заказов. Чтобы им пользоваться, откройте ссылку-приглашение от владельца аккаунта или поддержки (или отправьте /start <код приглашения>).',
    inviteInvalid: 'Код приглашения неизвестен, уже использован или истёк. Попросите новое приглашение.',
    linked: (partner: string, role: string) => `Готово: аккаунт привязан к партнёру ${partner}, роль — ${ROLE[role] ?? role}.`,
    help: (role: string | null, operator: boolean) => {
      const lines: string[] = [];
      if (role) {
        lines.push(`Ваша роль — ${ROLE[role] ?? role}. Команды:`);
        lines.push('/balance — балансы', '/order — новый заказ', '/orders — последние заказы', '/status <номер заказа> — статус заказа', '/notices — какие уведомления получать в этом чате', '/app — кабинет');
        if (role === 'owner') lines.push('/topup — как пополнить баланс', '/apikey — выпустить API-ключ', '/webhook — адрес и секрет вебхука', '/alerts — оповещения о низком балансе');
        lines.push('/cancel — отменить текущее действие');
      }
      if (operator)
        lines.push(...(lines.length ? [''] : []), 'Оператор:', '/reviews — заказы на ручной проверке', '/deposits — поступления, не зачисленные автоматически', ...(role ? [] : ['/cancel — отменить текущее действие']));
      return lines.join('\n');
    },
    ownerOnly: 'Это может сделать только владелец аккаунта.',
    operatorsOnly: 'Это могут делать только операторы.',
    genericError: 'Что-то пошло не так. Попробуйте ещё раз.',
    cancelled: 'Отменено.',
    nothingToCancel: 'Нечего отменять.',
    menuExpired: 'Это меню уже неактивно.',
    useButtons: 'Воспользуйтесь кнопками выше или отправьте /cancel, чтобы выйти.',
    btnCancel: '✖ Отмена',
    btnBack: '◀ Назад',
    restarted: (command: string) => `Незавершённое действие (${ACTIVITY[command] ?? command}) прервано; начинаем заново.`,
    left: (command: string) => `Незавершённое действие (${ACTIVITY[command] ?? command}) прервано. Чтобы начать заново, отправьте ${command}.`,
    accessLost: 'Ваш доступ к аккаунту партнёра изменился, поэтому действие остановлено. Ничего не сделано.',
    you: 'вы',
    replyHint: '↩️ Ответьте на это сообщение (/cancel — отменить).',
    privateOnly: {
      app: 'Ссылка для входа в кабинет личная, поэтому я отправляю её только в личном чате. Нажмите кнопку, чтобы получить её там.',
      apikey: 'API-ключ показывается только в личном чате с владельцем. Нажмите кнопку, чтобы продолжить там.',
      webhook: 'В настройках вебхука виден его секрет, поэтому они открываются только в личном чате с владельцем. Нажмите кнопку, чтобы продолжить там.',
    },
    btnOpenPrivate: '🔒 Продолжить в личном чате',
    idle: (command: string) => `Незавершённое действие (${ACTIVITY[command] ?? command}) прервано: 30 минут без ответа. Чтобы начать заново, отправьте ${command}.`,
  },
  notices: {
    name: {
      completed: 'Выполненные заказы',
      failed: 'Невыполненные заказы',
      staff: 'Заказы коллег',
      api: 'Заказы через API',
      topup: 'Зачисленные пополнения',
      webhook: 'Сбои вебхука',
    },
    hint: {
      completed: 'заказ доставлен',
      failed: 'заказ не выполнен: причина и возврат денег',
      staff: 'заказы других сотрудников в боте или кабинете',
      api: 'заказы, созданные через партнёрский API',
      topup: 'пополнение поступило на баланс',
      webhook: 'ваш сервер не принял событие после последней попытки (не чаще раза в день)',
    },
    menu: (items: { notice: Notice; on: boolean }[]) =>
      [
        'Уведомления в этом чате (🔔 включено, 🔕 выключено). Нажмите кнопку, чтобы переключить:',
        '',
        ...items.map((i) => `${i.on ? '🔔' : '🔕'} ${ru.notices.name[i.notice]}: ${ru.notices.hint[i.notice]}`),
        '',
        'О ваших собственных заказах бот сообщает, пока включены выполненные или невыполненные заказы.',
      ].join('\n'),
    summary: (items: { notice: Notice; on: boolean }[]) => {
      const names = (on: boolean) => items.filter((i) => i.on === on).map((i) => ru.notices.name[i.notice]);
      return `Уведомления сохранены. Включены: ${names(true).join(', ') || 'никакие'}. Выключены: ${names(false).join(', ') || 'никакие'}. Изменить — /notices.`;
    },
    btnDone: '✔ Готово',
    switchedOn: 'Включено.',
    switchedOff: 'Выключено.',
  },
  commands: {
    start: 'Привязать аккаунт по коду приглашения',
    help: 'Что умеет этот бот',
    order: 'Новый заказ: звёзды, Premium или подарок',
    orders: 'Последние заказы',
    balance: 'Балансы',
    status: 'Статус заказа: /status <номер заказа>',
    app: 'Открыть кабинет',
    notices: 'Какие уведомления получать в этом чате',
    topup: 'Пополнить баланс',
    apikey: 'Выпустить API-ключ',
    webhook: 'Адрес и секрет вебхука',
    alerts: 'Оповещения о низком балансе',
    reviews: 'Заказы на ручной проверке',
    deposits: 'Поступления, не зачисленные автоматически',
    cancel: 'Прервать текущее действие',
  },
  balance: (usd: string, ton: string, activated: boolean) =>
    [`Балансы:`, `USD: ${usd} (звёзды, Premium)`, `TON: ${ton} (подарки)`, ...(activated ? [] : ['', 'Аккаунт ещё не активирован: его активирует первое пополнение (/topup).'])].join('\n'),
  order: {
    chooseProduct: 'Что заказать?',
    btnStars: '⭐ Звёзды',
    btnPremium: '💎 Premium',
    btnGifts: '🎁 Подарок',
    chooseStars: (min: number, max: number) => `Сколько звёзд? (от ${min} до ${max})`,
    btnOther: 'Другое количество',
    typeStars: (min: number, max: number) => `Отправьте количество звёзд — целое число от ${min} до ${max}.`,
    badStars: (min: number, max: number) => `Это не целое число от ${min} до ${max}. Попробуйте ещё раз или отправьте /cancel.`,
    choosePremium: 'На какой срок Premium?',
    months,
    chosenStars: (n: number) => `⭐ Звёзды: ${n}`,
    chosenPremium: (m: number) => `💎 Premium: ${months(m)}`,
    askRecipient: 'Отправьте имя пользователя получателя в Telegram (например, @username).',
    recipientRetry: 'Отправьте другое имя пользователя или /cancel.',
    confirm: (q: Quote) => {
      const what = q.product === 'stars' ? stars(q.quantity) : `Premium на ${months(q.quantity)}`;
      const lines = [
        'Проверьте заказ:',
        `${what} для @${q.recipient}`,
        `Цена: ${q.price} ${q.currency}`,
        q.enough ? `Баланс: ${q.balance} ${q.currency} → после заказа: ${q.balanceAfter} ${q.currency}` : `Баланс: ${q.balance} ${q.currency}`,
      ];
      if (q.alreadyPremium)
        lines.push(
          '',
          `⚠️ У @${q.recipient} уже есть активная подписка Premium. Заказ будет принят и оплачен сейчас, но будет ждать окончания текущей подписки (попытка раз в день).`,
        );
      if (!q.enough)
        lines.push('', `⚠️ На балансе ${q.currency} не хватает ${q.shortBy} ${q.currency} для этого заказа. Пополните баланс (владелец аккаунта: /topup) и закажите снова.`);
      return lines.join('\n');
    },
    btnConfirm: '✅ Подтвердить',
    accepted: (o: OrderInfo) =>
      `✅ Заказ ${o.order_id} принят: ${o.label}.\nСписано: ${o.partner_price} ${o.currency}. Статус: ${status(o)}.\nНапишу, когда он будет выполнен.`,
    already: (o: OrderInfo) => `Это подтверждение уже использовано: заказ ${o.order_id}, статус — ${status(o)}.`,
    retryHint: 'Можно повторить с тем же подтверждением (двойного списания не будет) или отменить.',
    nothingOffered: 'Сейчас ничего нельзя заказать: все товары отключены. Попробуйте позже.',
    pricesUnavailable: 'Цены временно недоступны, поэтому заказы сейчас не принимаются. Попробуйте позже.',
  },
  gifts: {
    chooseCollection: 'Выберите коллекцию:',
    collection: (c: GiftCollectionInfo) => `${c.name} · ${c.count} · от ${c.floor_partner_price} TON`,
    none: 'Сейчас нет подарков в продаже. Попробуйте позже.',
    page: (p: GiftPage) =>
      [
        `${p.collection}: подарки от самых дешёвых (страница ${p.page + 1} из ${p.pages}). Цены с учётом передачи.`,
        '',
        ...p.items.map((g, i) => `${i + 1}. ${g.name} #${g.num} — ${g.partner_price} TON${g.affordable ? '' : ' 🔒'}`),
        ...(p.items.some((g) => !g.affordable) ? ['', `🔒 дороже вашего баланса TON (${p.balance} TON): сначала пополните его (владелец аккаунта: /topup).`] : []),
      ].join('\n'),
    empty: 'В этой коллекции подарков не осталось.',
    item: (i: number, g: GiftItem) => `${i + 1}. #${g.num} · ${g.partner_price} TON${g.affordable ? '' : ' 🔒'}`,
    btnPrev: '◀ Дешевле',
    btnNext: 'Дороже ▶',
    chosen: (g: { name: string; num: number }) => `🎁 ${g.name} #${g.num}`,
    soldMeanwhile: 'Этот подарок только что продан или забронирован. Выберите другой.',
    priceMoved: (was: string, now: string) => `Цена подарка выросла с ${was} до ${now} TON до покупки. Ничего не списано.`,
    btnBuyAtNewPrice: '✅ Купить по новой цене',
    cannotReceive: 'Этот аккаунт не может получать подарки. Отправьте другое имя пользователя или /cancel.',
    confirm: (q: GiftQuote) =>
      [
        'Проверьте заказ:',
        `Подарок ${q.name} #${q.num} (${q.attributes.model}, ${q.attributes.backdrop}, ${q.attributes.symbol}) для @${q.recipient}`,
        `Цена: ${q.price} TON (передача и комиссия сети включены)`,
        `Подтверждая, вы принимаете ${q.price} TON как максимальную цену: если до покупки цена вырастет, заказ будет отклонён и ничего не спишется.`,
        q.enough ? `Баланс: ${q.balance} TON → после заказа: ${q.balanceAfter} TON` : `Баланс: ${q.balance} TON`,
        ...(q.enough ? [] : ['', `⚠️ На балансе TON не хватает ${q.shortBy} TON для этого подарка. Пополните баланс (владелец аккаунта: /topup) и закажите снова.`]),
      ].join('\n'),
    unavailable: 'Этот подарок больше не продаётся. Выберите другой через /order.',
  },
  orders: {
    title: (page: number) => `Последние заказы (страница ${page}):`,
    none: 'Заказов пока нет.',
    line: (o: OrderInfo) => `${what(o)} → @${o.recipient.replace(/^@/, '')} · ${status(o)}\n${o.partner_price} ${o.currency} · ${zonedTime(o.created_at)} · ${o.order_id}`,
    button: (o: OrderInfo) => `${what(o)} → @${o.recipient.replace(/^@/, '')} · ${shortTime(o.created_at)}`,
    btnPrev: '◀ Новее',
    btnNext: 'Старше ▶',
    details: (o: OrderInfo) =>
      [
        `Заказ ${o.order_id}`,
        o.label,
        `Статус: ${status(o)}`,
        `Цена: ${o.partner_price} ${o.currency}`,
        `Создан: ${zonedTime(o.created_at)}`,
        ...(o.completed_at ? [`Выполнен: ${zonedTime(o.completed_at)}`] : []),
        ...(o.giftUrl ? [`Страница подарка: ${o.giftUrl}`] : []),
        ...(o.status === 'failed' || o.status === 'canceled' ? [`Причина: ${failureWhy(o)}`] : []),
        ...(o.refunded ? ['Деньги возвращены на баланс.'] : []),
      ].join('\n'),
    statusUsage: 'Отправьте /status <номер заказа>, например /status PA-100001, или откройте /orders.',
    notFound: 'Такого заказа нет.',
  },
  notify: {
    completed: (o: OrderInfo) => `✅ Заказ ${o.order_id} выполнен: ${o.label}.${o.giftUrl ? `\nСтраница подарка: ${o.giftUrl}` : ''}`,
    failed: (o: OrderInfo) =>
      o.refunded
        ? `❌ Заказ ${o.order_id} не выполнен: ${o.label}.\nПричина: ${failureWhy(o)}\n${o.partner_price} ${o.currency} возвращены на баланс. ${failureNext(o)}`
        : `⏳ Заказ ${o.order_id} не прошёл автоматически: ${o.label}.\nЕго проверяет поддержка; деньги пока не возвращены. Итог придёт сюда.`,
    webhookGaveUp: (event: string, orderId: string, reason: string) =>
      `📭 Ваш сервер вебхуков не принял ${eventName(event)} по заказу ${orderId}, повторные попытки закончились: ${webhookWhy(reason)}. Сам заказ не затронут: /status ${orderId} покажет его. Проверьте сервер и адрес (/webhook).`,
    balanceLow: (currency: string, balance: string, threshold: string) =>
      `🔻 Низкий баланс: на балансе ${currency} осталось ${balance} ${currency} — меньше порога оповещения ${threshold} ${currency}. Пополните его (/topup), чтобы заказы не отклонялись. Снова это сообщение придёт только после того, как баланс вернётся к ${threshold} ${currency} или выше.`,
  },
  topup: topupRu,
  owner: {
    badWhitelist: (entry: string) => `«${entry}» — не IP-адрес и не диапазон CIDR (например, 203.0.113.7 или 198.51.100.0/24). Отправьте список снова или /cancel.`,
    apikeyNeedsTopup: 'API-ключ выдаётся после первого пополнения, которое активирует аккаунт: как пополнить — /topup.',
    apikeyIntro: 'Выпустить новый API-ключ? Текущий ключ сразу перестанет работать. Ключ можно ограничить IP-адресами.',
    btnIssue: '🔑 Выпустить без ограничения IP',
    btnIssueWhitelist: '🔒 Выпустить со списком IP',
    askWhitelist: 'Отправьте разрешённые IP-адреса или диапазоны CIDR через пробел или запятую (например, 203.0.113.7 198.51.100.0/24).',
    keyIssued: (key: string, whitelist: string[]) =>
      `🔑 Новый API-ключ (показывается один раз, сохраните его сейчас):\n<code>${esc(key)}</code>\n${
        whitelist.length ? `Разрешённые IP: ${esc(whitelist.join(', '))}` : 'Без ограничения по IP.'
      }\nПрежний ключ больше не работает.`,
    webhookIntro: (url: string | null, hasSecret: boolean, events: string[]) =>
      [
        'Вебхук (уведомления о результатах заказов на ваш сервер):',
        `Адрес: ${url ? url : url === '' ? 'пустой (доставки нет)' : 'ещё не сохранялся'}`,
        `Секрет: ${hasSecret ? 'создан (показывается только при создании или замене)' : 'ещё не создан (создаётся при первом сохранении)'}`,
        `События: ${events.join(', ')}`,
      ].join('\n'),
    btnEvents: '🔔 События',
    chooseEvents: 'Какие события получать вашему серверу? Оповещение о низком балансе (balance.low) приходит, когда заказ опускает баланс ниже порога из /alerts.',
    btnOrderEvents: 'Только результаты заказов',
    btnOrderAndLowEvents: 'Результаты заказов + низкий баланс',
    eventsSaved: (events: string[]) => `Сохранено. События: ${events.join(', ')}.`,
    alertsIntro: (v: { USD: string | null; TON: string | null }) =>
      [
        'Оповещения о низком балансе: когда заказ опускает баланс ниже порога, владельцы получают здесь одно сообщение (следующее — только после того, как баланс вернётся к порогу или выше).',
        `USD: ${v.USD === null ? 'выключено' : `ниже ${v.USD} USD`}`,
        `TON: ${v.TON === null ? 'выключено' : `ниже ${v.TON} TON`}`,
      ].join('\n'),
    btnAlert: (currency: string) => `Порог ${currency}`,
    askThreshold: (currency: string) =>
      `Отправьте порог для ${currency}, например ${currency === 'USD' ? '100 или 100.50' : '50 или 50.125'}, или «-», чтобы выключить оповещение по ${currency}.`,
    badThreshold: (currency: string) =>
      `Это не порог: отправьте положительное число, не больше ${currency === 'USD' ? '2 знаков' : '3 знаков'} после точки, например ${currency === 'USD' ? '100.50' : '50.125'}, или «-», чтобы выключить.`,
    thresholdSaved: (currency: string, value: string | null) =>
      value === null ? `Оповещение о низком балансе ${currency} выключено.` : `Сохранено: сообщу, когда заказ опустит баланс ${currency} ниже ${value} ${currency}.`,
    btnSetUrl: '✏️ Указать адрес',
    btnRegenerate: '♻️ Новый секрет',
    askUrl: 'Отправьте адрес вебхука (https://…) или «-», чтобы сохранить пустой адрес.',
    urlSaved: (url: string) => (url ? `Сохранено. Адрес: ${url}` : 'Сохранено с пустым адресом: вебхуки не отправляются.'),
    secretShown: (secret: string, hadSecret: boolean) =>
      `Секрет вебхука (показывается один раз, сохраните его сейчас):\n<code>${esc(secret)}</code>${hadSecret ? '\nПрежний секрет больше не работает.' : ''}`,
  },
  operator: {
    review: (orderId: string, partner: string, stage: string, o: OrderInfo | null) =>
      [
        `🔎 Нужна ручная проверка: заказ ${orderId} партнёра ${partner}.`,
        `Где остановился: ${reviewStage(stage, o)}.`,
        ...(o ? [o.label, `${o.partner_price} ${o.currency}`] : []),
      ].join('\n'),
    failure: (orderId: string, partner: string, reason: string) =>
      `⚠️ Заказ ${orderId} партнёра ${partner} не выполнен: ${OPERATOR_REASON[reason] ?? 'поставщик отказал (партнёру деньги вернулись)'}.`,
    webhookGaveUp: (orderId: string, partner: string, event: string, reason: string) =>
      `📭 ${eventName(event).replace(/^с/, 'С')} по заказу ${orderId} партнёра ${partner} не доставлено, попытки прекращены: ${webhookWhy(reason)}. Владельцам партнёра в боте тоже сообщается (не чаще раза в день).`,
    confirmDeliver: (o: OrderInfo | null) => `Отметить заказ доставленным${o ? ` (${o.label})` : ''}? Деньги партнёру не вернутся, ему придёт «выполнен».`,
    confirmRefund: (o: OrderInfo | null) => `Вернуть деньги за заказ${o ? `: ${o.partner_price} ${o.currency} на баланс партнёра` : ''}?`,
    partner: (name: string | null, id: number) => (name ? `«${name}» (№${id})` : `№${id}`),
    btnSureDeliver: '✅ Да, доставлен',
    btnSureRefund: '↩️ Да, вернуть',
    btnNotSure: '✖ Нет',
    unmatchedDeposit: (depositId: string, amount: string, asset: string, net: string, reason: string) =>
      `💰 Поступление ${depositId} на ${amount} ${asset} в сети ${network(net)} не зачислено автоматически: ${DEPOSIT_REASON[reason] ?? 'его не удалось сопоставить'}. Зачислите его партнёру или закройте с пометкой.`,
    storageDown: (reason: string, detail: string) =>
      `🛑 Хранилище недоступно: ${STORAGE_FAULT[reason] ?? 'записи не проходят'}. Новые заказы и все записи получают 503 storage_unavailable; чтение работает. (${detail.split(':')[0]})`,
    storageUp: (reason: string, seconds: number) => `✅ Хранилище снова доступно через ${seconds} с (было: ${STORAGE_FAULT[reason] ?? 'записи не проходили'}). Записи принимаются.`,
    supplier: (a: { supplier: string; problem: string; detail: string; balance_ton?: string; need_ton?: string }) =>
      `🛠 Поставщик ${a.supplier === 'fragment' ? 'Fragment' : a.supplier}: ${supplierProblem(a)}. Подробности — в журнале сервиса.`,
    other: (kind: string, details: string) => `⚠️ Оповещение ${kind}: ${details}`,
    btnDeliver: '✅ Доставлен',
    btnRefund: '↩️ Вернуть деньги',
    notInReview: 'Этот заказ уже не ждёт проверки.',
    settledBefore: (o: OrderInfo) => `Уже решено: статус — ${status(o)}.`,
    none: 'Заказов на проверке нет.',
    reviewsSummary: (n: number, oldestMs: number) => `Заказов на проверке: ${n}; самый давний ждёт ${duration(oldestMs, 'ru')}.`,
    reviewLine: (i: number, o: OrderInfo, partner: string, ageMs: number) =>
      `${i}. ${o.order_id} · ${partner} · ${what(o)} → @${o.recipient.replace(/^@/, '')} · ${o.partner_price} ${o.currency} · ждёт ${duration(ageMs, 'ru')}`,
    pageOf: (page: number, pages: number) => `Страница ${page} из ${pages}; нажмите на случай, чтобы открыть его.`,
    btnList: '◀ К списку',
    btnPrevPage: '◀ Назад',
    btnNextPage: 'Дальше ▶',
    reviewTitle: (orderId: string, partner: string | null, o: OrderInfo | null) =>
      `🔎 Заказ ${orderId}${partner ? ` партнёра ${partner}` : ''}${o ? `: ${o.label}, ${o.partner_price} ${o.currency}` : ''}`,
    depositTitle: (d: DepositView) => `💰 Поступление ${d.deposit_id}: ${d.amount} ${d.asset} в сети ${network(d.network)}`,
    handled: (h: Handled) => {
      const who = h.by ? `— ${h.by}` : '— вне бота (консоль оператора или API)';
      const when = handledAt(h.at);
      switch (h.outcome) {
        case 'delivered':
          return `✅ Отмечен доставленным ${who}, ${when}.`;
        case 'refunded':
          return `↩️ Деньги возвращены ${who}, ${when}.`;
        case 'credited':
          return `✅ Зачислено партнёру ${h.detail ?? ''} ${who}, ${when}.`;
        default:
          return `✖ Закрыто ${who}, ${when}${h.detail ? `: ${h.detail}` : '.'}`;
      }
    },
    alreadyHandled: (h: Handled) => `Ничего не изменилось: это уже решено. ${ru.operator.handled(h)}`,
    btnCreditDeposit: '💰 Зачислить партнёру…',
    btnCloseDeposit: '✖ Закрыть',
    deposit: (d: DepositView) =>
      [
        `💰 Поступление ${d.deposit_id}: ${d.amount} ${d.asset} в сети ${network(d.network)}, ${zonedTime(d.created_at)}`,
        `Не зачислено автоматически: ${DEPOSIT_REASON[d.reason ?? ''] ?? 'его не удалось сопоставить'}.${d.request_id ? ` Похоже на запрос ${d.request_id}.` : ''}`,
        `Транзакция: ${d.tx_hash}${d.from ? ` от ${d.from}` : ''}`,
        ...(d.comment ? [`Комментарий: ${d.comment}`] : []),
      ].join('\n'),
    depositsNone: 'Неразобранных поступлений нет: все зачислены или закрыты.',
    depositsSummary: (n: number, oldestMs: number) => `Поступлений, не зачисленных автоматически: ${n}; самое давнее пришло ${duration(oldestMs, 'ru')} назад.`,
    depositLine: (i: number, d: DepositView, ageMs: number) =>
      `${i}. ${d.amount} ${d.asset} в сети ${network(d.network)} · ${duration(ageMs, 'ru')} назад · ${DEPOSIT_REASON[d.reason ?? ''] ?? 'его не удалось сопоставить'}`,
    askPartner: (d: DepositView) =>
      `Какому партнёру зачислить ${d.amount} ${d.asset} (поступление ${d.deposit_id})? Отправьте часть названия партнёра или его номер.`,
    searchTooLong: 'Отправьте часть названия покороче (не больше 100 символов) или /cancel.',
    noPartnerMatch: (query: string) => `Нет партнёра, в названии которого есть «${query}». Отправьте другую часть названия или номер, или /cancel.`,
    partnerMatches: (query: string, n: number, more: boolean) =>
      more
        ? `Партнёры по запросу «${query}»: ниже первые ${n}. Выберите одного или отправьте название подробнее.`
        : `Партнёры по запросу «${query}»: ${n}. Выберите одного или отправьте другую часть названия.`,
    partnerButton: (name: string, id: number, active: boolean) => `${name} · №${id}${active ? '' : ' · не активирован'}`,
    confirmCredit: (d: DepositView, partner: string, active: boolean) =>
      [
        `Зачислить ${d.amount} ${d.asset} (поступление ${d.deposit_id}) партнёру ${partner}?`,
        active
          ? 'Действуют правила пополнения (USD от 5.00, TON от 10.000).'
          : 'Его аккаунт ещё не активирован: это первое пополнение должно быть не меньше 10 и активирует аккаунт.',
      ].join('\n'),
    btnSureCredit: '✅ Да, зачислить',
    depositCredited: (d: DepositView, partner: string) => `✅ Поступление ${d.deposit_id} зачислено партнёру ${partner}: ${d.amount} ${d.asset}.`,
    askCloseNote: (d: DepositView) =>
      `Закрыть поступление ${d.deposit_id} (${d.amount} ${d.asset}) без зачисления? Отправьте короткую пометку, почему (например, «возвращено отправителю»), или /cancel.`,
    depositClosed: (d: DepositView) => `✖ Поступление ${d.deposit_id} закрыто: ${d.note ?? ''}`,
    depositGone: (id: string, status: string | null) =>
      status ? `Поступление ${id} уже не ждёт разбора (${DEPOSIT_STATUS[status] ?? status}); ничего не изменено.` : `Поступления ${id} нет.`,
    depositError: (e: ErrorInfo, partner: string | null): string => {
      switch (e.code) {
        case 'deposit_not_unmatched':
          return 'Это поступление уже разобрано: его зачислили или закрыли. Ничего не изменено.';
        case 'topup_below_minimum':
          return `Не зачислено: для партнёра ${partner ?? ''} пополнение должно быть не меньше ${e.extra.minimum} ${e.extra.currency} (первое пополнение партнёра — не меньше 10). Выберите другого партнёра или /cancel и закройте поступление.`;
        case 'not_found':
          return /partner/i.test(e.detail) ? 'Такого партнёра больше нет. Выберите другого.' : 'Этого поступления больше нет.';
        case 'bad_network':
          return 'Не зачислено: этот актив из этой сети не зачисляется. Это поступление можно только закрыть.';
        case 'tx_hash_conflict':
          return 'Не зачислено: пополнение с этим хешем транзакции уже зачислено. Закройте это поступление с пометкой.';
        case 'validation_error':
          return partner === null
            ? 'Отправьте пометку длиной от 1 до 1000 символов или /cancel.'
            : 'Это поступление нельзя зачислить (сервис не зачисляет этот актив). Закройте его с пометкой.';
        default:
          return ru.error(e);
      }
    },
  },
  error: (e: ErrorInfo): string => {
    const x = e.extra;
    switch (e.code) {
      case 'insufficient_balance':
        return `Не хватает денег: на балансе ${x.currency} ${x.balance} ${x.currency}. Пополните баланс (владелец видит, как, в /topup) и попробуйте снова.`;
      case 'idempotency_key_reuse':
        return 'Это подтверждение уже использовано для другого заказа. Начните заново с /order.';
      case 'partner_inactive':
        return 'Аккаунт ещё не активирован: сделайте первое пополнение (как — в /topup).';
      case 'access_lost':
        return ru.common.accessLost;
      default:
        return W.error(e.code, x) ?? `Запрос отклонён (код ошибки ${e.code}). Попробуйте позже или сообщите этот код поддержке.`;
    }
  },
};
