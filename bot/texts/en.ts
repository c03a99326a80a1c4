import type { Notice } from '../../src/app/notices.js';
import { esc, shortTime, zonedTime, type DepositView, type ErrorInfo, type GiftCollectionInfo, type GiftItem, type GiftPage, type GiftQuote, type OrderInfo, type Quote } from './types.js';
import { WORDS } from '../../src/domain/words.js';
import type { Handled } from './types.js';
import { topupEn } from './topup.js';
import { duration, handledAt } from './format.js';

const W = WORDS.en;
const ROLE = W.role;
const WEBHOOK_REASONS = W.webhookReasons;
const failureWhy = W.failureWhy;

/** Every English text of the bot. Order labels stay Russian (partner-api.md rule 7). */

const STATUS: Record<string, string> = {
  processing: 'in progress ⏳',
  completed: 'completed ✅',
  failed: 'failed ❌',
  canceled: 'canceled ❌',
  partial: 'partially delivered',
};

function status(o: OrderInfo): string {
  if (o.status === 'failed' && !o.refunded) return 'being checked by support ⏳ (not refunded yet)';
  return STATUS[o.status] ?? o.status;
}

const REVIEW_STAGE: Record<string, string> = {
  transfer: 'the gift was bought, its transfer to the recipient failed',
  delivery_unconfirmed: 'the stars were sent, the delivery was never confirmed',
  delivery_unconfirmed_premium: 'the Premium subscription was paid, the delivery was never confirmed',
};
const reviewStage = (stage: string, o: OrderInfo | null) =>
  REVIEW_STAGE[stage === 'delivery_unconfirmed' && o?.type === 'premium' ? 'delivery_unconfirmed_premium' : stage] ?? 'the delivery could not be finished automatically';
/** Why a deposit was not credited by itself (src/domain/deposit-matching.ts UnmatchedReason). */
const DEPOSIT_REASON: Record<string, string> = {
  wrong_amount: 'its amount matches no open top-up request',
  expired_request: 'it pays a top-up request that had expired',
  unknown_request: 'no open top-up request asks for this amount',
  below_minimum: 'it is below the smallest top-up',
  wrong_address: 'it was sent to an address that is not the deposit address of this asset',
  wrong_network: 'it was sent on a network where this asset is not accepted',
};
const DEPOSIT_STATUS: Record<string, string> = { credited: 'credited', closed: 'closed', ignored: 'ignored (another token)', pending: 'waiting for confirmations', unmatched: 'waiting' };
const NETWORK: Record<string, string> = { ton: 'TON', trc20: 'TRC-20 (TRON)', bep20: 'BEP-20 (BNB Smart Chain)' };
const network = (n: string) => NETWORK[n] ?? n;
const STORAGE_FAULT: Record<string, string> = {
  disk_full: 'the disk is full',
  io_error: 'the disk reports input/output errors',
  read_only: 'the database file became read-only',
  busy: 'the database stays locked by another process',
};
/** A supplier problem the operators must act on (src/suppliers/fragment), in words. */
function supplierProblem(a: { problem: string; balance_ton?: string; need_ton?: string }): string {
  switch (a.problem) {
    case 'session_expired':
      return 'its session expired: sign in to Fragment again and update the session settings';
    case 'need_verify':
      return 'it asks for the account to be verified (KYC) before it sells more';
    case 'unreachable':
      return 'it does not answer; orders wait and are retried';
    case 'wallet_below_min':
      return `the purchase wallet holds ${a.balance_ton ?? '?'} TON, below its minimum of ${a.need_ton ?? '?'} TON: top it up`;
    case 'wallet_funds_low':
      return `the purchase wallet (${a.balance_ton ?? '?'} TON) cannot pay the next order, which needs ${a.need_ton ?? '?'} TON: top it up`;
    case 'payment_bounced':
      return 'it bounced a payment (the TON came back to the wallet): the order waits for review';
    case 'payment_refused':
      return 'a payment was stopped by the safety checks';
    default:
      return 'it reports a problem';
  }
}
/** Why a webhook delivery was given up, in words (the dispatcher's `HTTP 500`, `timeout`, a refusal reason, a network error). */
function webhookWhy(reason: string): string {
  const http = /^HTTP (\d{3})$/.exec(reason);
  if (http) return `the server answered HTTP ${http[1]}`;
  if (reason === 'timeout') return 'the server did not answer in time';
  if (reason === 'dns_failure') return 'the host name could not be resolved';
  if (reason === 'private_address') return 'the host name points to a private network address';
  if (reason === 'no_secret') return 'the webhook has no secret yet';
  if (WEBHOOK_REASONS[reason]) return `the address is refused: ${WEBHOOK_REASONS[reason]}`;
  return `the connection failed (${reason})`;
}
const OPERATOR_REASON: Record<string, string> = {
  insufficient_funds: 'the purchase wallet lacks funds (top it up; the partner was refunded)',
  hub_rejected: 'the supplier hub rejected the purchase (the partner was refunded)',
  queue_rejected: 'the supplier queue rejected the order (the partner was refunded)',
};

