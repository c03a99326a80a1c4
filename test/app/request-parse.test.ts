/**
 * The parse step of the partner API's requests (src/app/requests/): the schemas of the OpenAPI document
 * as the validator, and zod issues mapped to the contract's error codes (and so its two body formats) in
 * one place, first issue by the contract's order of checks.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, errorBody } from '../../src/domain/errors.js';
import { NftGift, NftParamsBeforeRecipient, OrderEnvelope, PremiumParams, StarsParams } from '../../src/app/requests/orders.js';
import { ValidateGameRequest, ValidateRecipientRequest } from '../../src/app/requests/orders.js';
import {
  ORDER_BODY_RULES,
  ORDER_PARAMS_RULES,
  parseRequest,
  starsParamsRules,
  VALIDATE_GAME_RULES,
  VALIDATE_RECIPIENT_RULES,
  type IssueRules,
} from '../../src/app/requests/parse.js';
import type { z } from 'zod';

/** The error body a parse failure answers, or the parsed value. */
function answer(schema: z.ZodType, value: unknown, rules: IssueRules): { ok: unknown } | { status: number; body: unknown } {
  try {
    return { ok: parseRequest(schema, value, rules) };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { status: e.status, body: errorBody(e) };
  }
}

const nested = (code: string, detail: string) => ({ status: 400, body: { detail: { code, detail } } });
const flat = (code: string, detail: string, extra: Record<string, unknown> = {}) => ({ status: 400, body: { code, detail, ...extra } });

describe('POST /orders around params (OrderEnvelope)', () => {
  const key = 'k-1';
  it.each([
    ['not an object', [1, 2], nested('bad_request', 'The body must be a JSON object.')],
    ['a string', 'stars', nested('bad_request', 'The body must be a JSON object.')],
    ['no key (before the type)', { type: 'gems' }, nested('idempotency_required', 'idempotency_key is required.')],
    ['a blank key', { type: 'stars', idempotency_key: '  ' }, nested('idempotency_required', 'idempotency_key is required.')],
    ['a key that is not a string', { type: 'stars', idempotency_key: 7 }, nested('idempotency_required', 'idempotency_key is required.')],
    ['a key of 256 characters', { type: 'stars', idempotency_key: 'k'.repeat(256) }, nested('bad_request', 'idempotency_key is at most 255 characters.')],
    ['an unknown type (before client_reference)', { type: 'gems', idempotency_key: key, client_reference: '' }, nested('bad_type', 'type must be one of stars, premium, nft.')],
    ['no type', { idempotency_key: key }, nested('bad_type', 'type must be one of stars, premium, nft.')],
    [
      'a client_reference with a line break',
      { type: 'stars', idempotency_key: key, client_reference: 'a\nb' },
      flat('validation_error', 'client_reference must be a string of 1 to 128 printable characters.', { field: 'client_reference' }),
    ],
    [
      'a client_reference of 129 characters',
      { type: 'stars', idempotency_key: key, client_reference: 'x'.repeat(129) },
      flat('validation_error', 'client_reference must be a string of 1 to 128 printable characters.', { field: 'client_reference' }),
    ],
  ])('%s', (_what, body, expected) => {
    expect(answer(OrderEnvelope, body, ORDER_BODY_RULES)).toEqual(expected);
  });

  it('accepts 128 characters counted as characters, not UTF-16 units, null, and keeps unknown fields', () => {
    const body = { type: 'nft', idempotency_key: key, client_reference: '😀'.repeat(128), extra: { a: 1 } };
    expect(answer(OrderEnvelope, body, ORDER_BODY_RULES)).toEqual({ ok: body });
    expect(answer(OrderEnvelope, { ...body, client_reference: null }, ORDER_BODY_RULES)).toEqual({ ok: { ...body, client_reference: null } });
  });
});

