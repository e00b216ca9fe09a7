/**
 * The counter's side of the customer display's tip: when the customer taps a tip on the display
 * for the cart on this screen, it becomes the cart's tip here (the cashier sees it and may still
 * change it) and a sentence says so. Each pick is applied once (the display counts them), so a
 * later change by the cashier stands until the customer taps again. Nothing is charged here.
 */
import { useEffect, useRef, useState } from 'react';
import type { DisplayTipPick } from '../../../shared/ipc/display';
import type { TipChoice } from '../sales/amount-entry';
import { ringup } from '../bridge/bridge';
import { money } from '../ui/money-format';

function choiceOf(pick: DisplayTipPick): TipChoice {
  if (pick.kind === 'percent') return { kind: 'percent', percent: pick.percent };
  if (pick.kind === 'flat') return { kind: 'flat', cents: pick.cents };
  return { kind: 'none' };
}

/** Applies the customer's picks for `cartId` through `setTip`; answers the sentence to show (null before any pick). */
export function useCustomerTip(cartId: string | null, setTip: (tip: TipChoice) => void): string | null {
  const [note, setNote] = useState<string | null>(null);
  const applied = useRef<{ cartId: string | null; count: number }>({ cartId: null, count: 0 });
  useEffect(() => {
    setNote(null);
    return ringup.on('display:state', (s) => {
      const tip = s.tip;
      if (!tip || tip.cartId !== cartId || !tip.picked) return;
      const last = applied.current.cartId === cartId ? applied.current.count : 0;
      if (tip.pickCount <= last) return;
      applied.current = { cartId, count: tip.pickCount };
      setTip(choiceOf(tip.picked));
      setNote(tip.picked.kind === 'none' ? 'The customer chose no tip on the display.' : `The customer chose a ${money(tip.picked.cents)} tip on the display.`);
    });
  }, [cartId, setTip]);
  return note;
}
