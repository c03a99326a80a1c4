import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/errors.js';

/** No request body of the service nests deeper than a handful of levels; this leaves ample room. */
export const MAX_JSON_DEPTH = 32;

/**
 * The deepest nesting of arrays and objects in JSON text, counted in one pass without parsing (brackets
 * inside strings do not count). Written by hand because no JSON parser on npm bounds depth before it
 * builds the value, and a value 30,000 levels deep overflows the stack of whatever recursive code reads
 * it next (validators, canonical stringifying). Stops counting once past `limit`.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Replaces Fastify's JSON body parser at the root (every route inherits it) by the same parser behind a
 * depth check: a body nested deeper than MAX_JSON_DEPTH is 400 `bad_request` before anything reads it.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      done(new ApiError('bad_request', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
      return;
    }
    parse(req, text, done);
  });
}
