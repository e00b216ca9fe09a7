/**
 * Card-present sales while the gateway cannot be reached (issue 13): the counter reads the
 * card on its terminal itself and queues what the terminal answers for store-and-forward.
 *
 * Online, a terminal sale is the gateway's router transaction: the gateway drives the
 * terminal. When the gateway cannot be reached, the core drives the same terminal through
 * the same driver (electron/devices/terminal-driver.ts), asking for a store-and-forward read
 * (`saf=1`): the terminal answers the card as its reader encrypted it for the gateway
 * (e_track_data, e_format, KSN; reader-encryption.ts) with the masked facts (brand, last
 * four, entry mode C, S, P or K). That goes into the offline queue (sealed again at rest,
 * like a keyed card) and is forwarded as a sale with that encrypted data once the gateway
 * answers; the gateway decrypts it and keeps the entry mode.
 *
 * The counter must know its terminal without the gateway: devices.ts `remember`s the
 * counter terminal (address and per-operation settings) each time it reads it from the
 * gateway, in the app database, so it is known after a restart during an outage too.
 *
 * The terminal's answer is checked like an online one (terminal-faults.ts) before it is queued:
 * one that is not the sale asked is reversed on the terminal, recorded as a device fault and
 * refused; the forwarder checks the queued amounts again before sending (app-core.ts).
 *
 * Rules: card-present sales qualify by default; the caps and the manager rule are checked
 * before the customer is asked for a card, and again with the tip they chose on the terminal.
 * A number keyed on the terminal's pad counts as keyed; a debit card with PIN is refused
 * (PIN debit needs the bank online).
 */
import type { HandlerMap, SaleOutcome, Session, StoreSettings } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import { terminalTipRequest } from '../../../shared/payments/tip-suggestions';
import { openLink, type DeviceAddress } from '../../devices/device-link';
import { TerminalCertificateError } from '../../devices/terminal-tls';
import { DeviceError } from '../../devices/device-messages';
import type { OperationSettings } from '../../devices/terminal-commands';
import { TerminalDriver } from '../../devices/terminal-driver';
import { brandLabel } from '../sales/card-brand';
import { clerkNumberOf } from '../sales/clerk-records';
import type { CoreEvents } from '../platform/events';
import { GATEWAY_MESSAGES } from '../gateway/gateway-messages';
import type { OfflineForwarder } from './offline-forwarder';
import { OFFLINE_ERRORS, type OfflineQueue } from './offline-queue';
import { OFFLINE_APPROVED, offlineRulesOf, offlineViewOf } from './offline-sales';
import { getSetting, setSetting, type PosDatabase } from '../platform/pos-database';
import type { AuditLog } from '../audit/audit-log';
import { approvalMismatch, TerminalFault } from '../../devices/terminal-answer';
import { askOf, deviceFault, FAULT_WORDS, faultSentence } from '../devices/terminal-faults';
import { ownerKeyOf } from '../cart/tender-refs';

/** Reverses on the terminal what it may have approved (a void naming its reference); true when it confirmed. */
async function voidOnTerminal(driver: TerminalDriver, ecrRef: string, refNum: string): Promise<boolean> {
  if (!refNum) return false;
  try {
    await driver.void(ecrRef, refNum);
    return true;
  } catch {
    return false;
  }
}

/** The settings key the counter terminal is remembered under. */
const KNOWN_TERMINAL_KEY = 'counter-terminal';

/** The counter's terminal as last read from the gateway: enough to drive it without the gateway. */
export interface KnownTerminal {
  id: string;
  title: string;
  address: DeviceAddress;
  settings: OperationSettings;
}

type TerminalSaleArgs = Parameters<HandlerMap['devices:terminal-sale']>[0];

export interface OfflineTerminalDeps {
  db: PosDatabase;
  queue: OfflineQueue;
  forwarder: OfflineForwarder;
  events: CoreEvents;
  settings: () => StoreSettings;
  locationId: string | undefined;
  productTransactionId: string | undefined;
  /** A second in ms for the terminal's own timeouts (tests). */
  deviceSecondMs?: number;
  /** Where device faults are recorded (issue 20, point 1; terminal-faults.ts). */
  audit?: AuditLog;
}

export interface OfflineTerminal {
  /** The counter terminal the gateway named (null: none): kept for outages. */
  remember(t: KnownTerminal | null): void;
  known(): KnownTerminal | null;
  /** A card-present sale on the known terminal, queued for forwarding; or a sentence why not. */
  sell(args: TerminalSaleArgs, session: Session): Promise<Result<SaleOutcome>>;
  /** Cancels a read running now; false when none runs. */
  cancel(): boolean;
}

