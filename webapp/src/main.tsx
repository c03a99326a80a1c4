import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, prefetch } from './api';
import { t } from './i18n';
import { ApiPage } from './pages/api-page';
import { DeliveriesPage } from './pages/deliveries';
import { HomePage } from './pages/home';
import { LedgerPage } from './pages/ledger';
import { OrderPage } from './pages/order';
import { OrderDetailPage, OrdersPage } from './pages/orders';
import { SignInConfirm, type SignInPreview } from './pages/sign-in';
import { TeamPage } from './pages/team';
import { TopupPage } from './pages/topup';
import { inTelegram, ready, setBack, setMain } from './tg';
import './styles.css';

export interface Session {
  user: { telegram_id: number; role: 'owner' | 'staff' };
  partner: { partner_id: number; name: string; status: string };
}

export type Route = { page: 'home' | 'order' | 'orders' | 'topup' | 'api' | 'team' | 'ledger' | 'deliveries' } | { page: 'order-detail'; id: string };

export interface Nav {
  go(r: Route): void;
  back(): void;
  /** Hands Telegram's back button back to the page stack (after a view inside a page had it). */
  restoreBack(): void;
  session: Session;
}

/**
 * Signs in: Telegram's initData, else a one-time link (#signin=…), else an existing cookie. A link is not
 * spent yet: it comes back with whom it signs in as, for the page to ask first (SignInConfirm).
 */
async function signIn(): Promise<Session | { token: string; who: SignInPreview }> {
  const m = /#signin=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (!inTelegram && m) {
    history.replaceState(null, '', location.pathname);
    return { token: m[1], who: await api<SignInPreview>('POST', '/sign-in/preview', { token: m[1] }) };
  }
  return api<Session>('GET', '/session');
}

const TABS: { page: Route['page']; label: () => string; owner?: boolean }[] = [
  { page: 'home', label: () => t.home },
  { page: 'order', label: () => t.order },
  { page: 'orders', label: () => t.orders },
  { page: 'topup', label: () => t.topup, owner: true },
  { page: 'api', label: () => t.apiTab, owner: true },
  { page: 'team', label: () => t.team, owner: true },
];

function App() {
  const [session, setSession] = useState<Session | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  // a tab starts a stack of its own; pages opened from a page are pushed on it and Telegram's back button pops them
  const [stack, setStack] = useState<Route[]>([{ page: 'home' }]);
  const route = stack[stack.length - 1];
  const depth = useRef(1);
  depth.current = stack.length;
  const pop = () => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s));
  const syncBack = () => setBack(depth.current > 1 ? pop : null);

  const [pending, setPending] = useState<{ token: string; who: SignInPreview; busy?: boolean } | null>(null);
  const failed = (e: unknown) => setFailure(e instanceof ApiError ? e : new ApiError(0, 'network', String(e), {}));
  useEffect(() => {
    signIn().then((r) => ('token' in r ? setPending(r) : setSession(r)), failed);
  }, []);

  const nav: Nav | null = session && {
    session,
    go: (r) => setStack((s) => (TABS.some((x) => x.page === r.page) ? [r] : [...s, r])),
    back: pop,
    restoreBack: syncBack,
  };

  useEffect(() => {
    syncBack();
    setMain(null); // each page sets its own main button
    window.scrollTo(0, 0);
  }, [stack]);

  if (failure) {
    const text = failure.code === 'not_linked' ? t.notLinked : failure.status === 401 ? t.signinText : failure.detail;
    return (
      <main class="page signin" data-testid="signin">
        <h1>{t.signinTitle}</h1>
        <p>{text}</p>
      </main>
    );
  }
  if (pending) {
    const yes = () => {
      setPending({ ...pending, busy: true });
      api<Session>('POST', '/sign-in', { token: pending.token }).then((s) => {
        setPending(null);
        setSession(s);
      }, (e) => {
        setPending(null);
        failed(e);
      });
    };
    const no = () => {
      setPending(null);
      setFailure(new ApiError(401, 'unauthorized', t.signinText, {}));
    };
    return <SignInConfirm who={pending.who} busy={!!pending.busy} onYes={yes} onNo={no} />;
  }
  if (!nav) return <main class="page"><p class="muted center">{t.loading}</p></main>;
  const owner = session!.user.role === 'owner';
  const tabs = TABS.filter((x) => owner || !x.owner);
  return (
    <>
      <main class="page" data-page={route.page}>
        {route.page === 'home' && <HomePage nav={nav} />}
        {route.page === 'order' && <OrderPage nav={nav} />}
        {route.page === 'orders' && <OrdersPage nav={nav} />}
        {route.page === 'order-detail' && <OrderDetailPage nav={nav} id={route.id} />}
        {route.page === 'ledger' && owner && <LedgerPage nav={nav} />}
        {route.page === 'deliveries' && owner && <DeliveriesPage nav={nav} />}
        {route.page === 'topup' && owner && <TopupPage nav={nav} />}
        {route.page === 'api' && owner && <ApiPage nav={nav} />}
        {route.page === 'team' && owner && <TeamPage nav={nav} />}
      </main>
      <nav class="tabs" aria-label="sections">
        {tabs.map((x) => (
          <button class={stack[0].page === x.page ? 'on' : ''} onClick={() => nav.go({ page: x.page } as Route)} data-testid={`tab-${x.page}`}>
            {x.label()}
          </button>
        ))}
      </nav>
    </>
  );
}

ready();
// inside Telegram the first screen's reads need nothing but initData: start them with the session check
if (inTelegram) prefetch(['/balances', '/orders?limit=5']);
render(<App />, document.getElementById('app')!);