/**
 * An order in English words with its label, which stays Russian by the contract (partner-api.md rule 7):
 * "100 stars for @alice (order label: 100 звёзд Telegram для @alice)".
 */
function described(o: OrderInfo): string {
  const to = `@${o.recipient.replace(/^@/, '')}`;
  const words = o.type === 'stars' ? `${o.quantity} stars for ${to}` : o.type === 'premium' ? `Telegram Premium for ${o.quantity} months for ${to}` : `gift ${o.gift ?? ''} for ${to}`;
  return `${words} (order label: ${o.label})`;
}

/** An order in a few words (buttons). */
function what(o: OrderInfo): string {
  if (o.type === 'stars') return `⭐ ${o.quantity}`;
  if (o.type === 'premium') return `💎 ${o.quantity} mo`;
  return `🎁 ${o.gift ?? 'gift'}`;
}

function failureNext(o: OrderInfo): string {
  switch (o.failureReason) {
    case 'gift_not_for_sale':
    case 'gift_reserved':
      return 'Choose another gift with /order.';
    case 'price_above_cap':
      return 'You can order it again at today’s price with /order.';
    case 'invalid_recipient':
      return 'Check the username, or choose another recipient with /order.';
    case 'manual_refund':
      return 'Contact support if you need details.';
    default:
      return 'You can try again with /order; support has been told if it keeps failing.';
  }
}
/** Webhook event names in words. */
const EVENT: Record<string, string> = {
  'order.completed': 'the “order completed” event',
  'order.failed': 'the “order failed” event',
  'order.refunded': 'the “order refunded” event',
  'balance.low': 'the “low balance” event',
};
const eventName = (e: string) => EVENT[e] ?? `the “${e}” event`;
/** What a conversation is called when it is left or times out, by the command that starts it. */
const ACTIVITY: Record<string, string> = { '/order': 'order', '/topup': 'top-up', '/apikey': 'API key issue', '/webhook': 'webhook setup', '/alerts': 'low-balance alert setup', '/deposits': 'deposit handling' };

