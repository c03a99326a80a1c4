import type { Context, SessionFlavor } from 'grammy';
import type { Conversation, ConversationFlavor } from '@grammyjs/conversations';
import type { BotLink } from '../src/app/bot-users.js';
import type { Deps } from '../src/app/deps.js';
import type { KeyCache } from '../src/app/keys.js';
import type { GiftCatalog } from '../src/app/nft/gift-catalog.js';
import type { Config } from '../src/config/env.js';
import type { Texts } from './texts/index.js';

/** What the bot is built from (injected by createBot; nothing is created at import time). */
export interface BotDeps {
  deps: Deps;
  keys: KeyCache;
  config: Config;
  /** Bot API server root (TELEGRAM_API_ROOT). */
  apiRoot?: string;
  /** The gift catalog (cache); createBot makes one when not given. */
  gifts?: GiftCatalog;
}

/**
 * What the alerts, operator cards and notices use (they run outside any update, from the event bus): the
 * database, the clock, the log and the configuration (operators' chats, languages). Narrow so a notice cannot place or refund an order.
 */
export interface NoticeEnv {
  deps: Pick<Deps, 'db' | 'clock' | 'log' | 'config'>;
  config: Pick<Config, 'ADMIN_CHAT_IDS'>;
}

/** BotDeps as the features and conversations see them. */
export type BotEnv = BotDeps & { gifts: GiftCatalog };

/** Per-chat session: only the paging state of /orders (conversations keep their own state). */
export interface SessionData {
  /** Cursor of each /orders page already shown ('' for the first page). */
  orderPages?: string[];
}

interface Extras {
  env: BotEnv;
  /** Texts in the user's language. */
  t: Texts;
  /** The partner link of the sender, or null. */
  link: BotLink | null;
  /** The chat is one of ADMIN_CHAT_IDS. */
  isOperator: boolean;
}

/** The context of the outside middleware. */
export type BotContext = ConversationFlavor<Context & SessionFlavor<SessionData> & Extras>;

/** The context inside conversations: a plain context (the plugin rebuilds it on every replay). */
export type ConvContext = Context;
export type Conv = Conversation<BotContext, ConvContext>;
