import { z } from 'zod';
import { isTronAddress, tonRawAddress } from '../domain/chain-address.js';
import { httpUrl, int, optionalString } from './fields.js';

/**
 * Environment variables of the chain watchers (automatic top-ups), merged into the envSchema of
 * src/config/env.ts. Defaults point at the public mainnet APIs and the mainnet USDT contracts; README
 * "Top-ups" documents each one.
 */

export const topupEnvShape = {
  /** `1`: run the chain watchers; unset: on when not in sandbox mode or when a DEPOSIT_ADDRESS_* is set. */
  WATCHERS: z.enum(['0', '1']).transform((v) => v === '1').optional(),
  WATCHER_POLL_SECONDS: int(1, 3600).default(30),
  TON_API_URL: httpUrl.default('https://toncenter.com'),
  TON_API_KEY: optionalString,
  TRON_API_URL: httpUrl.default('https://api.trongrid.io'),
  TRON_API_KEY: optionalString,
  BSC_RPC_URL: httpUrl.default('https://bsc-dataseed.bnb.org'),
  USDT_TON_JETTON: z.string().refine((s) => tonRawAddress(s) !== null, 'must be a TON address').default('EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs'),
  USDT_TRC20_CONTRACT: z.string().refine(isTronAddress, 'must be a TRON address (T…)').default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
  USDT_BEP20_CONTRACT: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x and 40 hex digits')
    .default('0x55d398326f99059fF775485246999027B3197955'),
  TON_CONFIRMATIONS: int(1, 1000).default(1),
  TRON_CONFIRMATIONS: int(1, 1000).default(19),
  BSC_CONFIRMATIONS: int(1, 1000).default(15),
  BSC_LOG_RANGE: int(1, 100_000).default(500),
  /** Open top-up requests one partner may hold per currency (each holds one of the few offsets of its amount). */
  TOPUP_REQUESTS_MAX_OPEN: int(1, 100).default(3),
};
