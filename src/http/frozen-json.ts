import type { FastifyReply } from 'fastify';

/**
 * Sends a JSON answer; a frozen object (a committed order's view, shared by every poll of that order)
 * is serialised once and its text reused. Anything else is serialised as usual.
 */
const texts = new WeakMap<object, string>();

export function sendJson(reply: FastifyReply, value: object): string {
  reply.type('application/json; charset=utf-8');
  if (!Object.isFrozen(value)) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}
