/**
 * The `devices:*` channels: the counter's EMV terminal and check scanner, and the installer
 * screens that register and test them. The core drives the terminal through the gateway's
 * router endpoint (the same driver integrators use) and talks to the scanner and to a
 * terminal under test directly. Pushed event `terminal:state`: what the terminal shows.
 */
import { z } from 'zod';
import { TERMINAL_TIMEOUTS, TIMEOUT_KEYS, tipPercentRangeMessage, type TimeoutKey } from '../payments/terminal-timeouts';
import { FINGERPRINT_MSG, FINGERPRINT_PATTERN } from '../payments/terminal-fingerprint';
import { abaRoutingValid } from '../payments/aba-routing';
import { KEYED_CHECK_MSG } from '../payments/check-entry';
import { centsSchema, idSchema } from './common';
import { guardConfirmationFields, type SaleOutcome } from './sales';
import { COUNTER, SETUP, audits, type ChannelDeclarations } from './channel-declaration';

export type TerminalConnection = 'none' | 'connected' | 'busy' | 'offline';
export type TerminalScreenState = 'idle' | 'card' | 'tip' | 'pin' | 'signature' | 'processing' | 'terms' | 'done';

export interface TerminalStatus {
  connection: TerminalConnection;
  terminalId: string | null;
  title: string | null;
  /** Tip percents configured on the terminal (null: none; the counter picks on screen). */
  tipPercents: [number, number, number] | null;
  /** Present when the terminal last reported another serial number than the one registered (TERMINAL_SERIAL_MSG). */
  serialMismatch?: SerialMismatch;
}

export interface SerialMismatch {
  registered: string;
  reported: string;
}

export interface TerminalStatePayload {
  terminalId: string;
  state: TerminalScreenState;
  prompt: string;
}

/**
 * Where a terminal may be on the network (issue 20, point 6): the shop's own network or this
 * computer, so an installer cannot point the app at another computer or at a service on the
 * internet. Decisions:
 * - Private (RFC 1918: 10/8, 172.16/12, 192.168/16) and loopback (127/8, for a terminal bridge
 *   or simulator on this computer) only.
 * - Link-local 169.254/16 is refused: it holds cloud metadata services (169.254.169.254), and a
 *   shop terminal has a DHCP or fixed address on the shop network. Also refused: 0.0.0.0
 *   ("this host", which reaches every local service), carrier-grade NAT 100.64/10, multicast,
 *   broadcast and every public address.
 * - IPv4 literals only, as the terminal's own network menu shows them: a host name is refused
 *   (it could resolve anywhere, and differently later), and so is IPv6 (POSLink-family
 *   terminals are set up by IPv4 address).
 * Which port is the core's decision (electron/devices/device-places.ts): it depends on what the
 * machine's owner allowed at start.
 */
export const TERMINAL_ADDRESS_MSG = "A terminal's address is on the shop's own network (10.x.x.x, 172.16.x.x to 172.31.x.x, 192.168.x.x) or 127.0.0.1 for this computer.";

export function isShopNetworkIpv4(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number) as [number, number];
  return a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

const ipv4 = z
  .string()
  .regex(/^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/, 'Type an IPv4 address such as 192.168.1.50.')
  .refine(isShopNetworkIpv4, TERMINAL_ADDRESS_MSG);
export const devicePathSchema = z.string().regex(/^\/dev\/[A-Za-z0-9/_.-]{1,200}$/, 'A serial path starts with /dev/, for example /dev/ttyUSB0.');

/** A terminal certificate's SHA-256 fingerprint as the terminal shows it (terminal-fingerprint.ts). */
export const fingerprintSchema = z.string().trim().min(1, FINGERPRINT_MSG.missing).regex(FINGERPRINT_PATTERN, FINGERPRINT_MSG.malformed);

const terminalPortSchema = z.number().int().min(1, 'The port is 1 to 65535.').max(65535, 'The port is 1 to 65535.');

/**
 * Where a terminal is. A network terminal with `tls` is reached over TLS only, trusting the one
 * certificate with that fingerprint (issue 20, point 1); absent or null is plain TCP.
 */
export const terminalAddressSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('tcp'), host: ipv4, port: terminalPortSchema, tls: z.strictObject({ fingerprint: fingerprintSchema }).nullable().optional() }),
  z.strictObject({ kind: z.literal('serial'), path: devicePathSchema }),
]);
export type TerminalAddressInput = z.infer<typeof terminalAddressSchema>;

/** Timeouts within the engine's own bounds (shared/payments/terminal-timeouts.ts). */
export const timeoutsSchema = z.strictObject(
  Object.fromEntries(
    TIMEOUT_KEYS.map((k) => {
      const s = TERMINAL_TIMEOUTS[k];
      const msg = `${s.label} is ${s.min} to ${s.max} seconds.`;
      return [k, z.number().int(msg).min(s.min, msg).max(s.max, msg)];
    }),
  ) as Record<TimeoutKey, z.ZodNumber>,
);

