/**
 * The `devices:*` channels: the counter's EMV terminal and check scanner, and the installer
 * screens that register and test them. The core drives the terminal through the gateway's
 * router endpoint (the same driver integrators use) and talks to the scanner and to a
 * terminal under test directly. Pushed event `terminal:state`: what the terminal shows.
 */
import { z } from 'zod';
import { TERMINAL_TIMEOUTS, TIMEOUT_KEYS, tipPercentRangeMessage, type TimeoutKey } from '../payments/terminal-timeouts';
import { centsSchema, idSchema } from './common';
import { guardConfirmationFields, type SaleOutcome } from './sales';

export type TerminalConnection = 'none' | 'connected' | 'busy' | 'offline';
export type TerminalScreenState = 'idle' | 'card' | 'tip' | 'pin' | 'signature' | 'processing' | 'terms' | 'done';

export interface TerminalStatus {
  connection: TerminalConnection;
  terminalId: string | null;
  title: string | null;
  /** Tip percents configured on the terminal (null: none; the counter picks on screen). */
  tipPercents: [number, number, number] | null;
}

export interface TerminalStatePayload {
  terminalId: string;
  state: TerminalScreenState;
  prompt: string;
}

const ipv4 = z.string().regex(/^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/, 'Type an IPv4 address such as 192.168.1.50.');
export const devicePathSchema = z.string().regex(/^\/dev\/[A-Za-z0-9/_.-]{1,200}$/, 'A serial path starts with /dev/, for example /dev/ttyUSB0.');

export const terminalAddressSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('tcp'), host: ipv4, port: z.number().int().min(1, 'The port is 1 to 65535.').max(65535, 'The port is 1 to 65535.') }),
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

export interface DeviceChoice {
  id: string;
  title: string;
  manufacturerId?: string;
}

export interface InstallerData {
  terminals: TerminalRecord[];
  scanners: ScannerRecord[];
  applications: DeviceChoice[];
  manufacturers: DeviceChoice[];
  scannerModels: DeviceChoice[];
}

export interface TerminalTestResult {
  serialNumber: string;
  model: string;
  application: string;
  /** When the engine recorded this contact (a saved terminal tested at its saved address); null otherwise. */
  lastRegistrationTs: number | null;
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

/** What a scanned check carries (never more than the MICR line printed on it). */
export interface ScannedCheck {
  routing: string;
  account: string;
  checkNumber: string | null;
  micr: string;
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
  check: z.strictObject({
    routing: z.string().regex(/^\d{9}$/),
    account: z.string().regex(/^\d{4,17}$/),
    checkNumber: z.string().regex(/^\d{1,15}$/).nullable(),
    micr: z.string().max(128),
  }),
  holderName: z.string().trim().min(1, 'Type the name printed on the check.').max(32, 'A name is at most 32 characters.'),
  clientRef: idSchema,
  confirmedCents: guardConfirmationFields.confirmedCents,
});

export const devicesHandlers = {
  'devices:terminal-status': z.void(),
  'devices:terminal-sale': terminalSaleSchema,
  'devices:terminal-cancel': z.void(),
  'devices:installer-data': z.void(),
  'devices:terminal-save': terminalSaveSchema,
  /** terminalId: the saved terminal being tested; at its saved address the engine records the contact. */
  'devices:terminal-test': z.strictObject({ address: terminalAddressSchema, terminalId: idSchema.optional() }),
  'devices:terminal-terms': termsArgsSchema,
  'devices:scanner-save': scannerSaveSchema,
  'devices:scanner-test': z.strictObject({ path: devicePathSchema }),
  'devices:check-scan': z.void(),
  'devices:check-pay': checkPaySchema,
} as const;

export interface DevicesResults {
  'devices:terminal-status': TerminalStatus;
  'devices:terminal-sale': SaleOutcome;
  'devices:terminal-cancel': null;
  'devices:installer-data': InstallerData;
  'devices:terminal-save': TerminalRecord;
  'devices:terminal-test': TerminalTestResult;
  'devices:terminal-terms': TermsResult;
  'devices:scanner-save': ScannerRecord;
  'devices:scanner-test': ScannedCheck;
  'devices:check-scan': ScannedCheck;
  'devices:check-pay': SaleOutcome;
}

export interface DevicesEventPayloads {
  'terminal:state': TerminalStatePayload;
  'terminal:status': TerminalStatus;
}
export const devicesEventNames = ['terminal:state', 'terminal:status'] as const;
