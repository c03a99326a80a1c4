import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { Button, Copy, ErrorNote, Loading, Qr, Row, Section } from '../components/ui';
import { useLoad } from '../hooks/use-load';
import { t, words } from '../i18n';
import { fmtTime } from '../lib/format';
import type { Nav } from '../nav';
import { confirmDialog } from '../tg';

/** Team (owners): invite (link and QR code), the people linked, unlink. */
export function TeamPage({ nav }: { nav: Nav }) {
  const team = useLoad(() => api.team(), []);
  const [invite, setInvite] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const create = async (role: 'staff' | 'owner') => {
    setError(null);
    try {
      setInvite((await api.invite(role)).link);
    } catch (e) {
      setError(e);
    }
  };
  const unlink = async (id: number) => {
    if (!(await confirmDialog(t.unlinkConfirm(id)))) return;
    setError(null);
    try {
      await api.unlink(id);
      team.reload();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <div class="actions">
        <Button onClick={() => create('staff')} testid="invite-staff">
          {t.inviteStaff}
        </Button>
        <Button kind="plain" onClick={() => create('owner')}>
          {t.inviteOwner}
        </Button>
      </div>
      {invite && (
        <Section title={t.inviteLink}>
          <div class="pad">
            <Copy text={invite} testid="invite-link" />
            <Qr text={invite} testid="invite-qr" />
          </div>
        </Section>
      )}
      <ErrorNote error={error} />
      <Section title={t.people}>
        {!team.data ? (
          <Loading />
        ) : (
          team.data.items.map((u) => (
            <Row
              testid={`member-${u.telegram_id}`}
              label={
                <>
                  <b>{u.name ?? u.telegram_id}</b> {u.telegram_id === nav.session.user.telegram_id && <span class="muted">({t.you})</span>}
                  <small class="muted block">
                    {words.role[u.role] ?? u.role} · {u.name ? `id ${u.telegram_id} · ` : ''}{t.since} {fmtTime(u.linked_at)}
                  </small>
                </>
              }
              value={
                u.telegram_id !== nav.session.user.telegram_id && (
                  <Button kind="danger" onClick={() => unlink(u.telegram_id)} testid={`unlink-${u.telegram_id}`}>
                    {t.unlink}
                  </Button>
                )
              }
            />
          ))
        )}
      </Section>
    </>
  );
}
