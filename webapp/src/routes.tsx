import type { JSX } from 'preact';
import { t } from './i18n';
import type { Nav, PageName, Route } from './nav';
import { ApiPage } from './pages/api-page';
import { DeliveriesPage } from './pages/deliveries';
import { HomePage } from './pages/home';
import { LedgerPage } from './pages/ledger';
import { OrderDetailPage } from './pages/order-detail';
import { OrderPage } from './pages/order';
import { OrdersPage } from './pages/orders';
import { TeamPage } from './pages/team';
import { TopupPage } from './pages/topup';

/** Who may open a page: anyone linked to a partner (`staff` and owners), owners only. */
export type Access = 'member' | 'owner';

export interface PageDef {
  access: Access;
  /** A tab's label: the page is a tab (starts a stack of its own); without one it is opened from a page. */
  tab?: () => string;
  render(nav: Nav, route: Route): JSX.Element;
}

/** The route table: every page of the app, who may open it, and whether it is a tab (in tab order). */
export const ROUTES: Record<PageName, PageDef> = {
  home: { access: 'member', tab: () => t.home, render: (nav) => <HomePage nav={nav} /> },
  order: { access: 'member', tab: () => t.order, render: (nav) => <OrderPage nav={nav} /> },
  orders: { access: 'member', tab: () => t.orders, render: (nav) => <OrdersPage nav={nav} /> },
  topup: { access: 'owner', tab: () => t.topup, render: (nav) => <TopupPage nav={nav} /> },
  api: { access: 'owner', tab: () => t.apiTab, render: (nav) => <ApiPage nav={nav} /> },
  team: { access: 'owner', tab: () => t.team, render: (nav) => <TeamPage nav={nav} /> },
  'order-detail': { access: 'member', render: (nav, r) => <OrderDetailPage nav={nav} id={r.page === 'order-detail' ? r.id : ''} /> },
  ledger: { access: 'owner', render: (nav) => <LedgerPage nav={nav} /> },
  deliveries: { access: 'owner', render: (nav) => <DeliveriesPage nav={nav} /> },
};

export function allowed(def: PageDef, session: Nav['session']): boolean {
  const role = session.user.role;
  if (def.access === 'owner') return role === 'owner';
  return role === 'owner' || role === 'staff';
}

export const isTab = (page: PageName) => ROUTES[page].tab !== undefined;
