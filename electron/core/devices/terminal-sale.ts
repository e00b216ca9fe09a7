/**
 * `devices:terminal-sale`: a card-present sale. It goes to the gateway's POST
 * /v2/routertransactions, which drives the terminal through the same driver (electron/devices)
 * and stores the sale; while the request is open the core polls the terminal's live state
 * (Ringup extension GET /v2/terminals/{id}/state) and pushes `terminal:state`.
 *
 * The store's guards are checked before the terminal is woken, the reference is the core's and
 * bound to the amount (tender-refs.ts), and the sale is on disk with its cashier before it
 * leaves (lost-payments.ts). What the terminal charged is checked against what was asked: a
 * charge that is not the one asked is voided and recorded as a device fault (terminal-faults.ts).
 * While the gateway cannot be reached the core reads the card itself and queues the sale
 * (offline-terminal-sale.ts).
 */
import type { GuardSettings } from '../../../shared/amount-guards';
import type { HandlerArg, SaleOutcome, Session, TerminalScreenState } from '../../../shared/ipc/contract';
import { formatMoney } from '../../../shared/payments/money';
import { tipPercentsOf } from '../../../shared/payments/terminal-timeouts';
import { terminalTipRequest, type TerminalTipRequest, type TipRules } from '../../../shared/payments/tip-suggestions';
import { fail, ok, type Result } from '../../../shared/result';
import { GatewayError, type GatewayClient } from '../../client/gateway-client';
import type { V2Transaction } from '../../client/v2-types';
import { DEVICE_MSG } from '../../devices/device-messages';
import { approvalMismatch, TERMINAL_ANSWER_KEY } from '../../devices/terminal-answer';
import { TERMINAL_CERTIFICATE_KEY } from '../../devices/terminal-tls';
import type { AuditLog } from '../audit/audit-log';
import type { UserDirectory } from '../auth/users';
import type { TenderRefs } from '../cart/tender-refs';
import type { CoreEvents } from '../platform/events';
import type { OfflineTerminal } from '../queue/offline-terminal-sale';
import { refuseAmount } from '../sales/amount-refusal';
import { clerkNumberOf, type ClerkRecords } from '../sales/clerk-records';
import { failureOf, type LostPayments } from '../sales/lost-payments';
import type { CounterTerminal } from './counter-terminal';
import { deviceCall } from './device-call';
import { DEVICE_ERRORS } from './device-errors';
import { madeBy, outcomeOf } from './device-outcome';
import { locQuery, parseJson, pinnedOf, type Row } from './device-rows';
import { askOf, deviceFault, FAULT_WORDS, faultSentence } from './terminal-faults';

type TerminalSaleArgs = HandlerArg<'devices:terminal-sale'>;

export interface TerminalSaleDeps {
  client: GatewayClient;
  /** Same gateway with a timeout longer than any terminal's overall_timeout (300 s). */
  routerClient: GatewayClient;
  /** Voids a charge the register did not agree to: the core's own credentials, since a cashier's may only sell. */
  reverseClient: GatewayClient;
  users: UserDirectory;
  events: CoreEvents;
  locationId: string | undefined;
  /** The store's amount guards (hard cap, confirmation threshold, tip share), read on every payment. */
  guards: () => GuardSettings;
  /** The store's tip base and smart tips (issue 21): what a terminal that asks for the tip offers. */
  tipRules: () => TipRules;
  clerks: ClerkRecords;
  statePollMs?: number;
  offline?: OfflineTerminal;
  audit?: AuditLog;
  refs: TenderRefs;
  lost: LostPayments;
  terminal: CounterTerminal;
}

