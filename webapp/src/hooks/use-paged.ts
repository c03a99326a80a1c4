import { useState } from 'preact/hooks';
import { useLoad } from './use-load';

/** A list read page by page (the API's `next_cursor`): the first page on load, `more` (null at the end) adds the next. */
export function usePaged<T>(fetch: (cursor: string | null) => Promise<{ items: T[]; next_cursor: string | null }>, deps: unknown[]) {
  const [extra, setExtra] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const first = useLoad(async () => {
    const r = await fetch(null);
    setExtra([]);
    setCursor(r.next_cursor);
    return r;
  }, deps);
  const more = async () => {
    try {
      const r = await fetch(cursor);
      setExtra((x) => [...x, ...r.items]);
      setCursor(r.next_cursor);
    } catch (e) {
      setError(e);
    }
  };
  return { items: first.data ? [...first.data.items, ...extra] : null, error: first.error ?? error, more: cursor ? more : null };
}
