import type { z } from 'zod';
import { fail } from '../domain/errors.js';

/** A body checked by a zod schema: its issues become one 400 validation_error ("path: message; …"). */
export function parseOrFail<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) fail('validation_error', r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  return r.data;
}
