/**
 * The `printers:*` channels (issue 23, points 1 and 2): the counter's ESC/POS receipt printer and
 * the cash drawer on its kick port. An installer or a manager registers printers on Devices (where
 * one is: a shop-network address on raw port 9100 or a serial port; the paper; characters per
 * line; cut; a logo) and prints a test page; every signed-in user sees the printer's state and the
 * drawer's in the status bar (pushed event `printer:status`, from the core's watcher).
 * Receipts go to the registered printer through a print queue in the app database: a print that
 * cannot happen now waits and prints by itself once the printer is ready again (electron/core/printers/).
 */
import { z } from 'zod';
import { approvalSchema, idSchema } from './common';
import { devicePathSchema, isShopNetworkIpv4 } from './devices';
import { COUNTER, SETUP, audits, type ChannelDeclarations } from './channel-declaration';

/** Raw ESC/POS over TCP: the port every network receipt printer listens on (GATEWAY-FACTS). */
export const PRINTER_PORT = 9100;
export const PRINTER_BAUDS = [9600, 19200, 38400, 115200] as const;
export const PAPER_WIDTHS = ['80mm', '58mm'] as const;
export type PaperWidth = (typeof PAPER_WIDTHS)[number];

/** Characters per line in font A: 48 on most 80 mm printers (42 on some), 32 on 58 mm (GATEWAY-FACTS). */
export const CPL_CHOICES: Record<PaperWidth, readonly number[]> = { '80mm': [48, 42], '58mm': [32] };

export const PRINTER_MSG = {
  address: "A printer's address is on the shop's own network (10.x.x.x, 172.16.x.x to 172.31.x.x, 192.168.x.x) or 127.0.0.1 for this computer.",
  cpl: (paper: PaperWidth) => `${paper} paper holds ${CPL_CHOICES[paper].join(' or ')} characters a line.`,
  logo: 'The logo is a PNG picture of at most 64 KB.',
  noPrinter: 'No receipt printer is registered: register one on Devices.',
  unknown: 'That printer is not registered (any more).',
} as const;

const ipv4 = z
  .string()
  .regex(/^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/, 'Type an IPv4 address such as 192.168.1.60.')
  .refine(isShopNetworkIpv4, PRINTER_MSG.address);
const portSchema = z.number().int('The port is 1 to 65535.').min(1, 'The port is 1 to 65535.').max(65535, 'The port is 1 to 65535.');

export const printerAddressSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('tcp'), host: ipv4, port: portSchema }),
  z.strictObject({ kind: z.literal('serial'), path: devicePathSchema, baud: z.union([z.literal(9600), z.literal(19200), z.literal(38400), z.literal(115200)], { error: 'The speed is 9600, 19200, 38400 or 115200 baud.' }) }),
]);
export type PrinterAddress = z.infer<typeof printerAddressSchema>;

/** A small PNG as a data URL (about 48 KB of picture once decoded); printed above the store's name. */
export const LOGO_MAX_CHARS = 65_536 + 'data:image/png;base64,'.length;
const logoSchema = z
  .string()
  .max(LOGO_MAX_CHARS, PRINTER_MSG.logo)
  .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/, PRINTER_MSG.logo);

/** What an installer sets for a printer (also what a test print is printed with, saved or not). */
export const printerSettingsSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'Give the printer a name.').max(40, 'A name is at most 40 characters.'),
    address: printerAddressSchema,
    paper: z.enum(PAPER_WIDTHS),
    charsPerLine: z.number().int(),
    cut: z.boolean(),
    logo: logoSchema.nullable(),
    active: z.boolean(),
  })
  .superRefine((p, ctx) => {
    if (!CPL_CHOICES[p.paper].includes(p.charsPerLine)) ctx.addIssue({ code: 'custom', path: ['charsPerLine'], message: PRINTER_MSG.cpl(p.paper) });
  });
export type PrinterSettings = z.infer<typeof printerSettingsSchema>;

export const printerSaveSchema = z.strictObject({ id: idSchema.optional(), printer: printerSettingsSchema });
export type PrinterSave = z.infer<typeof printerSaveSchema>;