export async function terminalSale(deps: TerminalSaleDeps, args: TerminalSaleArgs): Promise<Result<SaleOutcome>> {
  const { terminal } = deps;
  const s = deps.users.require();
  if (!s.ok) return s;
  // The store's guards before the terminal is woken. A tip the customer picks on the terminal
  // (tipCents null) is not known yet: the guards see the amount before it.
  const tipCents = args.tipCents ?? 0;
  const refused = refuseAmount(deps.guards(), { subtotalCents: args.subtotalCents, tipCents, totalCents: args.subtotalCents + args.taxCents + tipCents }, args);
  if (refused) return refused;
  if (terminal.saleRunning || terminal.sale) return fail('busy', DEVICE_ERRORS.terminalBusy);
  // The core's reference, bound to this amount on the terminal before the terminal is woken (tender-refs.ts).
  const tender = { amountCents: args.subtotalCents + args.taxCents, tipCents: args.tipCents, method: 'cc', action: 'sale', instrument: 'terminal' } as const;
  const handed = deps.refs.handedDown(tender);
  if (!handed.ok) return handed;
  const made = handed.value !== null ? { ok: true as const, value: handed.value } : deps.refs.refFor(s.value, { scope: 'sale', attempt: args.clientRef, ...tender });
  if (!made.ok) {
    // This screen's own retry of a sale the core found after its answer was lost: that answer, once (lost-payments.ts).
    const again = made.error.code === 'already_answered' ? await deps.lost.answerForRetry(s.value, { scope: 'sale', attempt: args.clientRef, ...tender }) : null;
    return again ? ok(madeBy(deps.clerks, outcomeOf(again.transaction), s.value)) : made;
  }
  const ref = made.value;
  args = { ...args, clientRef: ref }; // the offline read queues it under the same reference
  const mine = { ref, terminalId: null as string | null, cancelled: false };
  terminal.sale = mine;
  return deviceCall(async () => {
    let t: Row | undefined;
    try {
      t = await terminal.current();
    } catch (e) {
      // Nothing was sent to the gateway yet: any missing answer may go offline.
      if (deps.offline && e instanceof GatewayError && e.status === 0) return sellOffline(deps, args, s.value);
      throw e;
    }
    if (!t) return fail('no_terminal', DEVICE_ERRORS.noTerminal);
    const terminalId = String(t.id);
    mine.terminalId = terminalId;
    // Cancel pressed before the request left: the terminal is never asked.
    if (mine.cancelled) return fail('terminal', DEVICE_MSG.CANCELLED);
    terminal.saleRunning = true;
    void terminal.refresh();
    let last = '';
    const poll = setInterval(() => {
      deps.client
        .request<{ terminalstate: { state: TerminalScreenState; prompt: string } }>('GET', `/terminals/${terminalId}/state`)
        .then(({ terminalstate: st }) => {
          const key = `${st.state}|${st.prompt}`;
          if (key !== last) {
            last = key;
            deps.events.emit('terminal:state', { terminalId, state: st.state, prompt: st.prompt });
          }
        })
        .catch(() => undefined);
    }, deps.statePollMs ?? 200);
    // On disk with its cashier before it leaves: a lost answer is resumed after a restart too (lost-payments.ts).
    deps.lost.sending(ref, { way: 'terminal', session: s.value, amountCents: args.subtotalCents + args.taxCents + (args.tipCents ?? 0) });
    // A tip the customer picks on the terminal: on the store's tip base, or smart tips' flat amounts (issue 21).
    const told: Partial<TerminalTipRequest> = args.tipCents === null ? terminalTipRequest(args.subtotalCents, args.taxCents, deps.tipRules()) : {};
    let r: { routertransaction: V2Transaction } | undefined;
    try {
      r = await deps.routerClient.request<{ routertransaction: V2Transaction }>('POST', '/routertransactions', {
        routertransaction: {
          action: 'sale',
          payment_method: 'cc',
          ...locQuery(deps.locationId),
          terminal_id: terminalId,
          transaction_amount: formatMoney(args.subtotalCents + args.taxCents),
          ...(args.taxCents > 0 ? { tax: formatMoney(args.taxCents) } : {}),
          ...(args.tipCents !== null ? { tip_amount: formatMoney(args.tipCents) } : {}),
          ...(told.tipBaseCents !== undefined ? { tip_base_amount: formatMoney(told.tipBaseCents) } : {}),
          ...(told.tipAmountsCents ? { tip_amounts: told.tipAmountsCents.map(formatMoney) } : {}),
          transaction_api_id: ref,
          clerk_number: clerkNumberOf(s.value.user.id),
        },
      });
    } catch (e) {
      const failure = failureOf(e);
      if (failure === 'lost') {
        // The answer was lost: the terminal may have been used and the card charged. Never asked again by
        // itself (the customer would be asked twice); the core looks it up until it is known.
        const found = await deps.lost.lostThenLookup(ref, s.value);
        if (!found) return fail('outcome_unknown', DEVICE_ERRORS.outcomeUnknown);
        return found.kind === 'refused' ? found.result : ok(madeBy(deps.clerks, outcomeOf(found.transaction), s.value));
      }
      deps.lost.answered(ref); // refused, or never left: nothing is unknown
      // A TLS terminal that is not the one set up (another certificate, or no TLS): nothing was sent to it.
      const presented = e instanceof GatewayError ? e.errors[TERMINAL_CERTIFICATE_KEY]?.[0] : undefined;
      if (presented !== undefined) {
        const sentence = (e as GatewayError).errors.terminal_id?.[0] ?? DEVICE_MSG.CERT_MISMATCH;
        return deviceFault(deps.audit, { session: s.value, sentence, raw: `certificate presented: ${presented}; pinned: ${pinnedOf(t)}`, clientRef: args.clientRef });
      }
      // The engine refused the terminal's answer (router-module.ts): a device fault, nothing charged.
      const raw = e instanceof GatewayError ? e.errors[TERMINAL_ANSWER_KEY]?.[0] : undefined;
      if (raw !== undefined) {
        const said = (e as GatewayError).errors.terminal_id?.[0] ?? '';
        const sentence = said.startsWith(DEVICE_MSG.FAULT) ? said : faultSentence(said || null, null);
        return deviceFault(deps.audit, { session: s.value, sentence, raw, clientRef: args.clientRef });
      }
      // Refused at connect: the request never left, the terminal was never asked — the sale may go offline (below, once idle).
      if (!(deps.offline && failure === 'unreachable')) throw e;
    } finally {
      clearInterval(poll);
      terminal.saleRunning = false;
      deps.events.emit('terminal:state', { terminalId, state: 'idle', prompt: '' });
      void terminal.refresh();
    }
    if (!r) return sellOffline(deps, args, s.value);
    // Ours at all (issue 20, point 2: the answer carries this tender's reference and matches its binding)
    // before the register's own rules on what was charged (point 1), so another sale's record is never voided here.
    return deps.lost.counted(ref, r.routertransaction, s.value, async (charged) => {
      const outcome = outcomeOf(charged);
      // The register decides the amount (issue 20, point 1): what was charged is checked against what was asked.
      const refused = outcome.approved ? await refuseMismatch(deps, outcome, args, tipPercentsOf(parseJson(t.tip_percents)), told, s.value) : null;
      return refused ?? ok(madeBy(deps.clerks, outcome, s.value));
    });
  }).finally(() => {
    if (terminal.sale === mine) terminal.sale = null;
  });
}

