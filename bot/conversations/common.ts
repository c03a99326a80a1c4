import { ApiError } from '../../src/domain/errors.js';
import type { ErrorInfo } from '../views/model.js';

/** A service call's result as plain JSON (externals are stored; an `ApiError` would lose its fields). */
export type Outcome<T> = { ok: true; value: T } | ({ ok: false } & ErrorInfo);

/** Runs an application service and turns its `ApiError` into data; anything else still throws. */
export async function attempt<T>(fn: () => T | Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, code: e.code, detail: e.detail, extra: { ...e.extra } };
    throw e;
  }
}
