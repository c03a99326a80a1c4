import type { Api } from 'grammy';
import type { Deps } from '../src/app/deps.js';
import { operatorLanguage } from './operator-language.js';
import { SqliteStorage } from './storage.js';
import { textsOf, type Texts } from './texts/index.js';
import type { Handled } from './views/model.js';
import { handled as handledText } from './views/operator.js';

/**
 * The operators' cases (an order waiting for review, an unmatched deposit) and every card about one: each
 * alert, and each /reviews or /deposits entry opened, in every operator chat. When a case is handled, in the
 * bot or elsewhere, every card of it is edited to say who handled it and how, and loses its buttons; a press
 * on a card after that changes nothing and is told who handled it. Kept in the service database (kv
 * `cards:<case>`), so a restart still finds the cards.
 */

export type CaseKey = `rv:${string}` | `dp:${string}`;
export const reviewCase = (orderId: string): CaseKey => `rv:${orderId}`;
export const depositCase = (depositId: string): CaseKey => `dp:${depositId}`;

export interface Card {
  chatId: number;
  messageId: number;
}

export type { Handled };

interface CaseRecord {
  cards: Card[];
  handled?: Handled;
  /** Who is handling it in the bot right now: the outcome event of their resolution may come first. */
  claim?: string;
  /** When the operators were reminded that it still waits (once per case). */
  remindedAt?: number;
}

/** At most this many cards are remembered per case (older ones are past editing anyway). */
const MAX_CARDS = 50;

const store = (deps: Pick<Deps, 'db' | 'clock'>) => new SqliteStorage<CaseRecord>(deps, 'cards:');

export function addCard(deps: Pick<Deps, 'db' | 'clock'>, key: CaseKey, card: Card): void {
  const s = store(deps);
  const r = s.read(key) ?? { cards: [] };
  if (r.cards.some((c) => c.chatId === card.chatId && c.messageId === card.messageId)) return;
  s.write(key, { ...r, cards: [...r.cards, card].slice(-MAX_CARDS) });
}

export function dropCard(deps: Pick<Deps, 'db' | 'clock'>, key: CaseKey, card: Card): void {
  const s = store(deps);
  const r = s.read(key);
  if (!r) return;
  s.write(key, { ...r, cards: r.cards.filter((c) => !(c.chatId === card.chatId && c.messageId === card.messageId)) });
}

/** Marks who is about to handle the case in the bot (null: the attempt failed, the mark goes). */
export function claimCase(deps: Pick<Deps, 'db' | 'clock'>, key: CaseKey, by: string | null): void {
  const s = store(deps);
  const r = s.read(key) ?? { cards: [] };
  const { claim: _, ...rest } = r;
  s.write(key, by === null ? rest : { ...rest, claim: by });
}

/** Marks the case reminded; false when it was already (the reminder is sent once). */
export function claimReminder(deps: Pick<Deps, 'db' | 'clock'>, key: CaseKey): boolean {
  const s = store(deps);
  const r = s.read(key) ?? { cards: [] };
  if (r.remindedAt !== undefined || r.handled) return false;
  s.write(key, { ...r, remindedAt: deps.clock.now() });
  return true;
}

export function claimOf(deps: Pick<Deps, 'db' | 'clock'>, key: CaseKey): string | undefined {
  return store(deps).read(key)?.claim;
}

export function handledOf(deps: Pick<Deps, 'db' | 'clock'>, key: CaseKey): Handled | undefined {
  return store(deps).read(key)?.handled;
}

export function hasCards(deps: Pick<Deps, 'db' | 'clock'>, key: CaseKey): boolean {
  return (store(deps).read(key)?.cards.length ?? 0) > 0;
}

/** A card's new text, to be sent (kept apart from the recording so that a conversation can store it). */
export interface CardEdit extends Card {
  text: string;
}

/**
 * Records how the case was handled (the first record stays: a second report of the same outcome, say the
 * order event after the bot's own resolution, changes nothing) and returns the edit of every card of it,
 * each in its chat's language. `title(t)` names the case in that language.
 */
export function recordHandled(deps: Pick<Deps, 'db' | 'clock' | 'config'>, key: CaseKey, handled: Handled, title: (t: Texts) => string): { handled: Handled; edits: CardEdit[] } {
  const s = store(deps);
  const r = s.read(key) ?? { cards: [] };
  const first = r.handled ?? handled;
  s.write(key, { cards: [], handled: first });
  const edits = r.cards.map((c) => {
    const t = textsOf(operatorLanguage(deps, c.chatId));
    return { ...c, text: `${title(t)}\n\n${handledText(t, first)}` };
  });
  return { handled: first, edits };
}

/** Edits the cards: their buttons go. One that cannot be edited (deleted, too old) does not stop the others. */
export async function applyEdits(api: Api, deps: Pick<Deps, 'log'>, edits: CardEdit[]): Promise<void> {
  await Promise.all(
    edits.map(async (c) => {
      try {
        await api.editMessageText(c.chatId, c.messageId, c.text, { reply_markup: { inline_keyboard: [] } });
      } catch (err) {
        deps.log.info({ err, chatId: c.chatId }, 'operator card not edited');
      }
    }),
  );
}

export async function settleCards(api: Api, deps: Pick<Deps, 'db' | 'clock' | 'config' | 'log'>, key: CaseKey, handled: Handled, title: (t: Texts) => string): Promise<Handled> {
  const r = recordHandled(deps, key, handled, title);
  await applyEdits(api, deps, r.edits);
  return r.handled;
}
