import { useEffect, useState } from 'preact/hooks';
import { api, type RecipientCheck } from '../api/client';

export type RecipientState = { check: RecipientCheck | null; error: unknown; busy: boolean };

/** The recipient's live check (found, not found, already Premium, cannot receive gifts) and the price, 350 ms after typing stops. */
export function useRecipientCheck(body: Record<string, unknown> | null): RecipientState {
  const [check, setCheck] = useState<RecipientCheck | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const key = JSON.stringify(body);
  useEffect(() => {
    setCheck(null);
    setError(null);
    if (!body) return;
    setBusy(true);
    let alive = true;
    const timer = setTimeout(() => {
      api.recipientCheck(body).then(
        (c) => alive && (setCheck(c), setBusy(false)),
        (e) => alive && (setError(e), setBusy(false)),
      );
    }, 350);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [key]);
  return { check, error, busy };
}
