/**
 * A category's colour as a small round swatch beside its name (the name says it; the swatch
 * is decoration, hidden from screen readers). The colours are styles.css's --cat-* tokens,
 * one per CATEGORY_COLOURS name, set for the light and the dark theme.
 */
import type { CategoryColour } from '../../../shared/ipc/contract';

export function CategorySwatch({ colour }: { colour: CategoryColour }) {
  return <span className="category-swatch" style={{ background: `var(--cat-${colour})` }} aria-hidden="true" />;
}

/** "Choose 1", "Up to 3", "1 to 2", "Any" — a modifier group's rule in words. */
export function groupRule(min: number, max: number): string {
  if (min === max) return `Choose ${min}`;
  if (min === 0) return max === 1 ? 'Optional, 1 at most' : `Up to ${max}`;
  return `${min} to ${max}`;
}