describe('params', () => {
  const stars = starsParamsRules(50, 50000);
  const starsSchema = StarsParams.extend({ quantity: StarsParams.shape.quantity.min(50).max(50000) });
  const badQuantity = flat('bad_quantity', 'quantity must be a whole number from 50 to 50000.', { min: 50, max: 50000 });
  it.each([
    ['not an object', 'x', flat('bad_params', 'params must be an object.')],
    ['quantity below the bounds (before the recipient)', { quantity: 49 }, badQuantity],
    ['quantity above the bounds', { quantity: 50001, recipient: '@a' }, badQuantity],
    ['quantity not whole', { quantity: 100.5, recipient: '@a' }, badQuantity],
    ['quantity as a string', { quantity: '100', recipient: '@a' }, badQuantity],
    ['no recipient', { quantity: 100 }, flat('recipient_required', 'recipient is required.')],
    ['a blank recipient', { quantity: 100, recipient: ' ' }, flat('recipient_required', 'recipient is required.')],
    ['a recipient that is not a string', { quantity: 100, recipient: 5 }, flat('recipient_not_found', 'recipient must be a username string.')],
  ])('stars: %s', (_what, params, expected) => {
    expect(answer(starsSchema, params, stars)).toEqual(expected);
  });

  it('premium: months 3, 6 or 12, before the recipient', () => {
    expect(answer(PremiumParams, { months: 4 }, ORDER_PARAMS_RULES)).toEqual(flat('bad_months', 'months must be 3, 6 or 12.'));
    expect(answer(PremiumParams, { months: 6, recipient: '@a', note: 'kept' }, ORDER_PARAMS_RULES)).toEqual({ ok: { months: 6, recipient: '@a', note: 'kept' } });
  });

  it('nft: max_price first, then the recipient; the gift is parsed on its own (after the recipient is resolved)', () => {
    const badMax = flat('bad_max_price', 'max_price must be a positive TON amount as a string.');
    for (const max_price of [undefined, 15, '0', '-1', ' 1', '1e3', 'abc']) expect(answer(NftParamsBeforeRecipient, { max_price, gift: 7 }, ORDER_PARAMS_RULES)).toEqual(badMax);
    expect(answer(NftParamsBeforeRecipient, { max_price: '1.5', gift: 7 }, ORDER_PARAMS_RULES)).toEqual(flat('recipient_required', 'recipient is required.'));
    expect(answer(NftParamsBeforeRecipient, { max_price: '.5', recipient: '@a', gift: 7 }, ORDER_PARAMS_RULES)).toEqual({ ok: { max_price: '.5', recipient: '@a', gift: 7 } }); // loose: unknown fields kept
    for (const gift of [undefined, 7, 'PlushPepe', 'Plush Pepe-1', '1Pepe-2', 'PlushPepe-1234567890']) expect(answer(NftGift, { gift }, ORDER_PARAMS_RULES)).toEqual(flat('bad_gift', 'The gift identifier is not recognised.'));
    expect(answer(NftGift, { gift: 'PlushPepe-1234' }, ORDER_PARAMS_RULES)).toEqual({ ok: { gift: 'PlushPepe-1234' } });
  });
});

describe('POST /validate/recipient and /validate/game', () => {
  it('recipient: type first (a body that is not an object has none), then username', () => {
    expect(answer(ValidateRecipientRequest, null, VALIDATE_RECIPIENT_RULES)).toEqual(nested('bad_type', 'type must be one of stars, premium, nft.'));
    expect(answer(ValidateRecipientRequest, { type: 'x', username: 5 }, VALIDATE_RECIPIENT_RULES)).toEqual(nested('bad_type', 'type must be one of stars, premium, nft.'));
    expect(answer(ValidateRecipientRequest, { type: 'nft' }, VALIDATE_RECIPIENT_RULES)).toEqual(flat('recipient_required', 'recipient is required.'));
    expect(answer(ValidateRecipientRequest, { type: 'nft', username: ['@a'] }, VALIDATE_RECIPIENT_RULES)).toEqual(flat('recipient_not_found', 'recipient must be a username string.'));
  });

  it('game: username only', () => {
    expect(answer(ValidateGameRequest, 'x', VALIDATE_GAME_RULES)).toEqual(flat('recipient_required', 'recipient is required.'));
    expect(answer(ValidateGameRequest, { username: '' }, VALIDATE_GAME_RULES)).toEqual(flat('recipient_required', 'recipient is required.'));
    expect(answer(ValidateGameRequest, { username: '@p' }, VALIDATE_GAME_RULES)).toEqual({ ok: { username: '@p' } });
  });
});

describe('an issue no rule names', () => {
  it('is 400 validation_error naming its path', () => {
    expect(answer(StarsParams, { quantity: 100, recipient: '@a' }, {})).toEqual({ ok: { quantity: 100, recipient: '@a' } });
    const r = answer(StarsParams, { quantity: 'x', recipient: '@a' }, {}) as { status: number; body: any };
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'validation_error', field: 'quantity' });
    expect(r.body.detail).toMatch(/^quantity: /);
  });
});
