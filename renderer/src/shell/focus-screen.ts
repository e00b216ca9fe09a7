/**
 * After a tab or a Manage tile is chosen, the keyboard focus moves into the screen (so Enter and digits
 * work there, and a screen reader lands on it). The move waits a frame for the screen to render; a person
 * who has already moved on by then (F2 then Tab at once) keeps their place instead of being pulled back.
 */
export function focusScreen(): void {
  const before = document.activeElement;
  requestAnimationFrame(() => {
    const now = document.activeElement;
    if (now !== before && now !== document.body && now !== null) return;
    document.querySelector<HTMLElement>('[data-screen-focus]')?.focus({ preventScroll: true });
  });
}