const percentMsg = tipPercentRangeMessage('A tip percent');
const percent = z.number().int(percentMsg).min(0, percentMsg).max(99, percentMsg);
export const tipPercentsSchema = z.tuple([percent, percent, percent]).nullable();

export const terminalSaveSchema = z.strictObject({
  id: idSchema.optional(),
  title: z.string().trim().min(1, 'Give the terminal a name.').max(64, 'A name is at most 64 characters.'),
  serialNumber: z.string().trim().min(1, 'Type the serial number from the label.').max(36, 'A serial number is at most 36 characters.'),
  address: terminalAddressSchema,
  applicationId: idSchema,
  manufacturerId: idSchema,
  timeouts: timeoutsSchema,
  tipPercents: tipPercentsSchema,
});
export type TerminalSave = z.infer<typeof terminalSaveSchema>;

export interface TerminalRecord extends Omit<TerminalSave, 'id'> {
  id: string;
  lastRegistrationTs: number | null;
}

/** The registered and the reported serial when they differ, else null: one rule for the Devices screen and the counter. */
export function serialMismatchOf(registered: string, reported: string | null): SerialMismatch | null {
  return reported !== null && reported.trim() !== '' && reported.trim() !== registered.trim() ? { registered: registered.trim(), reported: reported.trim() } : null;
}

export interface DeviceChoice {
  id: string;
  title: string;
  manufacturerId?: string;
}

/** A serial port the system lists (serialport's list), offered on the Devices screen; any other path can still be typed. */
export interface SerialPortChoice {
  path: string;
  /** The adapter's maker as the system reports it (e.g. FTDI), null when unknown. */
  maker: string | null;
}

export interface InstallerData {
  terminals: TerminalRecord[];
  scanners: ScannerRecord[];
  applications: DeviceChoice[];
  manufacturers: DeviceChoice[];
  scannerModels: DeviceChoice[];
  /** By terminal id: the serial number each terminal gave of itself when last tested (none until then). */
  reportedSerials: Record<string, string>;
}

/** What a TLS terminal presents: its certificate's fingerprint, for the installer to compare with the terminal's screen. */
export interface TerminalCertificate {
  fingerprint: string;
}

/**
 * A terminal that answers with another serial number than the one registered for it (issue 21,
 * point 14): maybe another terminal at the registered one's address, maybe a typo in the record.
 */
export const TERMINAL_SERIAL_MSG = {
  mismatch: (registered: string, reported: string) =>
    `This terminal reports serial number ${reported}, but ${registered} is registered. Check the label on the terminal: correct the serial number here, or connect the registered terminal.`,
  /** The status bar's few words (one line at every width; the sale screen says the whole sentence). */
  short: (reported: string) => `wrong serial ${reported}`,
} as const;

export interface TerminalTestResult {
  serialNumber: string;
  model: string;
  application: string;
  /** When the engine recorded this contact (a saved terminal tested at its saved address); null otherwise. */
  lastRegistrationTs: number | null;
}

/**
 * Terms text is shown on the terminal's screen as it is typed: letters, digits, punctuation,
 * spaces and new lines (LF, the textarea's line break). Refused: every other control character
 * — C0 (U+0000-U+001F: tab, CR, escape, and the frame's own STX/ETX/FS/US bytes), DEL (U+007F)
 * and C1 (U+0080-U+009F) — which a terminal screen cannot show and which would only steer
 * whatever reads the text (a CR ends a line protocol's command, an escape moves a cursor).
 * Tab is refused too: a terminal screen has no tab stops.
 */
export const TERMS_TEXT_MSG = 'The terms can hold letters, digits, punctuation, spaces and new lines only: remove tabs and other control characters (often pasted from another program).';

// eslint-disable-next-line no-control-regex -- the control characters are what this finds
const TERMS_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

export function termsTextRefusal(text: string): string | null {
  return TERMS_CONTROL.test(text) ? TERMS_TEXT_MSG : null;
}

export const termsArgsSchema = z.strictObject({
  terminalId: idSchema,
  text: z.string().trim().min(1, 'Type the terms to show.').max(4096, 'The terms are at most 4096 characters.'),
  requireSignature: z.boolean(),
});

export interface TermsResult {
  accepted: boolean;
  /** data: URL of the PNG signature, when one was drawn. */
  signatureDataUrl: string | null;
}

export const scannerSaveSchema = z.strictObject({
  id: idSchema.optional(),
  title: z.string().trim().min(1, 'Give the scanner a name.').max(24, 'A name is at most 24 characters.'),
  serialNumber: z.string().trim().min(1, 'Type the serial number from the label.').max(24, 'A serial number is at most 24 characters.'),
  modelId: z.number().int().min(1),
  path: devicePathSchema,
});
export type ScannerSave = z.infer<typeof scannerSaveSchema>;
export interface ScannerRecord extends Omit<ScannerSave, 'id'> {
  id: string;
}

