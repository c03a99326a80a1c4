import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type Session, type SignInPreview } from './api/client';
import { ErrorBoundary } from './components/error-boundary';
import { SignInConfirm } from './components/sign-in-confirm';
import { t } from './i18n';
import type { Nav, PageName, Route } from './nav';
import { allowed, inConsole, isTab, ROUTES, startPage } from './routes';
import { inTelegram, setBack, setMain } from './tg';

/**
 * Signs in: Telegram's initData, else a one-time link (#signin=…), else an existing cookie. A link is not
 * spent yet: it comes back with whom it signs in as, for the page to ask first (SignInConfirm).
 */
async function signIn(): Promise<Session | { token: string; who: SignInPreview }> {
  const m = /#signin=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (!inTelegram && m) {
    history.replaceState(null, '', location.pathname);
    return { token: m[1], who: await api.signInPreview(m[1]) };
  }
  return api.session();
}

const asError = (e: unknown) => (e instanceof ApiError ? e : new ApiError(0, 'network', String(e), {}));

/** The shell: sign-in, the page stacks of the tabs, Telegram's back and main buttons, the tab bar. */
export function App() {
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
  const signedIn = (s: Session) => (setSession(s), setStack([startPage(s)]));
  useEffect(() => {
    signIn().then(
      (r) => ('token' in r ? setPending(r) : signedIn(r)),
      (e) => setFailure(asError(e)),
    );
  }, []);

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
      api.signIn(pending.token).then(
        (s) => (setPending(null), signedIn(s)),
        (e) => (setPending(null), setFailure(asError(e))),
      );
    };
    const no = () => (setPending(null), setFailure(new ApiError(401, 'unauthorized', t.signinText, {})));
    return <SignInConfirm who={pending.who} busy={!!pending.busy} onYes={yes} onNo={no} />;
  }
  if (!session) return <main class="page"><p class="muted center">{t.loading}</p></main>;
  const nav: Nav = {
    session,
    // opening the page already shown (a second tap landing late) does not stack it twice: one Back leaves it
    go: (r) => setStack((s) => (isTab(r.page) ? [r] : JSON.stringify(s[s.length - 1]) === JSON.stringify(r) ? s : [...s, r])),
    back: pop,
    restoreBack: syncBack,
  };
  // the tabs of the area the stack is in; someone who is both operator and partner gets a tab to the other area
  const consoleArea = inConsole(stack[0].page);
  const tabs = (Object.keys(ROUTES) as PageName[]).filter((p) => isTab(p) && inConsole(p) === consoleArea && allowed(ROUTES[p], session));
  const other: Route | null = session.user.operator && session.partner ? (consoleArea ? { page: 'home' } : { page: 'op-overview' }) : null;
  const def = ROUTES[route.page];
  return (
    <>
      <main class="page" data-page={route.page}>
        <ErrorBoundary key={JSON.stringify(route)} resetKey={JSON.stringify(route)}>{allowed(def, session) && def.render(nav, route)}</ErrorBoundary>
      </main>
      <nav class="tabs" aria-label="sections">
        {tabs.map((p) => (
          <button class={stack[0].page === p ? 'on' : ''} onClick={() => nav.go({ page: p } as Route)} data-testid={`tab-${p}`}>
            {ROUTES[p].tab!()}
          </button>
        ))}
        {other && (
          <button onClick={() => nav.go(other)} data-testid="tab-switch-area">
            {consoleArea ? t.console.partnerTab : t.console.tab}
          </button>
        )}
      </nav>
    </>
  );
}
