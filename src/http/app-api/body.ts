import { isJsonObject } from '../../app/requests/parse.js';
import { fail } from '../../domain/errors.js';

/** The JSON object body of a Mini App request ({} when absent). */
export function objectBody(req: { body: unknown }): Record<string, unknown> {
  const b = req.body;
  if (b === undefined || b === null) return {};
  return isJsonObject(b) ? b : fail('validation_error', 'The body must be a JSON object.');
}

export const actorOf = (telegramUserId: number) => `telegram:${telegramUserId}`;
