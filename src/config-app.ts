import { int } from './config-fields.js';

/** Environment variables of the Mini App (README "The Mini App"), merged into the envSchema of src/config.ts. */
export const appEnvShape = {
  /** initData older than this (by its auth_date, on the service clock) is refused with 401. */
  APP_INIT_DATA_MAX_AGE_SECONDS: int(1, 31_536_000).default(3600),
  /** Per Telegram user, per minute, every /api/app/v1 request (token bucket of this size). */
  APP_RATE_LIMIT: int(1, 10_000_000).default(120),
};
