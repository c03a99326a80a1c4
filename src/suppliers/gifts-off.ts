import { GiftsDisabled, type GiftMarket } from './types.js';

/**
 * The gift market when GIFTS_UPSTREAM=off: nothing is listed and nothing can be bought. The application
 * checks the setting before any market call (503 product_disabled); every call here refuses as well, so a
 * path that forgot the check still sells nothing.
 */
export const giftsOff: GiftMarket = {
  status: () => ({ up: true }),
  collections: () => Promise.reject(new GiftsDisabled()),
  listings: () => Promise.reject(new GiftsDisabled()),
  gift: () => Promise.reject(new GiftsDisabled()),
  feesMilli: () => 0,
  tonUsdCents: () => 0,
  runStage: () => Promise.reject(new GiftsDisabled()),
  quote: () => Promise.reject(new GiftsDisabled()),
  pay: () => Promise.reject(new GiftsDisabled()),
  reconcile: () => Promise.reject(new GiftsDisabled()),
  transferOf: () => Promise.reject(new GiftsDisabled()),
  links: () => {
    throw new GiftsDisabled();
  },
};
