import type { JSX } from 'preact';
import { t } from './i18n';
import { launchRoute, type Nav, type PageName, type Route } from './nav';
import { ApiPage } from './pages/api-page';
import { ConsoleDepositsPage } from './pages/console-deposits';
import { ConsoleOverviewPage } from './pages/console-overview';
import { ConsolePartnerPage } from './pages/console-partner';
import { ConsolePartnersPage } from './pages/console-partners';
import { ConsoleProductsPage } from './pages/console-products';
import { ConsoleReviewsPage } from './pages/console-reviews';
import { DeliveriesPage } from './pages/deliveries';
import { HomePage } from './pages/home';
import { LedgerPage } from './pages/ledger';
import { OrderDetailPage } from './pages/order-detail';
import { OrderPage } from './pages/order';
import { OrdersPage } from './pages/orders';
import { TeamPage } from './pages/team';
import { TopupPage } from './pages/topup';

/** Who may open a page: anyone linked to a partner (staff and owners), owners only, operators only. */
export type Access = 'member' | 'owner' | 'operator';

export interface PageDef {
  access: Access;
  /** A tab's label: the page is a tab (starts a stack of its own); without one it is opened from a page. */
  tab?: () => string;
  render(nav: Nav, route: Route): JSX.Element;
}

/** The route table: every page of the app, who may open it, and whether it is a tab (in tab order). */
export const ROUTES: Record<PageName, PageDef> = {
  home: { access: 'member', tab: () => t.home, render: (nav) => <HomePage nav={nav} /> },
  order: { access: 'member', tab: () => t.order, render: (nav, r) => <OrderPage nav={nav} product={r.page === 'order' ? r.product : undefined} collection={r.page === 'order' ? r.collection : undefined} /> },
  orders: { access: 'member', tab: () => t.orders, render: (nav) => <OrdersPage nav={nav} /> },
  topup: { access: 'owner', tab: () => t.topup, render: (nav) => <TopupPage nav={nav} /> },
  api: { access: 'owner', tab: () => t.apiTab, render: (nav) => <ApiPage nav={nav} /> },
  team: { access: 'owner', tab: () => t.team, render: (nav) => <TeamPage nav={nav} /> },
  'order-detail': { access: 'member', render: (nav, r) => <OrderDetailPage nav={nav} id={r.page === 'order-detail' ? r.id : ''} /> },
  ledger: { access: 'owner', render: (nav) => <LedgerPage nav={nav} /> },
  deliveries: { access: 'owner', render: (nav) => <DeliveriesPage nav={nav} /> },

  'op-overview': { access: 'operator', tab: () => t.console.overview, render: (nav) => <ConsoleOverviewPage nav={nav} /> },
  'op-partners': { access: 'operator', tab: () => t.console.partners, render: (nav) => <ConsolePartnersPage nav={nav} /> },
  'op-reviews': { access: 'operator', tab: () => t.console.reviews, render: (nav) => <ConsoleReviewsPage nav={nav} /> },
  'op-deposits': { access: 'operator', tab: () => t.console.deposits, render: (nav) => <ConsoleDepositsPage nav={nav} /> },
  'op-products': { access: 'operator', tab: () => t.console.products, render: (nav) => <ConsoleProductsPage nav={nav} /> },
  'op-partner': { access: 'operator', render: (nav, r) => <ConsolePartnerPage nav={nav} id={r.page === 'op-partner' ? r.id : 0} /> },
};

export function allowed(def: PageDef, session: Nav['session']): boolean {
  const role = session.user.role;
  if (def.access === 'operator') return session.user.operator;
  if (def.access === 'owner') return role === 'owner';
  return role === 'owner' || role === 'staff';
}

export const isTab = (page: PageName) => ROUTES[page].tab !== undefined;

/** The partner's pages and the operator's console each have their tabs; someone who is both switches between them. */
export const inConsole = (page: PageName) => ROUTES[page].access === 'operator';

/**
 * Where a session starts: the page the launch URL asks for when the person may open it (nav.ts
 * launchRoute), else an operator on the console's overview, anyone else at home.
 */
export function startPage(session: Nav['session']): Route {
  const asked = launchRoute(location.search);
  if (asked && allowed(ROUTES[asked.page], session)) return asked;
  return session.user.operator ? { page: 'op-overview' } : { page: 'home' };
}
