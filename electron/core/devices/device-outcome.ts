/**
 * A terminal sale's or a check's answer as the counter shows it, with the clerk record
 * written so the receipt and the list name the cashier. ACH is never approved at once (131
 * pending origination): accepted counts as paid here.
 */
import type { SaleOutcome, Session } from '../../../shared/ipc/contract';
import type { V2Transaction } from '../../client/v2-types';
import type { ClerkRecords } from '../sales/clerk-records';
import { toView } from '../transactions/transaction-view';

export const outcomeOf = (t: V2Transaction): SaleOutcome => {
  const view = toView(t);
  return { approved: view.state === 'approved' || view.state === 'pending', message: view.message, transaction: view };
};

/** The outcome with the clerk record written: the receipt and the list name the cashier. */
export const madeBy = (clerks: ClerkRecords, o: SaleOutcome, session: Session): SaleOutcome => ({ ...o, transaction: clerks.saleBy(o.transaction, session) });