/**
 * A charge that is not the one asked (the amount plus a tip within the store's share when the
 * terminal could ask, within the hard cap): voided at the gateway, recorded as a device fault,
 * refused in words; null when it is the one asked. The requested total is checked, not the
 * approved one: a partial approval is the processor's word, not the terminal's.
 */
async function refuseMismatch(deps: TerminalSaleDeps, outcome: SaleOutcome, args: TerminalSaleArgs, tipPercents: readonly number[] | null, told: Partial<TerminalTipRequest>, session: Session): Promise<Result<never> | null> {
  const v = outcome.transaction;
  const mismatch = approvalMismatch(askOf(args.subtotalCents + args.taxCents, args.tipCents, tipPercents, deps.guards(), told), { approvedCents: v.requestedCents, tipCents: v.tipCents });
  if (!mismatch) return null;
  let reversed = false;
  try {
    reversed = Number((await deps.reverseClient.voidTransaction(v.id)).status_id) === 201;
  } catch {
    // Said below: the charge is to be reversed by hand.
  }
  const sentence = faultSentence(mismatch.message, reversed ? FAULT_WORDS.reversed : FAULT_WORDS.notReversed);
  const raw = `charged ${v.requestedCents} (tip ${v.tipCents}) as transaction ${v.id}`;
  return deviceFault(deps.audit, { session, sentence, raw, amountCents: v.requestedCents, transactionId: v.id, clientRef: args.clientRef });
}

/** The terminal sale read by the core itself and queued (offline-terminal-sale.ts); the terminal shows busy meanwhile. */
async function sellOffline(deps: TerminalSaleDeps, args: TerminalSaleArgs, session: Session): Promise<Result<SaleOutcome>> {
  const { terminal } = deps;
  const off = deps.offline!;
  const terminalId = off.known()?.id ?? '';
  terminal.saleRunning = true;
  void terminal.refresh();
  try {
    return await off.sell(args, session);
  } finally {
    terminal.saleRunning = false;
    deps.events.emit('terminal:state', { terminalId, state: 'idle', prompt: '' });
    void terminal.refresh();
  }
}
