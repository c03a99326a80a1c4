import { Composer, type Api } from 'grammy';
import { createSignInLink } from '../../src/app/app-access.js';
import { normaliseLanguage } from '../../src/app/invites.js';
import type { Config } from '../../src/config/env.js';
import type { BotContext } from '../context.js';
import { appUrl, webAppAllowed } from '../app-urls.js';
import { offerPrivateChat } from './private-only.js';
import { SqliteStorage } from '../storage.js';

/**
 * The Mini App from the bot: `/app` answers a button that opens it (web_app) and, for a desktop browser,
 * a one-time sign-in link (single use, 10 minutes). The menu button is set to the app when the bot
 * starts. Telegram opens web apps only over https, so with an http PUBLIC_BASE_URL (a local sandbox) the
 * button is left out and the link is the way in. The link is personal: in a group `/app` sends none, only a
 * button opening the private chat, whose `/start app` lands here.
 */

const TEXTS = {
  en: {
    menu: 'Dashboard',
    open: 'Open the dashboard',
    intro: 'The partner dashboard: balances, orders, gifts with pictures and filters, top-ups, the API key and the team.',
    link: (url: string) => `On a desktop browser, sign in with this link (single use, valid 10 minutes; do not share it):\n${url}`,
  },
  ru: {
    menu: 'Кабинет',
    open: 'Открыть кабинет',
    intro: 'Кабинет партнёра: балансы, заказы, подарки с картинками и фильтрами, пополнение, API-ключ и команда.',
    link: (url: string) => `В браузере на компьютере войдите по этой ссылке (одноразовая, действует 10 минут; никому не передавайте):\n${url}`,
  },
};

/** /app for a linked person (also `/start app` from the deep link). */
export async function openApp(ctx: BotContext): Promise<void> {
  if (await offerPrivateChat(ctx, 'app')) return;
  const { deps, config } = ctx.env;
  const t = TEXTS[normaliseLanguage(ctx.from?.language_code)];
  const link = createSignInLink(deps, ctx.link!.telegramUserId);
  const button = webAppAllowed(config) ? { reply_markup: { inline_keyboard: [[{ text: t.open, web_app: { url: appUrl(config) } }]] } } : {};
  await ctx.reply(`${t.intro}\n\n${t.link(link.url)}`, { ...button, link_preview_options: { is_disabled: true } });
}

export function appFeature(): Composer<BotContext> {
  const c = new Composer<BotContext>();
  c.command('app', openApp);
  return c;
}

/** The chat menu button of every private chat opens the app (its default, English text). */
export async function setAppMenuButton(api: Api, config: Config): Promise<void> {
  if (!webAppAllowed(config)) return;
  await api.setChatMenuButton({ menu_button: { type: 'web_app', text: TEXTS.en.menu, web_app: { url: appUrl(config) } } });
}

/**
 * The menu button of a linked person's (or an operator's) private chat in their language: Telegram has no
 * per-language default for it, so a chat whose language is not the default's gets its own, set once and again
 * when the language changes (kv `menubtn:<chat id>`).
 */
export async function syncMenuButton(ctx: BotContext): Promise<void> {
  const { config, deps } = ctx.env;
  if (ctx.chat?.type !== 'private' || !webAppAllowed(config) || (!ctx.link && !ctx.isOperator)) return;
  const lang = normaliseLanguage(ctx.t.lang);
  const store = new SqliteStorage<string>(deps, 'menubtn:');
  const set = store.read(String(ctx.chat.id)) ?? 'en';
  if (set === lang) return;
  try {
    await ctx.api.setChatMenuButton({ chat_id: ctx.chat.id, menu_button: { type: 'web_app', text: TEXTS[lang].menu, web_app: { url: appUrl(config) } } });
    store.write(String(ctx.chat.id), lang);
  } catch (err) {
    deps.log.warn({ err, chatId: ctx.chat.id }, 'bot menu button of a chat not set');
  }
}
