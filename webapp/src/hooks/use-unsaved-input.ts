import { useEffect } from 'preact/hooks';
import { holdClosing } from '../tg';

/** While `dirty` (a form holds input not yet sent), Telegram asks before closing the app. */
export function useUnsavedInput(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    holdClosing(true);
    return () => holdClosing(false);
  }, [dirty]);
}
