import { Copy, Qr, Section } from './ui';

/** An invite as its t.me link with a copy button and a QR code (the person opens it in Telegram). */
export function InviteCard(p: { title: string; link: string }) {
  return (
    <Section title={p.title}>
      <div class="pad" data-testid="invite">
        <Copy text={p.link} testid="invite-link" />
        <Qr text={p.link} testid="invite-qr" />
      </div>
    </Section>
  );
}