export function createOfflineTerminal(deps: OfflineTerminalDeps): OfflineTerminal {
  const { db, queue, forwarder, events } = deps;
  let cached: string | null = getSetting(db, KNOWN_TERMINAL_KEY) ?? null;
  let running: TerminalDriver | undefined;

  const known = (): KnownTerminal | null => {
    if (!cached) return null;
    try {
      return JSON.parse(cached) as KnownTerminal;
    } catch {
      return null;
    }
  };

  return {
    remember(t) {
      const next = t ? JSON.stringify(t) : '';
      if (next === (cached ?? '')) return; // read every 10 s: written only when it changed
      setSetting(db, KNOWN_TERMINAL_KEY, next);
      cached = next;
    },
    known,
    cancel() {
      if (!running) return false;
      running.cancel();
      return true;
    },
    async sell(args, session) {
      const term = known();
      if (!term) return fail('gateway_unreachable', GATEWAY_MESSAGES.unreachable);
      if (running) return fail('busy', 'The terminal is busy with another sale.');
      const rules = offlineRulesOf(deps.settings());
      const clerk = { id: session.user.id, name: session.user.name, number: clerkNumberOf(session.user.id), role: session.user.role };
      const again = queue.item(args.clientRef);
      // The same sale sent again (a double click): the sale it already is, the card not read twice.
      if (again) return ok({ approved: true, message: OFFLINE_APPROVED, transaction: offlineViewOf(again, { collectsRestOf: null }) });
      // Before the customer is asked for a card.
      const before = queue.refusal({ amountCents: args.subtotalCents + args.taxCents + (args.tipCents ?? 0), keyed: false, clerk }, rules, queue.status(rules).pendingCents);
      if (before) return fail('offline_refused', before);

      const driver = new TerminalDriver({ connect: () => openLink(term.address), settings: term.settings, secondMs: deps.deviceSecondMs });
      const off = driver.onState((state, prompt) => events.emit('terminal:state', { terminalId: term.id, state, prompt }));
      running = driver;
      const askedCents = args.subtotalCents + args.taxCents;
      const voidRef = `v${args.clientRef}`.slice(0, 32);
      // The tip picked on the terminal follows the store's tip base and smart tips, as on line (issue 21).
      const told = args.tipCents === null ? terminalTipRequest(args.subtotalCents, args.taxCents, deps.settings()) : {};
      let read;
      try {
        read = await driver.sale({
          amountCents: args.subtotalCents + args.taxCents,
          ...(args.tipCents !== null ? { tipCents: args.tipCents } : told),
          ecrRef: args.clientRef.slice(0, 32),
          storeAndForward: true,
        });
      } catch (e) {
        if (e instanceof TerminalFault) {
          // An answer the driver would not read (terminal-answer.ts): reversed there, nothing queued.
          const reversed = await voidOnTerminal(driver, voidRef, e.refNum);
          return deviceFault(deps.audit, { session, sentence: faultSentence(null, reversed ? FAULT_WORDS.reversed : null), raw: e.raw, clientRef: args.clientRef });
        }
        if (e instanceof TerminalCertificateError) {
          // A TLS terminal that is not the one set up (issue 20, point 1): nothing was sent to it.
          const pinned = term.address.kind === 'tcp' && term.address.tls ? term.address.tls.fingerprint : 'none';
          return deviceFault(deps.audit, { session, sentence: e.message, raw: `certificate presented: ${e.presented ?? 'none (no TLS handshake)'}; pinned: ${pinned}`, clientRef: args.clientRef });
        }
        if (e instanceof DeviceError) return fail(`device_${e.code}`, e.message);
        throw e;
      } finally {
        off();
        running = undefined;
      }
      // The register decides the amount (issue 20, point 1): the amount asked plus a tip within the store's share, within the cap.
      const settings = deps.settings();
      const mismatch = approvalMismatch(askOf(askedCents, args.tipCents, term.settings.tipPercents, settings, told), read);
      if (mismatch) {
        const reversed = await voidOnTerminal(driver, voidRef, read.refNum);
        const sentence = faultSentence(mismatch.message, reversed ? FAULT_WORDS.reversed : FAULT_WORDS.notReversed);
        return deviceFault(deps.audit, { session, sentence, raw: `approved ${read.approvedCents}, tip ${read.tipCents}, ref ${read.refNum}`, amountCents: read.approvedCents, clientRef: args.clientRef });
      }
      if (read.entryMode === 'K' && !rules.offlineAllowKeyed) return fail('offline_refused', OFFLINE_ERRORS.keyed);
      if (read.debit) return fail('offline_refused', OFFLINE_ERRORS.debit);
      if (!read.encrypted) return fail('offline_refused', OFFLINE_ERRORS.noStoreAndForward);
      const r = queue.enqueue(
        {
          clientRef: args.clientRef,
          // The register's figure: the amount asked plus the tip checked above.
          amountCents: askedCents + read.tipCents,
          taxCents: args.taxCents,
          tipCents: read.tipCents,
          card: { kind: 'read', ...read.encrypted, entryMode: read.entryMode, brand: brandLabel(read.brand, read.firstSix), lastFour: read.lastFour },
          clerk,
          locationId: deps.locationId ?? null,
          productTransactionId: deps.productTransactionId ?? null,
          collectsRestOf: null,
          keyed: read.entryMode === 'K',
          // This window and user acknowledge it once their screen shows "Approved offline" (issue 20, point 3).
          owner: ownerKeyOf(session),
        },
        rules,
      );
      // Checked again with the tip the customer chose on the terminal; the card was read, nothing was charged.
      if (!r.ok) return fail('offline_refused', r.message);
      void forwarder.kick();
      const signatureLine = read.entryMode === 'K' || read.entryMode === 'S' || read.cvm === 'signature';
      return ok({ approved: true, message: OFFLINE_APPROVED, transaction: offlineViewOf(r.item, { collectsRestOf: null, signatureLine }) });
    },
  };
}
