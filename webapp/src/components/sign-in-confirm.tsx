import type { SignInPreview } from '../api/client';
import { t } from '../i18n';


/**
 * "Sign in as <name>?": a link someone else sent would otherwise put the reader, unasked, in that person's
 * account (whatever they then typed would be seen there).
 */
export function SignInConfirm(p: { who: SignInPreview; busy: boolean; onYes: () => void; onNo: () => void }) {
  const name = p.who.user.name ?? t.signinUser(p.who.user.telegram_id);
  return (
    <main class="page signin" data-testid="signin-confirm">
      <h1>{t.signinAs(name)}</h1>
      <p>{t.signinAsText(p.who.partner?.name ?? null)}</p>
      <p>
        <button class="btn primary" disabled={p.busy} onClick={p.onYes} data-testid="signin-yes">
          {t.signinYes}
        </button>{' '}
        <button class="btn" disabled={p.busy} onClick={p.onNo} data-testid="signin-no">
          {t.signinNo}
        </button>
      </p>
    </main>
  );
}
