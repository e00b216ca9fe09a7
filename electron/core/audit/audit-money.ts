/**
 * Records the money actions in the audit log by wrapping the handler map (a
 * decorator), so the sales, devices and vault code stays unaware of the audit log:
 * every successful result of a channel that takes money (the keyed sale, the terminal,
 * a check, a saved card — the cart's card tenders go through these same channels) or
 * gives it back (refund, void, the cashier's void of a partial approval) is written with
 * the caller who asked for it (a refund or void a manager approved with their PIN names them too). A declined sale or refund is a successful call too, and is
 * recorded as declined; a refused call (signed out, not a manager, bad input, an amount
 * not confirmed) changes no money and is not.
 */
import type { HandlerMap, SaleOutcome, Session, TransactionView } from '../../../shared/ipc/contract';
import type { Result } from '../../../shared/result';
import type { AuditLog, AuditRecord } from './audit-log';
import { tipAdjustDetail } from '../transactions/tip-adjust';

type Recorder<C extends keyof HandlerMap> = (
  value: Extract<Awaited<ReturnType<HandlerMap[C]>>, { ok: true }>['value'],
  caller: Session | null,
) => Omit<AuditRecord, 'user'>;

const outcome = (approved: boolean, message: string) => (approved ? 'approved' : `declined: ${message}`);

const sale = (v: SaleOutcome): Omit<AuditRecord, 'user'> => ({
  kind: 'sale',
  amountCents: v.transaction.amountCents,
  transactionId: v.transaction.id,
  // A check or a bank account is taken, not yet collected.
  detail: v.transaction.state === 'pending' ? 'accepted; the bank transfer is pending' : outcome(v.approved, v.message),
});
/** The step ran as another user than the caller: the manager who approved it with their PIN at the caller's counter. */
const approvedBy = (doneBy: string | null, caller: Session | null) => (doneBy && caller && doneBy !== caller.user.name ? `, approved by ${doneBy} with their PIN` : '');
const voided = (v: TransactionView): Omit<AuditRecord, 'user'> => ({ kind: 'void', amountCents: v.amountCents, transactionId: v.id, detail: 'voided before settlement' });

type Audited = 'sale:charge' | 'devices:terminal-sale' | 'devices:check-pay' | 'vault:charge' | 'transactions:refund' | 'transactions:void' | 'transactions:adjust-tip' | 'sale:void-partial';

const RECORDERS: { [C in Audited]: Recorder<C> } = {
  'sale:charge': sale,
  'devices:terminal-sale': sale,
  'devices:check-pay': sale,
  'vault:charge': sale,
  'transactions:refund': (v, caller) => ({
    kind: 'refund',
    amountCents: v.refund.amountCents,
    transactionId: v.refund.id,
    detail: `${outcome(v.approved, v.message)}; refund of sale ${v.original.id}${approvedBy(v.refund.clerkName, caller)}`,
  }),
  // A cashier's void a manager approved with their PIN (issue 21, point 12): the void is the manager's (its clerk record).
  'transactions:void': (v, caller) => {
    const line = voided(v);
    return { ...line, detail: `${line.detail}${approvedBy(v.voidedBy, caller)}` };
  },
  // Issue 21, point 10b: the tip from the signed slip; a cashier's lowered tip names the manager who approved it.
  'transactions:adjust-tip': (v, caller) => ({
    kind: 'tip-adjust',
    amountCents: v.transaction.tipCents,
    transactionId: v.transaction.id,
    detail: `${tipAdjustDetail(v.previousTipCents, v.transaction)}${approvedBy(v.adjustedBy, caller)}`,
  }),
  // A paid cart's card voided with a manager's PIN at a cashier's counter (issue 20): the void is the manager's (its clerk record).
  'sale:void-partial': (v, caller) => ({
    ...voided(v),
    detail: approvedBy(v.voidedBy, caller) ? `card payment of a paid sale voided (a return)${approvedBy(v.voidedBy, caller)}` : 'partial approval voided at the counter to start over',
  }),
};

export function withMoneyAudit(handlers: HandlerMap, audit: AuditLog, whoIsCalling: () => Session | null): HandlerMap {
  const wrapped: Record<string, unknown> = { ...handlers };
  for (const channel of Object.keys(RECORDERS) as Array<keyof typeof RECORDERS>) {
    const inner = handlers[channel] as (arg: unknown) => Promise<Result<unknown>>;
    const record = RECORDERS[channel] as (v: unknown, caller: Session | null) => Omit<AuditRecord, 'user'>;
    wrapped[channel] = async (arg: unknown) => {
      // Who is asked before the call: the session is the caller's, and an idle lock
      // during a slow charge must not lose the name of who charged.
      const who = whoIsCalling();
      const r = await inner(arg);
      if (r.ok) audit.record({ ...record(r.value, who), user: who ? { id: who.user.id, name: who.user.name } : null });
      return r;
    };
  }
  return wrapped as HandlerMap;
}
