import type { Config } from '../src/config/env.js';

/**
 * Where the Mini App lives, for the buttons that open it (/app, the menu button, a gift collection's
 * "Open in the app"). Telegram opens web apps only over https.
 */
export function appUrl(config: Config): string {
  return `${config.publicBaseUrl}/app/`;
}

/** The Mini App opened at a collection's gift grid (webapp/src/nav.ts launchRoute reads `collection`). */
export function giftGridUrl(config: Config, collection: string): string {
  return `${appUrl(config)}?collection=${encodeURIComponent(collection)}`;
}

export function webAppAllowed(config: Config): boolean {
  return config.publicBaseUrl.startsWith('https://');
}
