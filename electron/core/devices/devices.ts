/**
 * The counter's devices (issue 12): the EMV terminal and the check scanner.
 *
 * - A card-present sale goes to the gateway's POST /v2/routertransactions, which drives the
 *   terminal through the same driver (electron/devices) and stores the sale; while the
 *   request is open the core polls the terminal's live state (Ringup extension GET
 *   /v2/terminals/{id}/state) and pushes `terminal:state`; Cancel posts .../cancel naming
 *   the sale (its transaction_api_id), so it also ends a sale that has not reached the
 *   terminal yet.
 * - The installer's connection test of a saved terminal at its saved address goes through
 *   the gateway (POST /v2/terminals/{id}/initialize, which records last_registration_ts).
 * - The core talks to devices directly where no transaction is stored: the connection test
 *   of an address not saved yet (A00 initialize) and the check scanner (serial MICR reader).
 * - A scanned check pays by ACH (debit, SEC code POP, check_number and micr_data) through
 *   the normal transaction path.
 * - Terminal status (none / connected / busy / offline) is re-checked every 10 s with a
 *   plain TCP connect (or the serial path existing), never a protocol frame, so it cannot
 *   collide with a transaction; busy comes from the gateway's live state.
 * Installer screens need the installer or manager role (checked here).
 * Simplification: the counter uses the location's first active terminal that has an
 * address, and its first active scanner with a serial path.
 */
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import type { HandlerMap, Role, ScannedCheck, SaleOutcome, Session, TerminalRecord, TerminalStatus, TerminalScreenState, TerminalTestResult, DeviceChoice, ScannerRecord } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import { formatMoney } from '../../../shared/payments/money';
import { effectiveTimeouts, tipPercentsOf } from '../../../shared/payments/terminal-timeouts';
import { GatewayError, type GatewayClient } from '../../client/gateway-client';
import type { V2AccountVault, V2Transaction, V2TransactionCreate } from '../../client/v2-types';
import { CheckScannerDriver } from '../../devices/check-scanner';
import { openLink, openSerialLink, type DeviceAddress } from '../../devices/device-link';
import { deviceAddressRefusal, devicePlacesFromEnv, type DevicePlaces } from '../../devices/device-places';
import { terminalRowAddress } from '../../devices/terminal-address';
import { presentedFingerprint, TERMINAL_CERTIFICATE_KEY } from '../../devices/terminal-tls';
import { DEVICE_MSG, DeviceError } from '../../devices/device-messages';
import { TerminalDriver } from '../../devices/terminal-driver';
import type { GuardSettings } from '../../../shared/amount-guards';
import { terminalTipRequest, type TerminalTipRequest, type TipRules } from '../../../shared/payments/tip-suggestions';
import { serialMismatchOf, termsTextRefusal } from '../../../shared/ipc/devices';
import { refuseAmount } from '../sales/amount-refusal';
import { clerkNumberOf, type ClerkRecords } from '../sales/clerk-records';
import type { CoreEvents } from '../platform/events';
import type { KnownTerminal, OfflineTerminal } from '../queue/offline-terminal-sale';
import { gatewayFailure } from '../gateway/gateway-messages';
import type { AuditLog } from '../audit/audit-log';
import { askOf, deviceFault, FAULT_WORDS, faultSentence } from './terminal-faults';
import { approvalMismatch, TERMINAL_ANSWER_KEY } from '../../devices/terminal-answer';
import type { TenderRefs } from '../cart/tender-refs';
import { failureOf, type LostPayments } from '../sales/lost-payments';
import { toView } from '../transactions/transaction-view';
import { AUTH_ERRORS, type UserDirectory } from '../auth/users';

export const DEVICE_ERRORS = {
  installerOnly: 'Only an installer or a manager can set up devices.',
  counterOnly: AUTH_ERRORS.counterOnly,
  noTerminal: 'No payment terminal is set up. Key the card, or ask an installer to add a terminal.',
  noScanner: 'No check scanner is set up. Ask an installer to add one.',
  scannerBusy: 'The check scanner is already reading a check.',
  terminalBusy: 'The terminal is busy with another sale.',
  checkPending: 'The check was accepted. The bank transfer is on its way (pending); offer the customer a receipt.',
  /** Issue 20, point 3: the answer was lost; the banner at the top says what became of it. */
  outcomeUnknown: 'The payment gateway did not answer. Checking whether the card was charged — do not charge it again; the note at the top of the screen says once it is known.',
  checkOutcomeUnknown: 'The payment gateway did not answer. Checking whether the check was taken — do not take it again; the note at the top of the screen says once it is known.',
} as const;

