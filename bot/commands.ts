import type { Api } from 'grammy';
import type { BotCommand, BotCommandScope } from 'grammy/types';
import type { Deps } from '../src/app/deps.js';
import type { BotContext } from './context.js';
import { SqliteStorage } from './storage.js';
import { textsOf } from './texts/index.js';
import { may, type Action } from '../src/domain/permissions.js';
import { COMMAND_ACTION, type RoleCommand } from './permissions.js';

/**
 * The command menu of each chat (setMyCommands with scopes): strangers see /start and /help (the default
 * lists, per language), a linked account sees the commands of its role, operators also theirs, each in the
 * user's language. A chat's list is set when it first differs from what was last set there (remembered
 * per chat), so a link, a new role or another client language shows up at the next message.
 */

type Lang = 'ru' | 'en';

export function commandsFor(lang: Lang, role: 'owner' | 'staff' | null, operator: boolean): BotCommand[] {
  const d = textsOf(lang).commands;
  const list: BotCommand[] = [];
  const add = (command: keyof typeof d) => list.push({ command, description: d[command] });
  const who = { role, operator };
  for (const [command, action] of Object.entries(COMMAND_ACTION) as [RoleCommand, Action][]) if (may(who, action)) add(command);
  if (!role && !operator) add('start');
  if (role || operator) add('cancel');
  add('help');
  return list;
}

/** The default lists (everyone the bot does not know yet), English and Russian. */
export async function setDefaultCommands(api: Api): Promise<void> {
  await api.setMyCommands(commandsFor('en', null, false));
  await api.setMyCommands(commandsFor('ru', null, false), { language_code: 'ru' });
}

/** Operators' chats get their list at start-up, in the chat's remembered language. */
export async function setOperatorCommands(api: Api, deps: Pick<Deps, 'db' | 'clock'>, chats: { chatId: number; lang: Lang }[]): Promise<void> {
  for (const { chatId, lang } of chats) await setChatCommands(api, deps, { type: 'chat', chat_id: chatId }, commandsFor(lang, null, true));
}

const store = (deps: Pick<Deps, 'db' | 'clock'>) => new SqliteStorage<string>(deps, 'commands:');

async function setChatCommands(api: Api, deps: Pick<Deps, 'db' | 'clock'>, scope: BotCommandScope, commands: BotCommand[]): Promise<void> {
  const key = 'user_id' in scope ? `${scope.chat_id}:${scope.user_id}` : 'chat_id' in scope ? String(scope.chat_id) : scope.type;
  const want = JSON.stringify(commands);
  if (store(deps).read(key) === want) return;
  await api.setMyCommands(commands, { scope });
  store(deps).write(key, want);
}

/** After an update: the sender's menu in this chat follows their role and language. */
export async function syncCommands(ctx: BotContext): Promise<void> {
  if (!ctx.chat || !ctx.from || ctx.from.is_bot) return;
  if (!ctx.link && !ctx.isOperator) return; // strangers keep the default list
  const lang: Lang = ctx.t.lang;
  const commands = commandsFor(lang, ctx.link?.role ?? null, ctx.isOperator);
  const scope: BotCommandScope = ctx.chat.type === 'private' ? { type: 'chat', chat_id: ctx.chat.id } : { type: 'chat_member', chat_id: ctx.chat.id, user_id: ctx.from.id };
  try {
    await setChatCommands(ctx.api, ctx.env.deps, scope, commands);
  } catch (err) {
    ctx.env.deps.log.warn({ err, chatId: ctx.chat.id }, 'bot commands of a chat not set');
  }
}
