import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import qrcode from 'qrcode-generator';
import { errorText, t } from './i18n';

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

/** Loads `fn()` and reloads when `deps` change; `every` ms polls (live state). */
export function useLoad<T>(fn: () => Promise<T>, deps: unknown[], every?: number): { data: T | null; error: unknown; reload: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [n, setN] = useState(0);
  useEffect(() => {
    let alive = true;
    const run = () =>
      fn().then(
        (d) => alive && (setData(d), setError(null)),
        (e) => alive && setError(e),
      );
    run();
    const timer = every ? setInterval(run, every) : undefined;
    return () => {
      alive = false;
      if (timer) clearInterval(timer);
    };
  }, [...deps, n]);
  return { data, error, reload: () => setN((x) => x + 1) };
}

export function Loading() {
  return <p class="muted center">{t.loading}</p>;
}

export function fmtTime(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(/[zZ]|[+-]\d\d:\d\d$/.test(iso) ? iso : iso + 'Z');
  return d.toLocaleString(document.documentElement.lang, { dateStyle: 'short', timeStyle: 'short' });
}
