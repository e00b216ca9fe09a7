/**
 * Which of a gateway's records are this register's own, for its X and Z (issue 24): on the
 * store's shared gateway (`--engine`, store-gateway.ts) the gateway's list for a period holds
 * every register's sales and refunds, and each register's report counting all of them would
 * count the store's card money once per register. The register's own record of what it did is
 * its clerk records (clerk-records.ts): every sale it takes — keyed, saved card, terminal, check,
 * a cart's card tender, an offline sale once forwarded, a payment found after its answer was
 * lost — records its transaction id as a 'sale'; every refund as a 'refund'; every void, under
 * the voided record's id, as a 'void'.
 *
 * - A record created in the period is this register's when it made it: a 'sale' or 'refund'
 *   record of that id. A sale voided on another register stays with the register that took it
 *   (and counts there as voided: nothing), so the registers' reports add up to the gateway's.
 * - A void made in the period of an earlier day's record is taken back by the register that
 *   voided it (its 'void' record), as a refund is counted by the register that made it.
 *
 * Simplifications: records no register made — a recurring plan's charges, a pay link paid online
 * — are in no register's X or Z on a shared gateway (the store's report checks the store's card
 * tenders against the whole gateway, so they show there as a difference); the clerk records are
 * cleared when the register moves to another gateway account (account-records.ts), so a report
 * reaching back before such a move counts none of the older records.
 */
import type { V2Transaction } from '../../client/v2-types';
import type { PosDatabase } from '../platform/pos-database';
import { ClerkRecords, type ClerkAction } from '../sales/clerk-records';

export interface OwnTransactions {
  /** The records this register made (its sales and refunds). */
  made: (list: readonly V2Transaction[]) => V2Transaction[];
  /** The voided records this register voided. */
  voided: (list: readonly V2Transaction[]) => V2Transaction[];
}

/** Every record kept: a register on its own gateway, whose records are all its own. */
export const ALL_TRANSACTIONS: OwnTransactions = { made: (list) => [...list], voided: (list) => [...list] };

export function ownTransactions(db: PosDatabase): OwnTransactions {
  const clerks = new ClerkRecords(db);
  const having = (actions: readonly ClerkAction[]) => (list: readonly V2Transaction[]) => {
    const records = clerks.ofMany(list.map((t) => t.id));
    return list.filter((t) => records.get(t.id)?.some((r) => actions.includes(r.action)));
  };
  return { made: having(['sale', 'refund']), voided: having(['void']) };
}
