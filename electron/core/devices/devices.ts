/**
 * The counter's devices (issue 12): the EMV terminal and the check scanner.
 *
 * - A card-present sale goes to the gateway's POST /v2/routertransactions, which drives the
 *   terminal through the same driver (electron/devices) and stores the sale (terminal-sale.ts).
 * - The installer's screens set up terminals (terminal-setup.ts) and check scanners
 *   (check-scan.ts); they need the installer or manager role (address-refusal.ts).
 * - The core talks to devices directly where no transaction is stored: the connection test
 *   of an address not saved yet (A00 initialize) and the check scanner (serial MICR reader).
 * - A scanned check pays by ACH through the normal transaction path (check-pay.ts).
 * - Terminal status (none / connected / busy / offline) is re-checked every 10 s
 *   (counter-terminal.ts).
 *
 * This file only binds: each channel's handler is a named function over its own small deps,
 * and what they share for the life of the core — the counter's terminal with its status timer
 * and the sale under way on it, and the scanner's one read at a time — is made once here.
 * Simplification: the counter uses the location's first active terminal that has an
 * address, and its first active scanner with a serial path.
 */
import type { HandlerMap, TerminalStatus } from '../../../shared/ipc/contract';
import type { Result } from '../../../shared/result';
import type { GuardSettings } from '../../../shared/amount-guards';
import type { TipRules } from '../../../shared/payments/tip-suggestions';
import type { GatewayClient } from '../../client/gateway-client';
import type { V2AccountVault } from '../../client/v2-types';
import { devicePlacesFromEnv, type DevicePlaces } from '../../devices/device-places';
import type { AuditLog } from '../audit/audit-log';
import type { UserDirectory } from '../auth/users';
import type { TenderRefs } from '../cart/tender-refs';
import type { CoreEvents } from '../platform/events';
import type { OfflineTerminal } from '../queue/offline-terminal-sale';
import type { ClerkRecords } from '../sales/clerk-records';
import type { LostPayments } from '../sales/lost-payments';
import { payByCheck } from './check-pay';
import { saveScanner, scanCheck, serialPorts, testScanner } from './check-scan';
import { CounterTerminal } from './counter-terminal';
import { ScannerLock } from './scanner-lock';
import { storeCardOnTerminal } from './store-card-on-terminal';
import { terminalSale } from './terminal-sale';
import { installerData, saveTerminal, terminalCertificate, terminalTerms, testTerminal } from './terminal-setup';
import { terminalCancel, terminalStatus } from './terminal-status';

export { DEVICE_ERRORS } from './device-errors';

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
  const places = deps.places ?? devicePlacesFromEnv(process.env);
  const terminal = new CounterTerminal(deps);
  terminal.watch(deps.statusIntervalMs ?? 10_000);
  const d = { ...deps, places, terminal, scanner: new ScannerLock(), reverseClient: deps.reverseClient ?? deps.client };

  return {
    refreshStatus: () => terminal.refresh(),
    storeCardOnTerminal: (contactId) => storeCardOnTerminal(d, contactId),
    close: () => terminal.close(),

    'devices:terminal-status': () => terminalStatus(d),
    'devices:terminal-sale': (args) => terminalSale(d, args),
    'devices:terminal-cancel': () => terminalCancel(d),
    'devices:installer-data': () => installerData(d),
    'devices:terminal-save': (args) => saveTerminal(d, args),
    'devices:terminal-test': (args) => testTerminal(d, args),
    'devices:terminal-certificate': (args) => terminalCertificate(d, args),
    'devices:terminal-terms': (args) => terminalTerms(d, args),
    'devices:scanner-save': (args) => saveScanner(d, args),
    'devices:serial-ports': () => serialPorts(d),
    'devices:scanner-test': (args) => testScanner(d, args),
    'devices:check-scan': () => scanCheck(d),
    'devices:check-pay': (args) => payByCheck(d, args),
  };
}
