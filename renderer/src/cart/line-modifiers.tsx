import type { LineChoice } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';

/**
 * The modifiers a line was sold with (issue 23), one under another beneath its name, each with
 * what it added to one item ("+ Extra shot  $0.50"): on the ticket and on the receipt. The
 * variant is already in the line's name ("Latte Large"). Nothing for a plain line.
 */
export function LineModifiers({ choice }: { choice: LineChoice | null }) {
  if (!choice || choice.modifiers.length === 0) return null;
  return (
    <ul className="line-modifiers" aria-label="With" data-testid="line-modifiers">
      {choice.modifiers.map((m) => (
        <li key={m.optionId}>
          <span>+ {m.name}</span>
          {m.priceCents > 0 && <span className="line-modifier-price">{money(m.priceCents)}</span>}
        </li>
      ))}
    </ul>
  );
}
