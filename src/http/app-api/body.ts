import { fail } from '../../domain/errors.js';

/** The JSON object body of a Mini App request ({} when absent). */
export function objectBody(req: { body: unknown }): Record<string, unknown> {
  const b = req.body;
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) fail('validation_error', 'The body must be a JSON object.');
  return b as Record<string, unknown>;
}

export const actorOf = (telegramUserId: number) => `telegram:${telegramUserId}`;
