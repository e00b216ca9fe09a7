/**
 * After a Save that found mistakes, the first field marked in red (in the form's order) takes
 * the focus and scrolls into view, once its message is drawn. Returns the trigger to call.
 */
import { useCallback, useEffect, useState, type RefObject } from 'react';

export function useFocusFirstError(formRef: RefObject<HTMLElement | null>): () => void {
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (asked === 0) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    first?.scrollIntoView({ block: 'center' });
    first?.focus({ preventScroll: true });
  }, [asked, formRef]);
  return useCallback(() => setAsked((n) => n + 1), []);
}
