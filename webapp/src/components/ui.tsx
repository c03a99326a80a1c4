import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import qrcode from 'qrcode-generator';
import { errorText, t } from '../i18n';

export function Section(p: { title?: string; children: ComponentChildren; id?: string }) {
  return (
    <section class="section" id={p.id}>
      {p.title && <h2>{p.title}</h2>}
      <div class="card">{p.children}</div>
    </section>
  );
}

export function Row(p: { label: ComponentChildren; value?: ComponentChildren; onClick?: () => void; testid?: string }) {
  return (
    <div class={`row${p.onClick ? ' tap' : ''}`} onClick={p.onClick} data-testid={p.testid} role={p.onClick ? 'button' : undefined}>
      <span class="label">{p.label}</span>
      {p.value !== undefined && <span class="value">{p.value}</span>}
    </div>
  );
}

export function Button(p: { children: ComponentChildren; onClick?: () => void; kind?: 'primary' | 'plain' | 'danger'; disabled?: boolean; testid?: string }) {
  return (
    <button class={`btn ${p.kind ?? 'primary'}`} onClick={p.onClick} disabled={p.disabled} data-testid={p.testid}>
      {p.children}
    </button>
  );
}

export function Status(p: { status: string }) {
  return <span class={`badge ${p.status}`}>{t.st[p.status] ?? p.status}</span>;
}

export function ErrorNote(p: { error: unknown }) {
  if (!p.error) return null;
  return (
    <p class="error" role="alert">
      {errorText(p.error)}
    </p>
  );
}

export function Copy(p: { text: string; testid?: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(p.text);
    } catch {
      const ta = document.createElement('textarea');
      ta.value = p.text;
      document.body.append(ta);
      ta.select();
      document.execCommand('copy');
      ta.remove();
    }
    setDone(true);
    setTimeout(() => setDone(false), 1500);
  };
  return (
    <div class="copy">
      <code data-testid={p.testid}>{p.text}</code>
      <button class="btn plain small" onClick={copy}>
        {done ? t.copied : t.copy}
      </button>
    </div>
  );
}

/** A QR code drawn as SVG by qrcode-generator (no network, no canvas). */
export function Qr(p: { text: string; testid?: string }) {
  const q = qrcode(0, 'M');
  q.addData(p.text);
  q.make();
  return <div class="qr" data-testid={p.testid} dangerouslySetInnerHTML={{ __html: q.createSvgTag({ cellSize: 4, margin: 2, scalable: true }) }} />;
}

export function Loading() {
  return <p class="muted center">{t.loading}</p>;
}
