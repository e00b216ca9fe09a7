/** The tender state machine (shared/cart/tender-machine.ts): over-tender, double submit, partial approval, cancel. */
import { describe, expect, it } from 'vitest';
import { balanceCents, beginCancel, beginTender, finishTender, markReversed, TENDER_MESSAGES, type TenderState } from '../../shared/cart/tender-machine';

const open = (totalCents: number): TenderState => ({ status: 'open', totalCents, taxCents: 0, tenders: [] });
function must<T>(r: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

describe('tenders', () => {
  it('$20 cash on a $33.47 sale leaves $13.47; a card for the rest completes it', () => {
    const a = must(beginTender(open(3_347), { id: 'c1', kind: 'cash', tenderedCents: 2_000 }));
    expect(a.tender).toMatchObject({ approvedCents: 2_000, changeCents: 0 });
    expect(balanceCents(a.state)).toBe(1_347);
    const b = must(beginTender(a.state, { id: 'k1', kind: 'card' }));
    expect(b.tender.requestedCents).toBe(1_347);
    expect(b.state.status).toBe('open');
    const c = must(finishTender(b.state, 'k1', { approvedCents: 1_347, transactionId: 't1' }));
    expect(c.status).toBe('paid');
    expect(balanceCents(c)).toBe(0);
  });

  it('cash over the balance gives change, which is not collected money', () => {
    const a = must(beginTender(open(1_347), { id: 'c1', kind: 'cash', tenderedCents: 2_000 }));
    expect(a.tender).toMatchObject({ approvedCents: 1_347, tenderedCents: 2_000, changeCents: 653 });
    expect(a.state.status).toBe('paid');
  });

  it('refuses a card over the balance (over-tender)', () => {
    const r = beginTender(open(1_000), { id: 'k', kind: 'card', amountCents: 1_001 });
    expect(r).toEqual({ ok: false, message: TENDER_MESSAGES.overCard('$10.00') });
  });

  it('refuses a second tender while one is pending (double submit)', () => {
    const a = must(beginTender(open(1_000), { id: 'k1', kind: 'card' }));
    expect(beginTender(a.state, { id: 'k2', kind: 'card' })).toEqual({ ok: false, message: TENDER_MESSAGES.pending });
    expect(beginTender(a.state, { id: 'c', kind: 'cash', tenderedCents: 1_000 })).toEqual({ ok: false, message: TENDER_MESSAGES.pending });
    // and the answer to the first cannot be applied twice
    const b = must(finishTender(a.state, 'k1', { approvedCents: 1_000, transactionId: 't' }));
    expect(finishTender(b, 'k1', { approvedCents: 1_000, transactionId: 't' }).ok).toBe(false);
  });

  it('a partial approval counts only what was approved and leaves the rest as balance', () => {
    const a = must(beginTender(open(201), { id: 'k1', kind: 'card' }));
    const b = must(finishTender(a.state, 'k1', { approvedCents: 100, transactionId: 't' }));
    expect(b.status).toBe('open');
    expect(balanceCents(b)).toBe(101);
    const c = must(beginTender(b, { id: 'c1', kind: 'cash', tenderedCents: 500 }));
    expect(c.tender.changeCents).toBe(399);
    expect(c.state.status).toBe('paid');
  });

  it('a declined card changes nothing; a paid sale takes no more', () => {
    const a = must(beginTender(open(500), { id: 'k1', kind: 'card' }));
    const b = must(finishTender(a.state, 'k1', { approvedCents: 0, transactionId: 't' }));
    expect(b.tenders[0]!.status).toBe('declined');
    expect(balanceCents(b)).toBe(500);
    const paid = must(beginTender(b, { id: 'c', kind: 'cash', tenderedCents: 500 })).state;
    expect(beginTender(paid, { id: 'x', kind: 'cash', tenderedCents: 1 })).toEqual({ ok: false, message: TENDER_MESSAGES.notOpen('paid') });
    expect(beginCancel(paid).ok).toBe(false);
  });

  it('refuses zero, an empty cart, and cash short of the amount it pays', () => {
    expect(beginTender(open(0), { id: 'c', kind: 'cash', tenderedCents: 100 }).ok).toBe(false);
    expect(beginTender(open(500), { id: 'k', kind: 'card', amountCents: 0 }).ok).toBe(false);
    const r = must(beginTender(open(500), { id: 'c', kind: 'cash', tenderedCents: 200, amountCents: 300 }));
    expect(r.tender.approvedCents).toBe(200); // pays what was handed over, no change
    expect(balanceCents(r.state)).toBe(300);
  });

  it('cancel gives back each taken tender and ends cancelled; refused while a card is pending', () => {
    const a = must(beginTender(open(3_000), { id: 'c1', kind: 'cash', tenderedCents: 1_000 }));
    const b = must(finishTender(must(beginTender(a.state, { id: 'k1', kind: 'card', amountCents: 1_000 })).state, 'k1', { approvedCents: 1_000, transactionId: 't' }));
    const pending = must(beginTender(b, { id: 'k2', kind: 'card' })).state;
    expect(beginCancel(pending)).toEqual({ ok: false, message: TENDER_MESSAGES.pending });
    const c = must(beginCancel(b));
    expect(c.toReverse.map((t) => t.id)).toEqual(['c1', 'k1']);
    expect(c.state.status).toBe('cancelling');
    expect(beginTender(c.state, { id: 'x', kind: 'cash', tenderedCents: 1 }).ok).toBe(false);
    const d = markReversed(c.state, 'c1');
    expect(d.status).toBe('cancelling');
    expect(markReversed(d, 'k1').status).toBe('cancelled');
    expect(must(beginCancel(open(100))).state.status).toBe('cancelled');
  });
});
