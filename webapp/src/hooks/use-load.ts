import { useEffect, useState } from 'preact/hooks';

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
