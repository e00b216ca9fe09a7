/**
 * What the counter does with a terminal answer it does not accept (issue 20, point 1): the
 * register decides the amount, the terminal only approves it. Every way a terminal pays (the
 * direct sale and the cart's terminal tender in devices.ts, the offline sale in
 * offline-terminal-sale.ts, the forward of a queued read in offline-forwarder.ts) checks the
 * answer against what it asked (terminal-answer.ts approvalMismatch, with the store's tip share
 * and hard cap), reverses a charge that happened, records a device fault in the audit log with
 * the terminal's answer masked, and shows one sentence starting with DEVICE_MSG.FAULT.
 */
import type { Session } from '../../../shared/ipc/contract';
import type { GuardSettings } from '../../../shared/amount-guards';
import type { TerminalTipRequest, TipRules } from '../../../shared/payments/tip-suggestions';
import { maskCardNumbersInText } from '../../../shared/payments/masking';
import { fail, type Result } from '../../../shared/result';
import { DEVICE_MSG } from '../../devices/device-messages';
import { approvalMismatch, storeTipLimitCents, type ApprovalAsk } from '../../devices/terminal-answer';
import type { AuditLog } from '../audit/audit-log';
import { isTerminalRead, type DueSale, type QueuedCard } from '../queue/offline-queue';

export const FAULT_WORDS = {
  reversed: 'The charge was reversed.',
  notReversed: 'The charge could not be reversed: check it in Transactions (or on the terminal) before the batch closes.',
  notSent: 'It was not sent to the gateway.',
} as const;

/**
 * What the register asked of the terminal, with the store's limits (tip share, hard cap). A tip the
 * customer picked on the terminal is at most the store's share of the amount, or, when the terminal
 * was told smart tips' flat amounts (issue 21), the largest of them (the merchant's own amounts,
 * whatever their share of a small sale). The share is of the whole amount, not of the tip base the
 * terminal was told: a gateway that does not know Ringup's tip_base_amount takes the whole amount,
 * and its terminal's tip is still the one the store allows (the engine checks the base exactly).
 */
export function askOf(amountCents: number, counterTipCents: number | null, terminalTipPercents: readonly number[] | null, guards: GuardSettings, told: Pick<TerminalTipRequest, 'tipAmountsCents'>): ApprovalAsk {
  const terminalMax = (): number => {
    if (!terminalTipPercents || terminalTipPercents.length === 0) return 0;
    return told.tipAmountsCents ? Math.max(...told.tipAmountsCents) : storeTipLimitCents(amountCents, terminalTipPercents, guards.tipConfirmPercent);
  };
  return {
    amountCents,
    tipCents: counterTipCents ?? undefined,
    maxTipCents: counterTipCents === null ? terminalMax() : counterTipCents,
    capCents: guards.hardCapCents,
  };
}

/** The sentence shown: the fault, what was wrong (when known), what became of a charge. */
export function faultSentence(what: string | null, after: string | null): string {
  return [DEVICE_MSG.FAULT, what, after].filter(Boolean).join(' ');
}

export interface FaultRecord {
  session: Session | null;
  sentence: string;
  /** The terminal's answer (masked again here: nothing unmasked reaches the log). */
  raw: string;
  amountCents?: number | null;
  transactionId?: string | null;
  clientRef: string;
}

/** Records the device fault (when an audit log is at hand) and answers the refusal. */
export function deviceFault(audit: AuditLog | undefined, r: FaultRecord): Result<never> {
  audit?.record({
    kind: 'device-fault',
    user: r.session ? { id: r.session.user.id, name: r.session.user.name } : null,
    amountCents: r.amountCents ?? null,
    transactionId: r.transactionId ?? null,
    detail: maskCardNumbersInText(`${r.sentence} Sale ${r.clientRef}. Terminal answer: ${r.raw}`.slice(0, 2000)),
  });
  return fail('device_fault', r.sentence);
}

/**
 * The forwarder's second look at a queued terminal read (offline-forwarder.ts `refuse`): its
 * total within the hard cap and its tip within the store's share of the amount before it (or a smart
 * tip's flat amount, when the store offers them). A keyed
 * sale's tip was confirmed at the counter and is not checked here. A refusal is recorded as a
 * device fault (nobody signed in need be there: forwarding runs by itself).
 */
export function queuedReadRefusal(audit: AuditLog | undefined, guards: () => GuardSettings & Pick<TipRules, 'smartTips'>): (sale: DueSale, card: QueuedCard) => string | null {
  return (sale, card) => {
    if (!isTerminalRead(card)) return null;
    const g = guards();
    const before = sale.amountCents - sale.tipCents;
    // The store's share, or a smart tip's flat amount the terminal may have offered (issue 21).
    const flatMax = g.smartTips.enabled ? Math.max(...g.smartTips.amountsCents) : 0;
    const ask: ApprovalAsk = { amountCents: before, tipCents: undefined, maxTipCents: Math.max(0, Math.ceil((before * g.tipConfirmPercent) / 100), flatMax), capCents: g.hardCapCents };
    const mismatch = before < 0 ? { message: 'The queued tip is larger than the sale.' } : approvalMismatch(ask, { approvedCents: sale.amountCents, tipCents: sale.tipCents });
    if (!mismatch) return null;
    const sentence = faultSentence(mismatch.message, FAULT_WORDS.notSent);
    deviceFault(audit, { session: null, sentence, raw: `queued ${sale.amountCents} (tip ${sale.tipCents}, tax ${sale.taxCents})`, amountCents: sale.amountCents, clientRef: sale.clientRef });
    return sentence;
  };
}
