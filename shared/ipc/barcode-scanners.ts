/**
 * The `barcode:*` channels (issue 23, point 5): serial barcode scanners, registered on Devices
 * by an installer (a name, the serial path, the baud rate), kept open by the core, tested with
 * "scan something now". Each code a registered scanner reads is pushed as `barcode:scanned`;
 * the sale screen adds it exactly as a keyboard-wedge scanner's code (renderer/src/cart/scanned-code.ts).
 * A read the scanner sent but that is no code (noise, a run-on line) is pushed as
 * `barcode:refused` with its sentence, said where a code no item has is said.
 */
import { z } from 'zod';
import { devicePathSchema } from './devices';
import { idSchema } from './common';
import { SETUP, audits, type ChannelDeclarations } from './channel-declaration';

/** The rates serial scanners are set to on their set-up sheets; 9600 is the usual factory setting. */
export const BARCODE_BAUDS = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;
export const DEFAULT_BARCODE_BAUD = 9600;

export const BARCODE_SCANNER_MSG = {
  baud: `The baud rate is one of ${BARCODE_BAUDS.join(', ')} (the scanner's set-up sheet says which; 9600 is usual).`,
  name: 'Give the scanner a name.',
  nameLong: 'A name is at most 32 characters.',
  samePath: (name: string) => `The scanner "${name}" is already at this serial path. Pick another port, or change that scanner.`,
  missing: 'This barcode scanner is not registered any more. Look at the list again.',
} as const;

export const barcodeScannerSaveSchema = z.strictObject({
  id: idSchema.optional(),
  name: z.string().trim().min(1, BARCODE_SCANNER_MSG.name).max(32, BARCODE_SCANNER_MSG.nameLong),
  path: devicePathSchema,
  baud: z.number().refine((b) => (BARCODE_BAUDS as readonly number[]).includes(b), BARCODE_SCANNER_MSG.baud),
});
export type BarcodeScannerSave = z.infer<typeof barcodeScannerSaveSchema>;

/**
 * Where the core is with a registered scanner's port: `listening` (open), `unplugged` (not
 * there or would not open: tried again every 2 s), `testing` (lent to the installer's test),
 * `refused` (its path is not a place a device may be: `problem` says why).
 */
export type BarcodeScannerState = 'listening' | 'unplugged' | 'testing' | 'refused';

export interface BarcodeScannerRecord {
  id: string;
  name: string;
  path: string;
  baud: number;
  state: BarcodeScannerState;
  /** Why the core does not listen, in words (state `refused`); null otherwise. */
  problem: string | null;
}

export interface BarcodeTestResult {
  code: string;
}

export const barcodeScannersHandlers = {
  'barcode:scanners': { args: z.void(), access: SETUP, effect: 'read', audit: 'none' },
  'barcode:save': { args: barcodeScannerSaveSchema, access: SETUP, effect: 'devices', audit: audits(['device-change'], ['detail']) },
  'barcode:remove': { args: z.strictObject({ id: idSchema }), access: SETUP, effect: 'devices', audit: audits(['device-change'], ['detail']) },
  /** Waits (up to 15 s) for the next code scanned at this path and baud; a registered scanner there lends its port meanwhile. */
  'barcode:test': { args: z.strictObject({ path: devicePathSchema, baud: barcodeScannerSaveSchema.shape.baud }), access: SETUP, effect: 'transient', audit: 'none' },
} as const satisfies ChannelDeclarations;

export interface BarcodeScannersResults {
  'barcode:scanners': BarcodeScannerRecord[];
  'barcode:save': BarcodeScannerRecord;
  'barcode:remove': BarcodeScannerRecord;
  'barcode:test': BarcodeTestResult;
}

export interface BarcodeScannersEventPayloads {
  'barcode:scanned': { code: string };
  'barcode:refused': { message: string };
}
export const barcodeScannersEventNames = ['barcode:scanned', 'barcode:refused'] as const;
