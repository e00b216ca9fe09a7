/**
 * Modal dialogs can stack (the large-amount question opens over the saved-card picker):
 * only the one on top — the last `aria-modal` element in the document — takes Tab and
 * Escape, so Escape on the question does not also close the picker beneath it.
 */
export function isTopmostModal(el: Element | null): boolean {
  if (!el) return false;
  const modals = document.querySelectorAll('[aria-modal="true"]');
  const top = modals[modals.length - 1];
  return !top || top === el || el.contains(top);
}