type DeviceHandlers = Pick<HandlerMap, Extract<keyof HandlerMap, `devices:${string}`>>;

export interface DevicesDeps {
  client: GatewayClient;
  /** Same gateway with a timeout longer than any terminal's overall_timeout (300 s). */
  routerClient: GatewayClient;
  users: UserDirectory;
  events: CoreEvents;
  locationId: string | undefined;
  /** The store's amount guards (hard cap, confirmation threshold, tip share), read on every payment. */
  guards: () => GuardSettings;
  /** The store's tip base and smart tips (issue 21): what a terminal that asks for the tip offers. */
  tipRules: () => TipRules;
  /** Who took which payment (the app's clerk records, shared with sales.ts). */
  clerks: ClerkRecords;
  statusIntervalMs?: number;
  statePollMs?: number;
  /** Card-present sales while the gateway cannot be reached (issue 13, offline-terminal-sale.ts). */
  offline?: OfflineTerminal;
  /** Which terminal ports and serial paths devices may use (device-places.ts); default: the environment's. */
  places?: DevicePlaces;
  /** Where device faults are recorded (issue 20, point 1; terminal-faults.ts). */
  audit?: AuditLog;
  /**
   * Voids a charge the register did not agree to (a terminal's answer that does not match the
   * sale): the core's own credentials, since a cashier's may only sell. Default: `client`.
   */
  reverseClient?: GatewayClient;
  /** Makes and binds every transaction_api_id (issue 20, point 2): the screen's clientRef is only an attempt id. */
  refs: TenderRefs;
  /** Payments whose answer is not known, on disk with their cashier before they leave (issue 20, point 3). */
  lost: LostPayments;
}

type Row = Record<string, unknown>;
const INSTALLER_ROLES: readonly Role[] = ['installer', 'manager'];

function parseJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return null;
  }
}

const addressOf = terminalRowAddress;

/** The fingerprint a terminal row pins (for the device-fault record), or "none". */
function pinnedOf(t: Row): string {
  const a = addressOf(t);
  return a?.kind === 'tcp' && a.tls ? a.tls.fingerprint || 'none' : 'none';
}

