import type { Session } from './api/client';

/** Where the app is: a tab's page, or a page opened from one (pushed on the tab's stack). */
export type Route =
  | { page: 'home' | 'orders' | 'topup' | 'api' | 'team' | 'ledger' | 'deliveries' }
  | { page: 'order'; product?: 'stars' | 'premium' | 'nft'; collection?: string }
  | { page: 'order-detail'; id: string }
  | { page: 'op-overview' | 'op-partners' | 'op-reviews' | 'op-deposits' | 'op-products' }
  | { page: 'op-partner'; id: number };

export type PageName = Route['page'];

/**
 * Where a launch URL asks the app to open, if anywhere: `?collection=<id>` (the bot's "Open in the app"
 * button under a collection's gifts) opens the gift grid at that collection.
 */
export function launchRoute(search: string): Route | null {
  const collection = new URLSearchParams(search).get('collection');
  return collection ? { page: 'order', product: 'nft', collection } : null;
}

export interface Nav {
  go(r: Route): void;
  back(): void;
  /** Hands Telegram's back button back to the page stack (after a view inside a page had it). */
  restoreBack(): void;
  session: Session;
}