export interface PrinterRecord extends PrinterSettings {
  id: string;
}

/** What the printer says of itself, in the words the screens show. `none`: no printer registered. */
export const PRINTER_STATES = ['none', 'ready', 'paper-low', 'paper-out', 'cover-open', 'offline'] as const;
export type PrinterState = (typeof PRINTER_STATES)[number];
export const PRINTER_STATE_WORDS: Record<PrinterState, string> = {
  none: 'none',
  ready: 'ready',
  'paper-low': 'paper low',
  'paper-out': 'out of paper',
  'cover-open': 'cover open',
  offline: 'offline',
};
/** Whether a printer in this state prints (paper low still does: the roll's end is near, not reached). */
export const printsIn = (s: PrinterState) => s === 'ready' || s === 'paper-low';

export interface PrinterStatusView {
  printerId: string | null;
  name: string | null;
  state: PrinterState;
  /** The drawer-status bit (DLE EOT 1, pin 3); unknown while the printer does not answer. */
  drawer: 'open' | 'closed' | 'unknown';
  /** Seconds the drawer has been seen open, as of the last status read (null: closed or unknown). */
  drawerOpenSeconds: number | null;
  /** Open longer than the store's "flag a drawer left open after" setting. */
  drawerFlagged: boolean;
  /** Print jobs waiting for the printer. */
  waiting: number;
}

/** What became of a print: printed now, or waiting for the printer (and why, in words). */
export type PrintOutcome = { state: 'printed'; copies: number } | { state: 'waiting'; copies: number; why: string };

/** What the screens say of a print on the receipt printer. */
export const PRINT_WORDS = {
  printed: (copies: number) => (copies > 1 ? `Printed (${copies} copies).` : 'Printed.'),
  waiting: (why: string) => `Waiting for the printer: ${why}. It prints by itself when the printer is ready.`,
} as const;

export const printCartArgsSchema = z.strictObject({ cartId: idSchema, merchantCopy: z.boolean().optional() });
export const noSaleArgsSchema = z.strictObject({ approval: approvalSchema.optional() }).optional();

export const printersHandlers = {
  'printers:list': { args: z.void(), access: SETUP, effect: 'read', audit: 'none' },
  'printers:save': { args: printerSaveSchema, access: SETUP, effect: 'devices', audit: audits(['device-change'], ['detail']) },
  'printers:remove': { args: z.strictObject({ id: idSchema }), access: SETUP, effect: 'devices', audit: audits(['device-change'], ['detail']) },
  /** Prints a test page with these settings (saved or not) and answers the printer's status. */
  'printers:test-print': { args: printerSettingsSchema, access: SETUP, effect: 'transient', audit: 'none' },
  'printers:status': { args: z.void(), access: 'signed-in', effect: 'read', audit: 'none' },
  /** A cart sale's receipt on the registered printer (the customer copy, and the merchant's on request). */
  'printers:print-cart': { args: printCartArgsSchema, access: COUNTER, effect: 'transient', audit: 'none' },
  /** "No sale": the drawer opened with no sale. A manager, or a cashier with a manager's PIN. */
  'printers:no-sale': { args: noSaleArgsSchema, access: COUNTER, effect: 'money', audit: audits(['no-sale'], ['detail', 'approver']) },
} as const satisfies ChannelDeclarations;

export interface PrintersResults {
  'printers:list': PrinterRecord[];
  'printers:save': PrinterRecord;
  'printers:remove': { id: string; name: string };
  'printers:test-print': PrinterStatusView;
  'printers:status': PrinterStatusView;
  'printers:print-cart': PrintOutcome;
  'printers:no-sale': { approvedBy: string | null };
}

export interface PrintersEventPayloads {
  'printer:status': PrinterStatusView;
}
export const printersEventNames = ['printer:status'] as const;

/** "Drawer open 45 s" / "Drawer open 2 min": how long, in the status bar's few words. */
export function drawerOpenWords(seconds: number | null): string {
  if (seconds === null) return 'Drawer open';
  return seconds < 60 ? `Drawer open ${seconds} s` : `Drawer open ${Math.floor(seconds / 60)} min`;
}
