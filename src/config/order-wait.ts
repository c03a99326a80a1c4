import { int } from './fields.js';

/** Environment variables of GET /orders/{order_id}?wait=N (README "Additions for integrators"), merged into src/config/env.ts. */
export const orderWaitEnvShape = {
  /** Waiting requests one API key may have open at once; past it 429 rate_limited with scope `wait`. */
  ORDER_WAIT_MAX_PER_KEY: int(1, 10_000).default(10),
};