export const en = {
  lang: 'en' as 'en' | 'ru',
  common: {
    notLinked:
      'This bot serves partners of the ordering service. To use it, open the invite link your account owner or support sent you (or send /start <invite code>).',
    inviteInvalid: 'This invite code is unknown, already used or expired. Ask for a new invite.',
    linked: (partner: string, role: string) => `Done: this account is linked to ${partner} as ${ROLE[role] ?? role}.`,
    help: (role: string | null, operator: boolean) => {
      const lines: string[] = [];
      if (role) {
        lines.push(`You are linked as ${ROLE[role] ?? role}. Commands:`);
        lines.push('/balance — balances', '/order — new order', '/orders — recent orders', '/status <order id> — order status', '/notices — which notices this chat receives', '/app — the dashboard');
        if (role === 'owner') lines.push('/topup — how to top up', '/apikey — issue the API key', '/webhook — webhook address and secret', '/alerts — low-balance alerts');
        lines.push('/cancel — cancel the current action');
      }
      if (operator)
        lines.push(...(lines.length ? [''] : []), 'Operator:', '/reviews — orders waiting for manual review', '/deposits — deposits not credited automatically', ...(role ? [] : ['/cancel — cancel the current action']));
      return lines.join('\n');
    },
    ownerOnly: 'Only the account owner can do this.',
    operatorsOnly: 'Only operators can do this.',
    genericError: 'Something went wrong. Please try again.',
    cancelled: 'Cancelled.',
    nothingToCancel: 'Nothing to cancel.',
    menuExpired: 'This menu is no longer active.',
    useButtons: 'Please use the buttons above, or send /cancel to leave.',
    btnCancel: '✖ Cancel',
    btnBack: '◀ Back',
    restarted: (command: string) => `The unfinished ${ACTIVITY[command] ?? command} was left; starting again.`,
    left: (command: string) => `The unfinished ${ACTIVITY[command] ?? command} was left. Send ${command} to start again.`,
    idle: (command: string) => `The unfinished ${ACTIVITY[command] ?? command} timed out after 30 minutes without an answer. Send ${command} to start again.`,
    accessLost: 'Your access to this partner account has changed, so this action was stopped. Nothing was done.',
    you: 'you',
    replyHint: '↩️ Reply to this message with your answer (/cancel to stop).',
    /** In a group: what only the owner's private chat shows, and the button that opens it. */
    privateOnly: {
      app: 'The dashboard sign-in link is personal, so I send it only in a private chat. Tap the button to get it there.',
      apikey: 'An API key is shown only in a private chat with the owner. Tap the button to continue there.',
      webhook: 'The webhook settings show its secret, so they are open only in a private chat with the owner. Tap the button to continue there.',
    } as Record<'app' | 'apikey' | 'webhook', string>,
    btnOpenPrivate: '🔒 Continue in a private chat',
  },
  /** /notices: what each notice is (buttons carry the short names). */
  notices: {
    name: {
      completed: 'Completed orders',
      failed: 'Failed orders',
      staff: 'Team members’ orders',
      api: 'API orders',
      topup: 'Top-ups credited',
      webhook: 'Webhook failing',
    } as Record<Notice, string>,
    hint: {
      completed: 'an order was delivered',
      failed: 'an order failed: why, and that the money is back',
      staff: 'orders placed by others of the team, in the bot or the dashboard',
      api: 'orders placed over the partner API',
      topup: 'a top-up reached the balance',
      webhook: 'your server did not take an event after the last retry (at most once a day)',
    } as Record<Notice, string>,
    menu: (items: { notice: Notice; on: boolean }[]) =>
      [
        'Notices in this chat (🔔 on, 🔕 off). Tap a button to switch one:',
        '',
        ...items.map((i) => `${i.on ? '🔔' : '🔕'} ${en.notices.name[i.notice]}: ${en.notices.hint[i.notice]}`),
        '',
        'Orders you place yourself are told whenever completed or failed orders are on.',
      ].join('\n'),
    summary: (items: { notice: Notice; on: boolean }[]) => {
      const names = (on: boolean) => items.filter((i) => i.on === on).map((i) => en.notices.name[i.notice]);
      return `Notices saved. On: ${names(true).join(', ') || 'none'}. Off: ${names(false).join(', ') || 'none'}. Change them with /notices.`;
    },
    btnDone: '✔ Done',
    switchedOn: 'Switched on.',
    switchedOff: 'Switched off.',
  },
  /** The command menu (setMyCommands) descriptions. */
  commands: {
    start: 'Link this account with an invite code',
    help: 'What this bot can do',
    order: 'New order: Stars, Premium or a gift',
    orders: 'Recent orders',
    balance: 'Balances',
    status: 'One order’s status: /status <order id>',
    app: 'Open the dashboard',
    notices: 'Which notices this chat receives',
    topup: 'Top up a balance',
    apikey: 'Issue the API key',
    webhook: 'Webhook address and secret',
    alerts: 'Low-balance alerts',
    reviews: 'Orders waiting for manual review',
    deposits: 'Deposits not credited automatically',
    cancel: 'Leave the current action',
  },
  balance: (usd: string, ton: string, activated: boolean) =>
    [`Balances:`, `USD: ${usd} (Stars, Premium)`, `TON: ${ton} (gifts)`, ...(activated ? [] : ['', 'The account is not activated yet: the first top-up activates it (/topup).'])].join('\n'),
  order: {
    chooseProduct: 'What would you like to order?',
    btnStars: '⭐ Stars',
    btnPremium: '💎 Premium',
    btnGifts: '🎁 Gift',
    chooseStars: (min: number, max: number) => `How many stars? (${min} to ${max})`,
    btnOther: 'Other amount',
    typeStars: (min: number, max: number) => `Send the number of stars, a whole number from ${min} to ${max}.`,
    badStars: (min: number, max: number) => `That is not a whole number from ${min} to ${max}. Try again or send /cancel.`,
    choosePremium: 'Premium for how long?',
    months: (m: number) => `${m} months`,
    chosenStars: (n: number) => `⭐ Stars: ${n}`,
    chosenPremium: (m: number) => `💎 Premium: ${m} months`,
    askRecipient: 'Send the recipient’s Telegram username (for example @username).',
    recipientRetry: 'Send another username or /cancel.',
    confirm: (q: Quote) => {
      const what = q.product === 'stars' ? `${q.quantity} stars` : `Premium for ${q.quantity} months`;
      const lines = [
        'Please check the order:',
        `${what} for @${q.recipient}`,
        `Price: ${q.price} ${q.currency}`,
        q.enough ? `Balance: ${q.balance} ${q.currency} → after the order: ${q.balanceAfter} ${q.currency}` : `Balance: ${q.balance} ${q.currency}`,
      ];
      if (q.alreadyPremium)
        lines.push(
          '',
          `⚠️ @${q.recipient} already has an active Premium subscription. The order will be accepted and paid now, but it will wait until the current subscription ends (it is retried daily).`,
        );
      if (!q.enough)
        lines.push('', `⚠️ The ${q.currency} balance is ${q.shortBy} ${q.currency} short of this order. Top up the balance (the account owner: /topup), then order again.`);
      return lines.join('\n');
    },
    btnConfirm: '✅ Confirm',
    accepted: (o: OrderInfo) =>
      `✅ Order ${o.order_id} accepted: ${described(o)}.\nDebited: ${o.partner_price} ${o.currency}. Status: ${status(o)}.\nI will write when it is done.`,
    already: (o: OrderInfo) => `This confirmation was already used: order ${o.order_id}, status ${status(o)}.`,
    retryHint: 'You can try again with the same confirmation (no double charge) or cancel.',
    nothingOffered: 'No product can be ordered right now: all are switched off. Try again later.',
    pricesUnavailable: 'Prices are temporarily unavailable, so orders cannot be placed right now. Try again later.',
  },
  gifts: {
    chooseCollection: 'Choose a collection:',
    collection: (c: GiftCollectionInfo) => `${c.name} · ${c.count} · from ${c.floor_partner_price} TON`,
    none: 'No gifts are on sale right now. Try again later.',
    page: (p: GiftPage) =>
      [
        `${p.collection}: gifts from the cheapest (page ${p.page + 1} of ${p.pages}). Prices include the transfer.`,
        '',
        ...p.items.map((g, i) => `${i + 1}. ${g.name} #${g.num} — ${g.partner_price} TON${g.affordable ? '' : ' 🔒'}`),
        ...(p.items.some((g) => !g.affordable) ? ['', `🔒 above your TON balance (${p.balance} TON): top up first (the account owner: /topup).`] : []),
      ].join('\n'),
    empty: 'No gifts left in this collection.',
    item: (i: number, g: GiftItem) => `${i + 1}. #${g.num} · ${g.partner_price} TON${g.affordable ? '' : ' 🔒'}`,
    btnPrev: '◀ Cheaper',
    btnNext: 'Pricier ▶',
    chosen: (g: { name: string; num: number }) => `🎁 ${g.name} #${g.num}`,
    soldMeanwhile: 'This gift was just sold or reserved. Choose another one.',
    priceMoved: (was: string, now: string) => `The price of this gift went up from ${was} to ${now} TON before the purchase. Nothing was debited.`,
    btnBuyAtNewPrice: '✅ Buy at the new price',
    cannotReceive: 'This account cannot receive gifts. Send another username or /cancel.',
    confirm: (q: GiftQuote) =>
      [
        'Please check the order:',
        `Gift ${q.name} #${q.num} (${q.attributes.model}, ${q.attributes.backdrop}, ${q.attributes.symbol}) for @${q.recipient}`,
        `Price: ${q.price} TON (transfer and network fee included)`,
        `Confirming accepts ${q.price} TON as the maximum price: if the price goes up before the purchase, the order is refused and nothing is debited.`,
        q.enough ? `Balance: ${q.balance} TON → after the order: ${q.balanceAfter} TON` : `Balance: ${q.balance} TON`,
        ...(q.enough ? [] : ['', `⚠️ The TON balance is ${q.shortBy} TON short of this gift. Top up the balance (the account owner: /topup), then order again.`]),
      ].join('\n'),
    unavailable: 'This gift is no longer on sale. Choose another one with /order.',
  },
  orders: {
    title: (page: number) => `Recent orders (page ${page}):`,
    none: 'No orders yet.',
    line: (o: OrderInfo) => `${what(o)} → @${o.recipient.replace(/^@/, '')} · ${status(o)}\n${o.partner_price} ${o.currency} · ${zonedTime(o.created_at)} · ${o.order_id}`,
    button: (o: OrderInfo) => `${what(o)} → @${o.recipient.replace(/^@/, '')} · ${shortTime(o.created_at)}`,
    btnPrev: '◀ Newer',
    btnNext: 'Older ▶',
    details: (o: OrderInfo) =>
      [
        `Order ${o.order_id}`,
        described(o),
        `Status: ${status(o)}`,
        `Price: ${o.partner_price} ${o.currency}`,
        `Created: ${zonedTime(o.created_at)}`,
        ...(o.completed_at ? [`Completed: ${zonedTime(o.completed_at)}`] : []),
        ...(o.giftUrl ? [`Gift page: ${o.giftUrl}`] : []),
        ...(o.status === 'failed' || o.status === 'canceled' ? [`Why: ${failureWhy(o)}`] : []),
        ...(o.refunded ? ['Money returned to the balance.'] : []),
      ].join('\n'),
    statusUsage: 'Send /status <order id>, for example /status PA-100001, or open /orders.',
    notFound: 'No such order.',
  },
  notify: {
    completed: (o: OrderInfo) => `✅ Order ${o.order_id} completed: ${described(o)}.${o.giftUrl ? `\nGift page: ${o.giftUrl}` : ''}`,
    failed: (o: OrderInfo) =>
      o.refunded
        ? `❌ Order ${o.order_id} failed: ${described(o)}.\nWhy: ${failureWhy(o)}\n${o.partner_price} ${o.currency} returned to the balance. ${failureNext(o)}`
        : `⏳ Order ${o.order_id} did not go through automatically: ${described(o)}.\nSupport is checking it; the money is not refunded yet. You will hear the outcome here.`,
    webhookGaveUp: (event: string, orderId: string, reason: string) =>
      `📭 Your webhook server did not accept ${eventName(event)} for order ${orderId}, and the last retry is over: ${webhookWhy(reason)}. The order itself is not affected: /status ${orderId} shows it. Check your server and the address (/webhook).`,
    balanceLow: (currency: string, balance: string, threshold: string) =>
      `🔻 Low balance: the ${currency} balance is ${balance} ${currency}, below your alert threshold of ${threshold} ${currency}. Top it up (/topup) so that orders are not refused. You will hear this again only after the balance has been back at or above ${threshold} ${currency}.`,
  },
  topup: topupEn,
  owner: {
    badWhitelist: (entry: string) => `“${entry}” is not an IP address or a CIDR range (for example 203.0.113.7 or 198.51.100.0/24). Send the list again, or /cancel.`,
    apikeyNeedsTopup: 'The API key comes after the first top-up, which activates the account: /topup shows how.',
    apikeyIntro: 'Issue a new API key? The current key stops working at once. You can limit the key to IP addresses.',
    btnIssue: '🔑 Issue without IP limit',
    btnIssueWhitelist: '🔒 Issue with IP whitelist',
    askWhitelist: 'Send the allowed IP addresses or CIDR ranges, separated by spaces or commas (for example 203.0.113.7 198.51.100.0/24).',
    keyIssued: (key: string, whitelist: string[]) =>
      `🔑 New API key (shown only once, store it now):\n<code>${esc(key)}</code>\n${
        whitelist.length ? `Allowed IPs: ${esc(whitelist.join(', '))}` : 'No IP limit.'
      }\nThe previous key no longer works.`,
    webhookIntro: (url: string | null, hasSecret: boolean, events: string[]) =>
      [
        'Webhook (order outcome notifications to your server):',
        `Address: ${url ? url : url === '' ? 'empty (no deliveries)' : 'never saved'}`,
        `Secret: ${hasSecret ? 'set (shown only when created or regenerated)' : 'not created yet (created on the first save)'}`,
        `Events: ${events.join(', ')}`,
      ].join('\n'),
    btnEvents: '🔔 Events',
    chooseEvents: 'Which events should your server receive? Low-balance alerts (balance.low) come when an order takes a balance below its /alerts threshold.',
    btnOrderEvents: 'Order outcomes only',
    btnOrderAndLowEvents: 'Order outcomes + low balance',
    eventsSaved: (events: string[]) => `Saved. Events: ${events.join(', ')}.`,
    alertsIntro: (v: { USD: string | null; TON: string | null }) =>
      [
        'Low-balance alerts: when an order takes a balance below its threshold, the owners get one message here (again only after the balance has been back at or above it).',
        `USD: ${v.USD === null ? 'off' : `below ${v.USD} USD`}`,
        `TON: ${v.TON === null ? 'off' : `below ${v.TON} TON`}`,
      ].join('\n'),
    btnAlert: (currency: string) => `Set ${currency}`,
    askThreshold: (currency: string) =>
      `Send the ${currency} threshold, for example ${currency === 'USD' ? '100 or 100.50' : '50 or 50.125'}, or "-" to switch the ${currency} alert off.`,
    badThreshold: (currency: string) =>
      `That is not a threshold: send a positive number with at most ${currency === 'USD' ? '2' : '3'} decimals, for example ${currency === 'USD' ? '100.50' : '50.125'}, or "-" to switch it off.`,
    thresholdSaved: (currency: string, value: string | null) =>
      value === null ? `The ${currency} low-balance alert is off.` : `Saved: you will be told when an order takes the ${currency} balance below ${value} ${currency}.`,
    btnSetUrl: '✏️ Set address',
    btnRegenerate: '♻️ New secret',
    askUrl: 'Send the webhook address (https://…), or "-" to save an empty address.',
    urlSaved: (url: string) => (url ? `Saved. Address: ${url}` : 'Saved with an empty address: no webhooks are sent.'),
    secretShown: (secret: string, hadSecret: boolean) =>
      `Webhook secret (shown only once, store it now):\n<code>${esc(secret)}</code>${hadSecret ? '\nThe previous secret no longer works.' : ''}`,
  },
  operator: {
    review: (orderId: string, partner: string, stage: string, o: OrderInfo | null) =>
      [
        `🔎 Manual review needed: order ${orderId} of partner ${partner}.`,
        `Where it stopped: ${reviewStage(stage, o)}.`,
        ...(o ? [described(o), `${o.partner_price} ${o.currency}`] : []),
      ].join('\n'),
    failure: (orderId: string, partner: string, reason: string) => `⚠️ Order ${orderId} of partner ${partner} failed: ${OPERATOR_REASON[reason] ?? 'the supplier refused it (the partner was refunded)'}.`,
    webhookGaveUp: (orderId: string, partner: string, event: string, reason: string) =>
      `📭 Delivery of ${eventName(event)} for order ${orderId} of partner ${partner} was given up after its last attempt: ${webhookWhy(reason)}. The partner’s owners linked in the bot are told too (at most once a day).`,
    confirmDeliver: (o: OrderInfo | null) => `Mark this order delivered${o ? ` (${described(o)})` : ''}? The partner stays charged and is told it is completed.`,
    confirmRefund: (o: OrderInfo | null) => `Refund this order${o ? `: ${o.partner_price} ${o.currency} back to the partner's balance` : ''}?`,
    partner: (name: string | null, id: number) => (name ? `“${name}” (#${id})` : `#${id}`),
    btnSureDeliver: '✅ Yes, delivered',
    btnSureRefund: '↩️ Yes, refund',
    btnNotSure: '✖ No',
    unmatchedDeposit: (depositId: string, amount: string, asset: string, net: string, reason: string) =>
      `💰 Deposit ${depositId} of ${amount} ${asset} on ${network(net)} was not credited automatically: ${DEPOSIT_REASON[reason] ?? 'it could not be matched'}. Credit it to a partner or close it with a note.`,
    storageDown: (reason: string, detail: string) =>
      `🛑 Storage unavailable: ${STORAGE_FAULT[reason] ?? 'writes fail'}. New orders and every other write answer 503 storage_unavailable; reads keep working. (${detail})`,
    storageUp: (reason: string, seconds: number) => `✅ Storage available again after ${seconds} s (it was: ${STORAGE_FAULT[reason] ?? 'writes failing'}). Writes are accepted.`,
    supplier: (a: { supplier: string; problem: string; detail: string; balance_ton?: string; need_ton?: string }) =>
      `🛠 Supplier ${a.supplier === 'fragment' ? 'Fragment' : a.supplier}: ${supplierProblem(a)}.\nDetails: ${a.detail}`,
    other: (kind: string, details: string) => `⚠️ Alert ${kind}: ${details}`,
    btnDeliver: '✅ Deliver',
    btnRefund: '↩️ Refund',
    notInReview: 'This order is no longer waiting for review.',
    settledBefore: (o: OrderInfo) => `Already resolved: status ${status(o)}.`,
    none: 'No orders are waiting for review.',
    reviewsSummary: (n: number, oldestMs: number) => `Orders waiting for review: ${n}; the oldest has waited ${duration(oldestMs, 'en')}.`,
    reviewLine: (i: number, o: OrderInfo, partner: string, ageMs: number) =>
      `${i}. ${o.order_id} · ${partner} · ${what(o)} → @${o.recipient.replace(/^@/, '')} · ${o.partner_price} ${o.currency} · waiting ${duration(ageMs, 'en')}`,
    pageOf: (page: number, pages: number) => `Page ${page} of ${pages}; tap a case to open it.`,
    btnList: '◀ List',
    btnPrevPage: '◀ Previous',
    btnNextPage: 'Next ▶',
    reviewTitle: (orderId: string, partner: string | null, o: OrderInfo | null) =>
      `🔎 Order ${orderId}${partner ? ` of ${partner}` : ''}${o ? `: ${described(o)}, ${o.partner_price} ${o.currency}` : ''}`,
    depositTitle: (d: DepositView) => `💰 Deposit ${d.deposit_id}: ${d.amount} ${d.asset} on ${network(d.network)}`,
    handled: (h: Handled) => {
      const who = h.by ? `by ${h.by}` : 'outside the bot (operator console or API)';
      const when = handledAt(h.at);
      switch (h.outcome) {
        case 'delivered':
          return `✅ Marked delivered ${who}, ${when}.`;
        case 'refunded':
          return `↩️ Refunded ${who}, ${when}.`;
        case 'credited':
          return `✅ Credited to ${h.detail ?? 'a partner'} ${who}, ${when}.`;
        default:
          return `✖ Closed ${who}, ${when}${h.detail ? `: ${h.detail}` : '.'}`;
      }
    },
    alreadyHandled: (h: Handled) => `Nothing changed: this was already handled. ${en.operator.handled(h)}`,
    btnCreditDeposit: '💰 Credit to partner…',
    btnCloseDeposit: '✖ Close',
    deposit: (d: DepositView) =>
      [
        `💰 Deposit ${d.deposit_id}: ${d.amount} ${d.asset} on ${network(d.network)}, ${zonedTime(d.created_at)}`,
        `Not credited automatically: ${DEPOSIT_REASON[d.reason ?? ''] ?? 'it could not be matched'}.${d.note ? ` ${d.note}` : ''}`,
        `Transaction: ${d.tx_hash}${d.from ? ` from ${d.from}` : ''}`,
        ...(d.comment ? [`Comment: ${d.comment}`] : []),
      ].join('\n'),
    depositsNone: 'No deposits are waiting: every deposit was credited or closed.',
    depositsSummary: (n: number, oldestMs: number) => `Deposits not credited automatically: ${n}; the oldest came ${duration(oldestMs, 'en')} ago.`,
    depositLine: (i: number, d: DepositView, ageMs: number) =>
      `${i}. ${d.amount} ${d.asset} on ${network(d.network)} · ${duration(ageMs, 'en')} ago · ${DEPOSIT_REASON[d.reason ?? ''] ?? 'it could not be matched'}`,
    askPartner: (d: DepositView) =>
      `Credit ${d.amount} ${d.asset} (deposit ${d.deposit_id}) to which partner? Send a part of the partner’s name, or its number.`,
    searchTooLong: 'Send a shorter part of the name (at most 100 characters), or /cancel.',
    noPartnerMatch: (query: string) => `No partner’s name contains “${query}”. Send another part of the name or the number, or /cancel.`,
    partnerMatches: (query: string, n: number, more: boolean) =>
      more
        ? `Partners matching “${query}”: the first ${n} below. Choose one, or send more of the name.`
        : `Partners matching “${query}”: ${n}. Choose one, or send another part of the name.`,
    partnerButton: (name: string, id: number, active: boolean) => `${name} · #${id}${active ? '' : ' · not activated'}`,
    confirmCredit: (d: DepositView, partner: string, active: boolean) =>
      [
        `Credit ${d.amount} ${d.asset} (deposit ${d.deposit_id}) to ${partner}?`,
        active ? 'The top-up rules apply (USD from 5.00, TON from 10.000).' : 'Its account is not activated yet: this first top-up must be at least 10 and activates it.',
      ].join('\n'),
    btnSureCredit: '✅ Yes, credit',
    depositCredited: (d: DepositView, partner: string) => `✅ Deposit ${d.deposit_id} credited to ${partner}: ${d.amount} ${d.asset}.`,
    askCloseNote: (d: DepositView) =>
      `Close deposit ${d.deposit_id} (${d.amount} ${d.asset}) without crediting anyone? Send a short note why (for example "returned to the sender"), or /cancel.`,
    depositClosed: (d: DepositView) => `✖ Deposit ${d.deposit_id} closed: ${d.note ?? ''}`,
    depositGone: (id: string, status: string | null) =>
      status ? `Deposit ${id} is no longer waiting (it is ${DEPOSIT_STATUS[status] ?? status}); nothing was changed.` : `There is no deposit ${id}.`,
    depositError: (e: ErrorInfo, partner: string | null): string => {
      switch (e.code) {
        case 'deposit_not_unmatched':
          return 'This deposit is no longer waiting: it was credited or closed in the meantime. Nothing was changed.';
        case 'topup_below_minimum':
          return `Not credited: for ${partner ?? 'this partner'} a top-up must be at least ${e.extra.minimum} ${e.extra.currency} (a partner's first top-up at least 10). Choose another partner, or /cancel and close the deposit.`;
        case 'not_found':
          return /partner/i.test(e.detail) ? 'There is no such partner any more. Choose another one.' : 'This deposit no longer exists.';
        case 'bad_network':
          return 'Not credited: this asset cannot be credited from this network. This deposit can only be closed.';
        case 'tx_hash_conflict':
          return 'Not credited: a top-up with this transaction hash was already credited. Close this deposit with a note.';
        case 'validation_error':
          return partner === null ? 'Send a note of 1 to 1000 characters, or /cancel.' : 'This deposit cannot be credited (its asset is not one the service credits). Close it with a note.';
        default:
          return en.error(e);
      }
    },
  },
  error: (e: ErrorInfo): string => {
    const x = e.extra;
    switch (e.code) {
      case 'insufficient_balance':
        return `Not enough money: the ${x.currency} balance is ${x.balance} ${x.currency}. Top up the balance (the owner can see how with /topup) and try again.`;
      case 'idempotency_key_reuse':
        return 'This confirmation was already used for another order. Start again with /order.';
      case 'partner_inactive':
        return 'The account is not activated yet: make the first top-up (/topup shows how).';
      case 'access_lost':
        return en.common.accessLost;
      default:
        return W.error(e.code, x) ?? `The request was refused (error code ${e.code}). Try again later, or contact support with this code.`;
    }
  },
};

export type Texts = typeof en;
