import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody, type ErrorCode } from '../domain/errors.js';
import { storageUnavailable } from '../app/unit-of-work.js';
import type { RateLimiter } from './rate-limiter.js';
import { authChallenge } from './request-id.js';

/** The one error mechanism: every failure becomes an ApiError and one of the contract's two body formats. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const fe = err as FastifyError;
  const byCode: Record<string, ErrorCode> = {
    FST_ERR_CTP_INVALID_JSON_BODY: 'bad_json',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'bad_json',
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
    FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  };
  const storage = storageUnavailable(err);
  if (storage) return storage;
  const code = fe?.code ? byCode[fe.code] : undefined;
  if (code) return new ApiError(code);
  if (fe && (fe as { statusCode?: number }).statusCode === 400) return new ApiError(fe instanceof SyntaxError ? 'bad_json' : 'bad_request');
  return new ApiError('internal_error');
}

/** The operator API's base path: its errors are flat (operator-api.md section 2). */
export const OPERATOR_API_PREFIX = '/api/admin/v1';

/**
 * The body format of an error for the request's API: the partner API and the Mini App answer each code in
 * the format the contract gives it; the operator API answers every error flat `{code, detail}` but 401
 * `unauthorized`, which it keeps nested (operator-api.md section 2), whether the error came from a route,
 * the body parser (bad_json, unsupported_media_type, payload_too_large) or the router.
 */
export function inFormatOf(url: string, e: ApiError): ApiError {
  const operator = url === OPERATOR_API_PREFIX || url.startsWith(`${OPERATOR_API_PREFIX}/`) || url.startsWith(`${OPERATOR_API_PREFIX}?`);
  if (!operator || e.format === 'flat' || e.code === 'unauthorized') return e;
  return new ApiError(e.code, e.detail, e.extra, e.headers, { status: e.status, format: 'flat' });
}

export interface ErrorHandling {
  /** Sees every error first (the storage monitor hears of writes that failed outside a transaction). */
  observe?: (err: unknown, reqId: string) => void;
  /** Unknown URLs count per client address (scope `not_found`), so that probing for routes is limited like using them. */
  limiter: RateLimiter;
}

/**
 * Answers of Fastify's router that never reach the error handler (FastifyServerOptions.frameworkErrors),
 * in the contract's formats: a URL that cannot be decoded is 400 `bad_request`, and (should the router's
 * parameter limit ever be met) an over-long path id 404 `not_found`. Both count against the unknown-URL
 * budget.
 */
export function frameworkErrors(limiter: RateLimiter) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply): void => {
    let e = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? new ApiError('not_found', 'Not found: an identifier in the path is too long.') : new ApiError('bad_request', 'The URL is malformed.');
    try {
      limiter.hit('not_found', req.ip);
    } catch (limited) {
      e = toApiError(limited);
    }
    // answered before the hooks run: the request id header of src/http/request-id.ts is set here
    void reply.code(e.status).headers(e.headers).header('x-request-id', req.id).send(errorBody(e));
  };
}

export function installErrorHandling(app: FastifyInstance, { observe, limiter }: ErrorHandling): void {
  app.setErrorHandler((err, req, reply) => {
    observe?.(err, req.id);
    const e = inFormatOf(req.url, toApiError(err));
    reply.code(e.status).headers(e.headers);
    if (e.status === 401 && !reply.hasHeader('www-authenticate')) reply.header('www-authenticate', authChallenge(req.url));
    reply.send(errorBody(e));
  });
  app.setNotFoundHandler((req, reply) => {
    let e = new ApiError('route_not_found', `No endpoint ${req.method} ${req.url.split('?')[0]}.`);
    try {
      limiter.hit('not_found', req.ip);
    } catch (limited) {
      e = toApiError(limited);
    }
    e = inFormatOf(req.url, e);
    reply.code(e.status).headers(e.headers).send(errorBody(e));
  });
}
