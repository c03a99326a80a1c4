import type { FastifyReply } from 'fastify';

/**
 * JSON answers in which frozen objects (committed order views, shared by every poll of an order and every
 * page that lists it) are serialised once and their text reused; the rest is serialised as JSON.stringify
 * would. Hand-written because JSON.stringify cannot splice in text it did not make.
 */
const texts = new WeakMap<object, string>();

export function jsonOf(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Object.isFrozen(value)) {
    let text = texts.get(value);
    if (text === undefined) {
      text = JSON.stringify(value);
      texts.set(value, text);
    }
    return text;
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : jsonOf(v))).join(',')}]`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value)) if (v !== undefined && typeof v !== 'function') parts.push(`${JSON.stringify(k)}:${jsonOf(v)}`);
  return `{${parts.join(',')}}`;
}

export function sendJson(reply: FastifyReply, value: object): string {
  reply.type('application/json; charset=utf-8');
  return jsonOf(value);
}