function tcpReachable(host: string, port: number, timeoutMs = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    const done = (v: boolean) => {
      s.destroy();
      resolve(v);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

function deviceFailure(e: unknown): Result<never> {
  if (e instanceof DeviceError) return fail(`device_${e.code}`, e.message);
  throw e;
}

/** A terminal row as the counter needs it to drive the terminal without the gateway. */
function knownOf(t: Row): KnownTerminal {
  return {
    id: String(t.id),
    title: String(t.title || t.serial_number),
    address: addressOf(t) as DeviceAddress,
    settings: { timeouts: effectiveTimeouts(parseJson(t.terminal_timeouts)), tipPercents: tipPercentsOf(parseJson(t.tip_percents)) },
  };
}

export interface DevicesExtras {
  close(): void;
  refreshStatus(): Promise<TerminalStatus>;
  /**
   * Reads a card on the counter's terminal and saves it for a customer (POST /v2/routeraccountvaults):
   * the terminal never gives the number out, so the vault holds the gateway's token of the read.
   * The caller checks the role; this keeps the terminal busy like a sale does.
   */
  storeCardOnTerminal(contactId: string): Promise<Result<V2AccountVault>>;
}

export function createDevicesHandlers(deps: DevicesDeps): DeviceHandlers & DevicesExtras {
  const { client, routerClient, users, events } = deps;
  const places = deps.places ?? devicePlacesFromEnv(process.env);
  /** An address the installer typed, refused in words before it is saved, tested or opened (issue 20, point 6). */
  const refuseAddress = async (a: DeviceAddress): Promise<Result<never> | null> => {
    const why = await deviceAddressRefusal(a, places);
    return why ? fail('device_place', why) : null;
  };
  let status: TerminalStatus = { connection: 'none', terminalId: null, title: null, tipPercents: null };
  let saleRunning = false;
  /** The counter's terminal sale under way, so Cancel reaches it even before it reached the terminal. */
  let sale: { ref: string; terminalId: string | null; cancelled: boolean } | null = null;
  let scanRunning = false;

  const requireInstaller = (): Result<null> => {
    const s = users.require();
    if (!s.ok) return s;
    return INSTALLER_ROLES.includes(s.value.user.role) ? ok(null) : fail('forbidden', DEVICE_ERRORS.installerOnly);
  };

  const requireCounter = () => users.requireCounter();

  const locQuery = () => (deps.locationId ? { location_id: deps.locationId } : {});

  async function terminalRows(): Promise<Row[]> {
    const r = await client.request<{ terminals: Row[] }>('GET', '/terminals', undefined, { ...locQuery(), page_size: 100, sort: 'created_ts', expand: 'terminal_application,terminal_manufacturer' });
    return r.terminals ?? [];
  }

  async function counterTerminal(): Promise<Row | undefined> {
    const t = (await terminalRows()).find((x) => (x.active === true || x.active === 1) && addressOf(x) !== null);
    // ── Offline store-and-forward (issue 13): the counter keeps its terminal for when the gateway is away.
    deps.offline?.remember(t ? knownOf(t) : null);
    return t;
  }

  async function refreshStatus(): Promise<TerminalStatus> {
    let next: TerminalStatus;
    try {
      const t = await counterTerminal();
      if (!t) next = { connection: 'none', terminalId: null, title: null, tipPercents: null };
      else {
        const addr = addressOf(t) as DeviceAddress;
        const mismatch = serialMismatchOf(String(t.serial_number ?? ''), typeof t.reported_serial_number === 'string' ? t.reported_serial_number : null);
        const base = { terminalId: String(t.id), title: String(t.title || t.serial_number), tipPercents: tipPercentsOf(parseJson(t.tip_percents)), ...(mismatch ? { serialMismatch: mismatch } : {}) };
        let busy = saleRunning;
        try {
          const st = await client.request<{ terminalstate: { busy: boolean } }>('GET', `/terminals/${String(t.id)}/state`);
          busy = busy || st.terminalstate.busy;
        } catch {
          /* a gateway without the extension: busy only while this counter sells */
        }
        const reachable = busy || (addr.kind === 'tcp' ? await tcpReachable(addr.host, addr.port) : existsSync(addr.path));
        next = { ...base, connection: busy ? 'busy' : reachable ? 'connected' : 'offline' };
      }
    } catch {
      // ── Offline store-and-forward (issue 13): the gateway is away, the terminal may not be; it still sells (offline).
      const k = deps.offline?.known();
      if (k) {
        const reachable = saleRunning || (k.address.kind === 'tcp' ? await tcpReachable(k.address.host, k.address.port) : existsSync(k.address.path));
        next = { terminalId: k.id, title: k.title, tipPercents: k.settings.tipPercents, connection: saleRunning ? 'busy' : reachable ? 'connected' : 'offline' };
      } else next = { ...status, connection: status.terminalId ? 'offline' : 'none' };
    }
    if (JSON.stringify(next) !== JSON.stringify(status)) {
      status = next;
      events.emit('terminal:status', status);
    }
    return status;
  }

  const interval = deps.statusIntervalMs ?? 10_000;
  const timer = interval > 0 ? setInterval(() => void refreshStatus(), interval) : undefined;
  timer?.unref();

  /** ACH is never approved at once (131 pending origination): accepted counts as paid here. */
  const outcomeOf = (t: V2Transaction): SaleOutcome => {
    const view = toView(t);
    return { approved: view.state === 'approved' || view.state === 'pending', message: view.message, transaction: view };
  };

  /** The outcome with the clerk record written: the receipt and the list name the cashier. */
  const madeBy = (o: SaleOutcome, session: Session): SaleOutcome => ({ ...o, transaction: deps.clerks.saleBy(o.transaction, session) });

  function toRecord(t: Row): TerminalRecord {
    const addr = addressOf(t) ?? { kind: 'tcp' as const, host: '', port: Number(t.port ?? 10009) };
    return {
      id: String(t.id),
      title: String(t.title ?? ''),
      serialNumber: String(t.serial_number ?? ''),
      address: addr,
      applicationId: String(t.terminal_application_id ?? ''),
      manufacturerId: String(t.terminal_manufacturer_id ?? ''),
      timeouts: effectiveTimeouts(parseJson(t.terminal_timeouts)),
      tipPercents: tipPercentsOf(parseJson(t.tip_percents)),
      lastRegistrationTs: typeof t.last_registration_ts === 'number' ? t.last_registration_ts : null,
    };
  }

  const scannerRecord = (s: Row): ScannerRecord => ({
    id: String(s.id),
    title: String(s.title ?? ''),
    serialNumber: String(s.serial_number ?? ''),
    modelId: Number(s.scanner_model_id ?? 1),
    path: String(s.serial_path ?? ''),
  });

  async function scanAt(path: string, waitMs: number): Promise<ScannedCheck> {
    const link = await openSerialLink(path).catch(() => {
      throw new DeviceError('unreachable', 'The check scanner cannot be reached. Check the cable and the port.');
    });
    const scanner = new CheckScannerDriver(link, 3000);
    try {
      await scanner.configure();
      const m = await scanner.scan(waitMs);
      return { routing: m.routing, account: m.account, checkNumber: m.checkNumber, micr: m.line };
    } finally {
      await scanner.close();
    }
  }

  const guarded = async <T>(fn: () => Promise<Result<T>>): Promise<Result<T>> => {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof DeviceError) return deviceFailure(e);
      if (e instanceof GatewayError) {
        // A terminal problem the gateway reports (timeout, customer abort, unreachable) is one sentence.
        const term = e.errors.terminal_id?.[0];
        if (term) return fail('terminal', term);
        return gatewayFailure(e);
      }
      throw e;
    }
  };

  /**
   * A charge that is not the one asked (the amount plus a tip within the store's share when the
   * terminal could ask, within the hard cap): voided at the gateway, recorded as a device fault,
   * refused in words; null when it is the one asked. The requested total is checked, not the
   * approved one: a partial approval is the processor's word, not the terminal's.
   */
  async function refuseMismatch(outcome: SaleOutcome, args: Parameters<DeviceHandlers['devices:terminal-sale']>[0], tipPercents: readonly number[] | null, told: Partial<TerminalTipRequest>, session: Session): Promise<Result<never> | null> {
    const v = outcome.transaction;
    const mismatch = approvalMismatch(askOf(args.subtotalCents + args.taxCents, args.tipCents, tipPercents, deps.guards(), told), { approvedCents: v.requestedCents, tipCents: v.tipCents });
    if (!mismatch) return null;
    let reversed = false;
    try {
      reversed = Number((await (deps.reverseClient ?? client).voidTransaction(v.id)).status_id) === 201;
    } catch {
      // Said below: the charge is to be reversed by hand.
    }
    const sentence = faultSentence(mismatch.message, reversed ? FAULT_WORDS.reversed : FAULT_WORDS.notReversed);
    const raw = `charged ${v.requestedCents} (tip ${v.tipCents}) as transaction ${v.id}`;
    return deviceFault(deps.audit, { session, sentence, raw, amountCents: v.requestedCents, transactionId: v.id, clientRef: args.clientRef });
  }

  /** The terminal sale read by the core itself and queued (offline-terminal-sale.ts); the terminal shows busy meanwhile. */
  async function sellOffline(args: Parameters<DeviceHandlers['devices:terminal-sale']>[0], session: Session): Promise<Result<SaleOutcome>> {
    const off = deps.offline!;
    const terminalId = off.known()?.id ?? '';
    saleRunning = true;
    void refreshStatus();
    try {
      return await off.sell(args, session);
    } finally {
      saleRunning = false;
      events.emit('terminal:state', { terminalId, state: 'idle', prompt: '' });
      void refreshStatus();
    }
  }

  async function storeCardOnTerminal(contactId: string): Promise<Result<V2AccountVault>> {
    if (saleRunning) return fail('busy', DEVICE_ERRORS.terminalBusy);
    return guarded(async () => {
      const t = await counterTerminal();
      if (!t) return fail('no_terminal', DEVICE_ERRORS.noTerminal);
      saleRunning = true;
      try {
        const r = await routerClient.request<{ accountvault: V2AccountVault }>('POST', '/routeraccountvaults', {
          routeraccountvault: { action: 'store', payment_method: 'cc', ...locQuery(), contact_id: contactId, terminal_id: String(t.id) },
        });
        return ok(r.accountvault);
      } finally {
        saleRunning = false;
      }
    });
  }

  return {
    refreshStatus,
    storeCardOnTerminal,
    close: () => {
      if (timer) clearInterval(timer);
    },

    'devices:terminal-status': async () => {
      const s = users.require();
      if (!s.ok) return s;
      return ok(await refreshStatus());
    },

    'devices:terminal-sale': async (args) => {
      const s = requireCounter();
      if (!s.ok) return s;
      // The store's guards before the terminal is woken. A tip the customer picks on the terminal
      // (tipCents null) is not known yet: the guards see the amount before it.
      const tipCents = args.tipCents ?? 0;
      const refused = refuseAmount(deps.guards(), { subtotalCents: args.subtotalCents, tipCents, totalCents: args.subtotalCents + args.taxCents + tipCents }, args);
      if (refused) return refused;
      if (saleRunning || sale) return fail('busy', DEVICE_ERRORS.terminalBusy);
      // The core's reference, bound to this amount on the terminal before the terminal is woken (tender-refs.ts).
      const tender = { amountCents: args.subtotalCents + args.taxCents, tipCents: args.tipCents, method: 'cc', action: 'sale', instrument: 'terminal' } as const;
      const handed = deps.refs.handedDown(tender);
      if (!handed.ok) return handed;
      const made = handed.value !== null ? { ok: true as const, value: handed.value } : deps.refs.refFor(s.value, { scope: 'sale', attempt: args.clientRef, ...tender });
      if (!made.ok) {
        // This screen's own retry of a sale the core found after its answer was lost: that answer, once (lost-payments.ts).
        const again = made.error.code === 'already_answered' ? await deps.lost.answerForRetry(s.value, { scope: 'sale', attempt: args.clientRef, ...tender }) : null;
        return again ? ok(madeBy(outcomeOf(again.transaction), s.value)) : made;
      }
      const ref = made.value;
      args = { ...args, clientRef: ref }; // the offline read queues it under the same reference
      const mine = { ref, terminalId: null as string | null, cancelled: false };
      sale = mine;
      return guarded(async () => {
        let t: Row | undefined;
        try {
          t = await counterTerminal();
        } catch (e) {
          // Nothing was sent to the gateway yet: any missing answer may go offline.
          if (deps.offline && e instanceof GatewayError && e.status === 0) return sellOffline(args, s.value);
          throw e;
        }
        if (!t) return fail('no_terminal', DEVICE_ERRORS.noTerminal);
        const terminalId = String(t.id);
        mine.terminalId = terminalId;
        // Cancel pressed before the request left: the terminal is never asked.
        if (mine.cancelled) return fail('terminal', DEVICE_MSG.CANCELLED);
        saleRunning = true;
        void refreshStatus();
        let last = '';
        const poll = setInterval(() => {
          client
            .request<{ terminalstate: { state: TerminalScreenState; prompt: string } }>('GET', `/terminals/${terminalId}/state`)
            .then(({ terminalstate: st }) => {
              const key = `${st.state}|${st.prompt}`;
              if (key !== last) {
                last = key;
                events.emit('terminal:state', { terminalId, state: st.state, prompt: st.prompt });
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
          r = await routerClient.request<{ routertransaction: V2Transaction }>('POST', '/routertransactions', {
            routertransaction: {
              action: 'sale',
              payment_method: 'cc',
              ...locQuery(),
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
            return found.kind === 'refused' ? found.result : ok(madeBy(outcomeOf(found.transaction), s.value));
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
          saleRunning = false;
          events.emit('terminal:state', { terminalId, state: 'idle', prompt: '' });
          void refreshStatus();
        }
        if (!r) return sellOffline(args, s.value);
        // Ours at all (issue 20, point 2: the answer carries this tender's reference and matches its binding)
        // before the register's own rules on what was charged (point 1), so another sale's record is never voided here.
        return deps.lost.counted(ref, r.routertransaction, s.value, async (charged) => {
          const outcome = outcomeOf(charged);
          // The register decides the amount (issue 20, point 1): what was charged is checked against what was asked.
          const refused = outcome.approved ? await refuseMismatch(outcome, args, tipPercentsOf(parseJson(t.tip_percents)), told, s.value) : null;
          return refused ?? ok(madeBy(outcome, s.value));
        });
      }).finally(() => {
        if (sale === mine) sale = null;
      });
    },

    'devices:terminal-cancel': async () => {
      const s = requireCounter();
      if (!s.ok) return s;
      if (deps.offline?.cancel()) return ok(null); // a store-and-forward read the core drives itself
      return guarded(async () => {
        const current = sale;
        if (current) current.cancelled = true;
        const terminalId = current?.terminalId ?? status.terminalId;
        // Naming the sale lets the gateway end it even if the request has not reached the terminal yet.
        if (terminalId) await client.request('POST', `/terminals/${terminalId}/cancel`, current ? { terminalcancel: { transaction_api_id: current.ref } } : undefined);
        return ok(null);
      });
    },

    'devices:installer-data': async () => {
      const g = requireInstaller();
      if (!g.ok) return g;
      return guarded(async () => {
        const rows = await terminalRows();
        const apps = new Map<string, DeviceChoice>();
        const mfrs = new Map<string, DeviceChoice>();
        for (const t of rows) {
          const a = t.terminal_application as Row | null | undefined;
          const m = t.terminal_manufacturer as Row | null | undefined;
          if (a?.id) apps.set(String(a.id), { id: String(a.id), title: String(a.title), manufacturerId: String(a.terminal_manufacturer_id ?? '') });
          if (m?.id) mfrs.set(String(m.id), { id: String(m.id), title: String(m.title) });
        }
        const sc = await client.request<{ scanners: Row[] }>('GET', '/scanners', undefined, { ...locQuery(), page_size: 100, sort: 'created_ts' });
        const models = await client.request<{ scannermodels: Row[] }>('GET', '/scannermodels', undefined, { page_size: 100 }).catch(() => ({ scannermodels: [] as Row[] }));
        return ok({
          terminals: rows.map(toRecord),
          scanners: (sc.scanners ?? []).map(scannerRecord),
          applications: [...apps.values()],
          manufacturers: [...mfrs.values()],
          scannerModels: (models.scannermodels ?? []).map((m) => ({ id: String(m.id), title: String(m.title) })),
          reportedSerials: Object.fromEntries(rows.flatMap((t) => (typeof t.reported_serial_number === 'string' ? [[String(t.id), t.reported_serial_number]] : []))),
        });
      });
    },

    'devices:terminal-save': async (a) => {
      const g = requireInstaller();
      if (!g.ok) return g;
      const refused = await refuseAddress(a.address);
      if (refused) return refused;
      return guarded(async () => {
        const tcp = a.address.kind === 'tcp' ? a.address : null;
        const body = {
          ...(a.id ? {} : locQuery()),
          title: a.title,
          serial_number: a.serialNumber,
          communication_type: a.address.kind,
          local_ip_address: tcp ? tcp.host : null,
          port: tcp ? tcp.port : null,
          serial_path: a.address.kind === 'serial' ? a.address.path : null,
          // TLS pinned to the terminal's certificate (issue 20, point 1); off clears the pin too.
          tls: tcp?.tls ? 1 : 0,
          tls_fingerprint: tcp?.tls ? tcp.tls.fingerprint.toUpperCase() : null,
          terminal_application_id: a.applicationId,
          terminal_manufacturer_id: a.manufacturerId,
          terminal_timeouts: a.timeouts,
          tip_percents: a.tipPercents ? { percent_1: a.tipPercents[0], percent_2: a.tipPercents[1], percent_3: a.tipPercents[2] } : { percent_1: null, percent_2: null, percent_3: null },
          tip_enable: a.tipPercents ? 1 : 0,
        };
        const r = a.id
          ? await client.request<{ terminal: Row }>('PUT', `/terminals/${a.id}`, { terminal: body })
          : await client.request<{ terminal: Row }>('POST', '/terminals', { terminal: body });
        void refreshStatus();
        return ok(toRecord(r.terminal));
      });
    },

    'devices:terminal-test': async ({ address, terminalId }) => {
      const g = requireInstaller();
      if (!g.ok) return g;
      const refused = await refuseAddress(address);
      if (refused) return refused;
      return guarded<TerminalTestResult>(async () => {
        // A saved terminal at its saved address: the gateway initializes it and records the
        // contact (last_registration_ts). An address not saved yet is tested directly.
        const saved = terminalId ? (await terminalRows()).find((t) => String(t.id) === terminalId) : undefined;
        const at = saved ? addressOf(saved) : null;
        const pin = (x: DeviceAddress) => (x.kind === 'tcp' && x.tls ? x.tls.fingerprint.toUpperCase() : null);
        const same = at !== null && (at.kind === 'tcp' ? address.kind === 'tcp' && address.host === at.host && address.port === at.port && pin(address) === pin(at) : address.kind === 'serial' && address.path === at.path);
        if (same) {
          const r = await routerClient.request<{ terminalinfo: { serial_number: string; model: string; application: string; last_registration_ts: number } }>('POST', `/terminals/${terminalId}/initialize`);
          const i = r.terminalinfo;
          return ok({ serialNumber: i.serial_number, model: i.model, application: i.application, lastRegistrationTs: i.last_registration_ts });
        }
        const d = new TerminalDriver({ connect: () => openLink(address), settings: { timeouts: effectiveTimeouts(null), tipPercents: null } });
        return ok({ ...(await d.initialize()), lastRegistrationTs: null });
      });
    },

    'devices:terminal-certificate': async ({ host, port }) => {
      const g = requireInstaller();
      if (!g.ok) return g;
      const refused = await refuseAddress({ kind: 'tcp', host, port });
      if (refused) return refused;
      // The handshake only: the installer compares this with the terminal's own screen before pinning it.
      return guarded(async () => ok({ fingerprint: await presentedFingerprint(host, port) }));
    },

    'devices:terminal-terms': async (a) => {
      const g = requireInstaller();
      if (!g.ok) return g;
      const badText = termsTextRefusal(a.text);
      if (badText) return fail('bad_terms', badText, { text: [badText] });
      return guarded(async () => {
        const r = await routerClient.request<{ deviceterm: { reason_code_id: number; signature: { signature?: string } | null } }>(
          'POST',
          '/deviceterms',
          { deviceterm: { ...locQuery(), terminal_id: a.terminalId, require_signature: a.requireSignature, terms_conditions: a.text } },
          { expand: 'signature' },
        );
        const sig = r.deviceterm.signature?.signature;
        return ok({ accepted: r.deviceterm.reason_code_id === 1000, signatureDataUrl: sig ? `data:image/png;base64,${sig}` : null });
      });
    },

    'devices:scanner-save': async (a) => {
      const g = requireInstaller();
      if (!g.ok) return g;
      const refused = await refuseAddress({ kind: 'serial', path: a.path });
      if (refused) return refused;
      return guarded(async () => {
        const body = { ...(a.id ? {} : locQuery()), title: a.title, serial_number: a.serialNumber, scanner_model_id: a.modelId, serial_path: a.path };
        const r = a.id
          ? await client.request<{ scanner: Row }>('PUT', `/scanners/${a.id}`, { scanner: body })
          : await client.request<{ scanner: Row }>('POST', '/scanners', { scanner: body });
        return ok(scannerRecord(r.scanner));
      });
    },

    'devices:serial-ports': async () => {
      const g = requireInstaller();
      if (!g.ok) return g;
      return ok(await places.listSerialPorts());
    },

    'devices:scanner-test': async ({ path }) => {
      const g = requireInstaller();
      if (!g.ok) return g;
      const refused = await refuseAddress({ kind: 'serial', path });
      if (refused) return refused;
      if (scanRunning) return fail('busy', DEVICE_ERRORS.scannerBusy);
      scanRunning = true;
      try {
        return await guarded(async () => ok(await scanAt(path, 15_000)));
      } finally {
        scanRunning = false;
      }
    },

    'devices:check-scan': async () => {
      const s = requireCounter();
      if (!s.ok) return s;
      if (scanRunning) return fail('busy', DEVICE_ERRORS.scannerBusy);
      scanRunning = true;
      try {
        return await guarded(async () => {
          const sc = await client.request<{ scanners: Row[] }>('GET', '/scanners', undefined, { ...locQuery(), page_size: 100, sort: 'created_ts' });
          const scanner = (sc.scanners ?? []).find((x) => (x.active === true || x.active === 1) && typeof x.serial_path === 'string' && x.serial_path);
          if (!scanner) return fail('no_scanner', DEVICE_ERRORS.noScanner);
          // A path saved before these rules (or straight into the gateway) is held to them too.
          const refused = await refuseAddress({ kind: 'serial', path: String(scanner.serial_path) });
          if (refused) return refused;
          return ok(await scanAt(String(scanner.serial_path), 30_000));
        });
      } finally {
        scanRunning = false;
      }
    },

    'devices:check-pay': async (a) => {
      const s = requireCounter();
      if (!s.ok) return s;
      const total = a.subtotalCents + a.taxCents;
      const refused = refuseAmount(deps.guards(), { subtotalCents: a.subtotalCents, tipCents: 0, totalCents: total }, a);
      if (refused) return refused;
      const tender = { amountCents: total, tipCents: 0, method: 'ach', action: 'debit', instrument: `check:${a.check.routing}:${a.check.account.slice(-4)}` } as const;
      const made = deps.refs.refFor(s.value, { scope: 'sale', attempt: a.clientRef, ...tender });
      const answerOf = (t: V2Transaction): Result<SaleOutcome> => {
        const o = madeBy(outcomeOf(t), s.value);
        return ok(o.transaction.state === 'pending' ? { ...o, message: DEVICE_ERRORS.checkPending } : o);
      };
      if (!made.ok) {
        // This screen's own retry of a check the core found after its answer was lost: that answer, once (lost-payments.ts).
        const again = made.error.code === 'already_answered' ? await deps.lost.answerForRetry(s.value, { scope: 'sale', attempt: a.clientRef, ...tender }) : null;
        return again ? answerOf(again.transaction) : made;
      }
      const ref = made.value;
      const request: V2TransactionCreate = {
        action: 'debit',
        payment_method: 'ach',
        ...locQuery(),
        transaction_amount: formatMoney(total),
        ...(a.taxCents > 0 ? { tax: formatMoney(a.taxCents) } : {}),
        // The engine reads routing, account and check number from the MICR line itself
        // (the interface's micr_data), so the account number is never sent twice. A check
        // whose line the scanner could not read goes as the numbers the cashier keyed from it.
        account_type: 'checking',
        account_holder_name: a.holderName,
        ach_sec_code: 'POP',
        ...(a.check.micr !== null
          ? { micr_data: a.check.micr }
          : { routing: a.check.routing, account_number: a.check.account, ...(a.check.checkNumber !== null ? { check_number: a.check.checkNumber } : {}) }),
        transaction_api_id: ref,
        clerk_number: clerkNumberOf(s.value.user.id),
      };
      return guarded(async () => {
        // On disk with its cashier before it leaves: a lost answer is resumed after a restart too (lost-payments.ts).
        deps.lost.sending(ref, { way: 'check', session: s.value, amountCents: total });
        let t: V2Transaction;
        try {
          t = (await client.request<{ transaction: V2Transaction }>('POST', '/transactions', { transaction: request })).transaction;
        } catch (e) {
          if (failureOf(e) !== 'lost') {
            deps.lost.answered(ref); // refused, or never left: nothing is unknown
            throw e;
          }
          // Lost: looked up (and sent again, same transaction_api_id, within the re-send window) until known.
          // The MICR line is held in memory only, as the card data of a keyed sale.
          const found = await deps.lost.lostThenLookup(ref, s.value, request);
          if (!found) return fail('outcome_unknown', DEVICE_ERRORS.checkOutcomeUnknown);
          return found.kind === 'refused' ? found.result : answerOf(found.transaction);
        }
        return deps.lost.counted(ref, t, s.value, answerOf);
      });
    },
  };
}
