/**
 * The tip choice on the customer display: no tip and the tips the store offers (percents of its tip
 * base, or smart flat amounts), each a large button. A tap only tells the cashier's screen: the
 * cashier still charges, and the tip the customer picked shows there.
 */
import type { DisplayTip, DisplayTipPick } from '../../../shared/ipc/display';
import { money } from '../ui/money-format';
import { useDisplayStore } from './display-store';

const same = (a: DisplayTipPick | null, b: DisplayTipPick) =>
  a !== null && a.kind === b.kind && (a.kind === 'none' || (a.kind === 'percent' && b.kind === 'percent' ? a.percent === b.percent : a.cents === (b as { cents: number }).cents));

export function DisplayTipChoice({ tip }: { tip: DisplayTip }) {
  const pickTip = useDisplayStore((s) => s.pickTip);
  const picking = useDisplayStore((s) => s.picking);
  const tipError = useDisplayStore((s) => s.tipError);
  const choices: Array<{ index: number | null; cents: number; main: string; sub?: string; pick: DisplayTipPick }> = [
    { index: null, cents: 0, main: 'No tip', pick: { kind: 'none' } },
    ...tip.suggestions.map((s, i) => (s.kind === 'percent' ? { index: i, cents: s.cents, main: `${s.percent}%`, sub: money(s.cents), pick: s } : { index: i, cents: s.cents, main: money(s.cents), pick: s })),
  ];
  return (
    <div className="cd-tip" role="group" aria-labelledby="cd-tip-title">
      <p id="cd-tip-title" className="cd-tip-title">
        {tip.picked ? (tip.picked.kind === 'none' ? 'No tip — thank you' : `Tip ${money(tip.picked.cents)} — thank you!`) : 'Add a tip?'}
      </p>
      <div className="cd-tip-choices">
        {choices.map((c) => (
          <button key={c.main} type="button" className="cd-tip-btn" aria-pressed={same(tip.picked, c.pick)} disabled={picking} onClick={() => void pickTip(c.index, c.cents)}>
            <span>{c.main}</span>
            {c.sub && <span className="cd-tip-sub">{c.sub}</span>}
          </button>
        ))}
      </div>
      {tipError && (
        <p className="cd-tip-error" role="alert">
          {tipError}
        </p>
      )}
    </div>
  );
}
