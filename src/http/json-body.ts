import type { FastifyInstance, FastifyRequest } from 'fastify';
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

type JsonParser = (req: FastifyRequest, text: string, done: (err: Error | null, body?: unknown) => void) => void;

/** Fastify's JSON body parser behind the depth check: a body nested deeper than MAX_JSON_DEPTH is 400 `bad_request` before anything reads it. */
function depthCheckedParser(app: FastifyInstance): JsonParser {
  const parse = app.getDefaultJsonParser('error', 'error');
  return (req, text, done) => {
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      done(new ApiError('bad_request', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
      return;
    }
    parse(req, text, done);
  };
}

/** Replaces Fastify's JSON body parser at the root (every route inherits it) by the depth-checked one. */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = depthCheckedParser(app);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => parse(req, body as string, done));
}

/**
 * The JSON body parser of a scope whose bodies are remembered by their text (`known`: the value a text
 * parsed to earlier, deeply frozen, or undefined): a text seen before is not parsed again (the same text
 * is the same value, and it passed the depth check then); any other is parsed as everywhere and `note`d
 * with its text.
 */
export function installRememberingJsonParser(app: FastifyInstance, known: (text: string) => object | undefined, note: (body: unknown, text: string) => void): void {
  const parse = depthCheckedParser(app);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    const seen = known(text);
    if (seen !== undefined) {
      done(null, seen);
      return;
    }
    parse(req, text, (err, value) => {
      if (err === null) note(value, text);
      done(err, value);
    });
  });
}
