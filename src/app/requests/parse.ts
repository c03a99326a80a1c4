import type { z } from 'zod';
import { ApiError, fail, type ErrorCode } from '../../domain/errors.js';

/**
 * The one place where zod issues become the contract's errors (partner-api.md "Errors"): each field of a
 * request has the error code the contract gives it, and the code decides the body format (flat or nested,
 * domain/errors.ts). The partner API's requests are parsed with the schemas of ./orders.ts
 * (bodies) and ./queries.ts (query strings), which are also the OpenAPI document's (src/http/schemas/
 * registers the bodies, src/http/route.ts: queryParameters lists the query parameters).
 *
 * When several fields are wrong, the first in the rule table's order names the error: the tables list the
 * fields in the contract's order of checks.
 */
export type IssueRule = ErrorCode | ((issue: z.core.$ZodIssue) => ApiError);
export type IssueRules = Readonly<Record<string, IssueRule>>;

/** A JSON object (not null, not an array): what a request body must be before its fields are read. */
export const isJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON object body of a request of the operator API or the Mini App: {} when absent, else 400 unless an object. */
export function objectBody(req: { body: unknown }): Record<string, unknown> {
  const b = req.body;
  if (b === undefined || b === null) return {};
  return isJsonObject(b) ? b : fail('validation_error', 'The body must be a JSON object.');
}

/** An input that is missing or null (zod reports it as invalid_type; `input` is there with reportInput). */
const missing = (i: z.core.$ZodIssue) => i.input === undefined || i.input === null;

/** A recipient (order params `recipient`, validate `username`): missing or blank is required; not a string, not found. */
const recipientRule: IssueRule = (i) =>
  i.code !== 'invalid_type' || missing(i) ? new ApiError('recipient_required') : new ApiError('recipient_not_found', 'recipient must be a username string.');

export const IDEMPOTENCY_KEY_MAX = 255;

/** POST /orders, the body around `params` (before the idempotency check). */
export const ORDER_BODY_RULES: IssueRules = {
  '': () => new ApiError('bad_request', 'The body must be a JSON object.'),
  idempotency_key: (i) => (i.code === 'too_big' ? new ApiError('bad_request', `idempotency_key is at most ${IDEMPOTENCY_KEY_MAX} characters.`) : new ApiError('idempotency_required')),
  type: 'bad_type',
  client_reference: () => new ApiError('validation_error', 'client_reference must be a string of 1 to 128 printable characters.', { field: 'client_reference' }),
};

/** POST /orders `params` of each type (the Stars bounds are configuration: the kind adds them). */
export const ORDER_PARAMS_RULES: IssueRules = {
  '': 'bad_params',
  quantity: 'bad_quantity',
  months: 'bad_months',
  max_price: 'bad_max_price',
  recipient: recipientRule,
  gift: 'bad_gift',
};

/** Stars params: `quantity` out of the configured bounds names them. */
export const starsParamsRules = (min: number, max: number): IssueRules => ({
  ...ORDER_PARAMS_RULES,
  quantity: () => new ApiError('bad_quantity', `quantity must be a whole number from ${min} to ${max}.`, { min, max }),
});

/** POST /validate/recipient (a body that is not an object has no type). */
export const VALIDATE_RECIPIENT_RULES: IssueRules = {
  '': 'bad_type',
  type: 'bad_type',
  username: recipientRule,
};

/** POST /validate/game (a body that is not an object has no username). */
export const VALIDATE_GAME_RULES: IssueRules = {
  '': 'recipient_required',
  username: recipientRule,
};

/** The error for the first issue by the rules' order (an issue no rule names: 400 validation_error naming its path). */
export function issueError(issues: readonly z.core.$ZodIssue[], rules: IssueRules): ApiError | null {
  if (issues.length === 0) return null;
  const fieldOf = (i: z.core.$ZodIssue) => String(i.path[0] ?? '');
  for (const [field, rule] of Object.entries(rules)) {
    const issue = issues.find((i) => fieldOf(i) === field);
    if (issue) return typeof rule === 'string' ? new ApiError(rule) : rule(issue);
  }
  const i = issues[0];
  const path = i.path.join('.');
  return new ApiError('validation_error', `${path || 'body'}: ${i.message}`, path ? { field: path } : undefined);
}

/**
 * A body of the operator API, the Mini App or the sandbox checked by a zod schema: its issues become one
 * 400 validation_error ("path: message; …"). The partner API's requests name each issue's code (parseRequest).
 */
export function parseOrFail<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) fail('validation_error', r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  return r.data;
}

/** Parses a request with its schema; the first issue (by `rules`) is thrown as the contract's error. */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, rules: IssueRules): z.output<S> {
  const r = schema.safeParse(value, { reportInput: true });
  if (r.success) return r.data;
  throw issueError(r.error.issues, rules)!;
}

/**
 * How a route reads one part of a request (its query string): the zod schema, which the OpenAPI document
 * shows too, and `read`, which parses with it and throws the contract's error for the first issue. The
 * route helper (src/http/route.ts) reads before the handler, which gets the parsed, typed value.
 */
export interface RequestReader<T> {
  readonly schema: z.ZodObject;
  read(value: unknown): T;
}

/** The reader of a schema whose issues the `rules` name (./queries.ts). */
export function requestReader<S extends z.ZodObject>(schema: S, rules: IssueRules): RequestReader<z.output<S>> {
  return { schema, read: (value) => parseRequest(schema, value, rules) };
}
