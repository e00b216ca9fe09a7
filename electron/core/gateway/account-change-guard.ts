/**
 * A change of gateway account waits while money of the account in use is still open
 * (issue 11, point 4): sales approved offline and not yet sent carry that account's
 * location and product, and an open sale's card payments are that account's transactions;
 * after a change the queue would send them to a gateway that does not know them and
 * "Cancel sale" would void ids it never made; and a payment whose answer was lost can be looked
 * up only at the gateway that has it (issue 20, point 3). Save on the Gateway screen, an OAuth sign-in
 * and Sign out of the gateway are refused with a sentence until they are sent, finished or
 * cancelled. The same account (the gateway in use, or a new key of the same user) is no
 * change. Simplification: an OAuth sign-in to the same gateway could be the same user; it is
 * refused at its start (the user is known only after the browser) and checked again at its end.
 */
import type { PosDatabase } from '../platform/pos-database';

const sales = (n: number) => (n === 1 ? '1 sale' : `${n} sales`);

export const ACCOUNT_CHANGE_MESSAGES = {
  pendingOffline: (n: number) =>
    `${sales(n)} taken offline still ${n === 1 ? 'waits' : 'wait'} to be sent to the gateway in use. Send ${n === 1 ? 'it' : 'them'} first (Manage, Offline queue), then change the gateway.`,
  openCardSales: (n: number) =>
    `${n === 1 ? 'An open sale holds a card payment' : `${n} open sales hold card payments`} of the gateway in use. Finish or cancel ${n === 1 ? 'it' : 'them'} first, then change the gateway.`,
  /** Issue 20, point 3: only the gateway in use can say what became of a payment whose answer was lost. */
  unknownPayments: (n: number) =>
    `${n === 1 ? 'A payment whose answer was lost is' : `${n} payments whose answer was lost are`} still being checked with the gateway in use. Wait until the note on top of the screen says what became of ${n === 1 ? 'it' : 'them'}, then change the gateway.`,
} as const;

/** Where a change would take the counter: a gateway kind, and what is known of its account. */
export interface AccountTarget {
  kind: 'embedded' | 'remote';
  baseUrl?: string;
  /** Unknown at the start of an OAuth sign-in. */
  userId?: string;
}

export interface RunningAccount {
  mode: 'embedded' | 'remote';
  baseUrl: string;
  userId: string;
}

const trimmed = (url: string) => url.replace(/\/+$/, '');

/** The embedded engine is one account whichever way it is signed in to; a remote one is its address and user. */
export function isSameAccount(running: RunningAccount, target: AccountTarget): boolean {
  if (target.kind !== running.mode) return false;
  if (target.kind === 'embedded') return true;
  return target.baseUrl !== undefined && trimmed(target.baseUrl) === trimmed(running.baseUrl) && target.userId === running.userId;
}

/** Open (or cancelling) carts holding a card payment that is approved or still in flight. */
export function openCardSales(db: PosDatabase): number {
  const row = db
    .prepare(
      `SELECT COUNT(DISTINCT c.id) AS n FROM carts c JOIN cart_tenders t ON t.cart_id = c.id
        WHERE c.status IN ('open', 'cancelling') AND t.kind <> 'cash' AND t.status IN ('pending', 'approved')`,
    )
    .get() as { n: number };
  return row.n;
}

/** Payments whose answer was lost and whose outcome is not known yet (lost-payments.ts). */
export function unknownPayments(db: PosDatabase): number {
  return (db.prepare("SELECT COUNT(*) AS n FROM lost_payments WHERE state IN ('sent', 'lost')").get() as { n: number }).n;
}

/** The sentence that refuses a change to `target` now, or null when it may go ahead. */
export function accountChangeRefusal(o: { db: PosDatabase; running: RunningAccount; target: AccountTarget; pendingOffline: number }): string | null {
  if (isSameAccount(o.running, o.target)) return null;
  const sentences: string[] = [];
  if (o.pendingOffline > 0) sentences.push(ACCOUNT_CHANGE_MESSAGES.pendingOffline(o.pendingOffline));
  const cards = openCardSales(o.db);
  if (cards > 0) sentences.push(ACCOUNT_CHANGE_MESSAGES.openCardSales(cards));
  const unknown = unknownPayments(o.db);
  if (unknown > 0) sentences.push(ACCOUNT_CHANGE_MESSAGES.unknownPayments(unknown));
  return sentences.length > 0 ? sentences.join(' ') : null;
}