/** What a scanned check carries (never more than the MICR line printed on it); a check keyed from its printed numbers has no line. */
export interface ScannedCheck {
  routing: string;
  account: string;
  checkNumber: string | null;
  /** The MICR line as read; null when the cashier keyed the numbers (shared/payments/check-entry.ts). */
  micr: string | null;
}

export const terminalSaleSchema = z.strictObject({
  subtotalCents: centsSchema.min(1),
  taxCents: centsSchema,
  /** null: the customer chooses the tip on the terminal (its tip percents). */
  tipCents: centsSchema.nullable(),
  clientRef: idSchema,
  ...guardConfirmationFields,
});

export const checkPaySchema = z.strictObject({
  subtotalCents: centsSchema.min(1),
  taxCents: centsSchema,
  check: z
    .strictObject({
      routing: z.string().regex(/^\d{9}$/, KEYED_CHECK_MSG.routingShort).refine(abaRoutingValid, KEYED_CHECK_MSG.routingInvalid),
      account: z.string().regex(/^\d{4,17}$/, KEYED_CHECK_MSG.account),
      checkNumber: z.string().regex(/^\d{1,15}$/, KEYED_CHECK_MSG.checkNumber).nullable(),
      micr: z.string().max(128).nullable(),
    })
    // A keyed check has no line to read the check number from: the cashier types it.
    .refine((c) => c.micr !== null || c.checkNumber !== null, { message: KEYED_CHECK_MSG.checkNumber, path: ['checkNumber'] }),
  holderName: z.string().trim().min(1, 'Type the name printed on the check.').max(32, 'A name is at most 32 characters.'),
  clientRef: idSchema,
  confirmedCents: guardConfirmationFields.confirmedCents,
});

export const devicesHandlers = {
  'devices:terminal-status': { args: z.void(), access: 'signed-in', effect: 'read', audit: 'none' },
  'devices:terminal-sale': { args: terminalSaleSchema, access: COUNTER, effect: 'money', audit: audits(['sale'], ['amount', 'transaction', 'detail']) },
  'devices:terminal-cancel': { args: z.void(), access: COUNTER, effect: 'transient', audit: 'none' },
  'devices:installer-data': { args: z.void(), access: SETUP, effect: 'read', audit: 'none' },
  'devices:terminal-save': { args: terminalSaveSchema, access: SETUP, effect: 'devices', audit: audits(['device-change'], ['detail']) },
  /** terminalId: the saved terminal being tested; at its saved address the engine records the contact. */
  'devices:terminal-test': { args: z.strictObject({ address: terminalAddressSchema, terminalId: idSchema.optional() }), access: SETUP, effect: 'transient', audit: 'none' },
  'devices:terminal-terms': { args: termsArgsSchema, access: SETUP, effect: 'devices', audit: audits(['device-change'], ['detail']) },
  /** Reads the certificate a TLS terminal presents (the handshake only; nothing is sent to it). */
  'devices:terminal-certificate': { args: z.strictObject({ host: ipv4, port: terminalPortSchema }), access: SETUP, effect: 'read', audit: 'none' },
  'devices:scanner-save': { args: scannerSaveSchema, access: SETUP, effect: 'devices', audit: audits(['device-change'], ['detail']) },
  'devices:scanner-test': { args: z.strictObject({ path: devicePathSchema }), access: SETUP, effect: 'transient', audit: 'none' },
  'devices:serial-ports': { args: z.void(), access: SETUP, effect: 'read', audit: 'none' },
  'devices:check-scan': { args: z.void(), access: COUNTER, effect: 'transient', audit: 'none' },
  'devices:check-pay': { args: checkPaySchema, access: COUNTER, effect: 'money', audit: audits(['sale'], ['amount', 'transaction', 'detail']) },
} as const satisfies ChannelDeclarations;

export interface DevicesResults {
  'devices:terminal-status': TerminalStatus;
  'devices:terminal-sale': SaleOutcome;
  'devices:terminal-cancel': null;
  'devices:installer-data': InstallerData;
  'devices:terminal-save': TerminalRecord;
  'devices:terminal-test': TerminalTestResult;
  'devices:terminal-terms': TermsResult;
  'devices:terminal-certificate': TerminalCertificate;
  'devices:scanner-save': ScannerRecord;
  'devices:scanner-test': ScannedCheck;
  'devices:serial-ports': SerialPortChoice[];
  'devices:check-scan': ScannedCheck;
  'devices:check-pay': SaleOutcome;
}

export interface DevicesEventPayloads {
  'terminal:state': TerminalStatePayload;
  'terminal:status': TerminalStatus;
}
export const devicesEventNames = ['terminal:state', 'terminal:status'] as const;
