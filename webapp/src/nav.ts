import type { Session } from './api/client';

/** Where the app is: a tab's page, or a page opened from one (pushed on the tab's stack). */
export type Route =
  | { page: 'home' | 'order' | 'orders' | 'topup' | 'api' | 'team' | 'ledger' | 'deliveries' }
  | { page: 'order-detail'; id: string };

export type PageName = Route['page'];

export interface Nav {
  go(r: Route): void;
  back(): void;
  /** Hands Telegram's back button back to the page stack (after a view inside a page had it). */
  restoreBack(): void;
  session: Session;
}
