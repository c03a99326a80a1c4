import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, newKey } from '../api/client';
import { Button } from '../components/ui';
import type { Nav } from '../nav';
import { haptic, inTelegram, setMain } from '../tg';

/**
 * The confirmation: one idempotency key per confirmation screen (a new key only when what is ordered
 * changes), so a double tap or a retry makes one order. In Telegram it is the main button.
 */
export function useConfirm(nav: Nav, body: Record<string, unknown> | null, ready: boolean, label: string) {
  const key = useMemo(() => newKey(), [JSON.stringify(body)]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const inFlight = useRef(false);
  // once the order is placed the screen is leaving; a tap that arrives before it is gone (Telegram's main
  // button still has this handler until the page unmounts) must not open the order's page a second time
  const placed = useRef(false);
  const submit = async () => {
    if (!body || !ready || inFlight.current || placed.current) return;
    inFlight.current = true;
    setBusy(true);
    setError(null);
    try {
      const o = await api.createOrder({ ...body, idempotency_key: key });
      placed.current = true;
      haptic('success');
      nav.go({ page: 'order-detail', id: o.order_id });
    } catch (e) {
      haptic('error');
      setError(e);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };
  useEffect(() => {
    setMain(body ? { text: label, onClick: submit, busy, disabled: !ready } : null);
  }, [label, ready, busy, key]);
  useEffect(() => () => setMain(null), []);
  const button = inTelegram ? null : (
    <Button onClick={submit} disabled={!ready || busy} testid="confirm">
      {label}
    </Button>
  );
  return { button, error };
}
