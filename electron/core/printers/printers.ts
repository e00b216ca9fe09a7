/**
 * The `printers:*` channels (shared/ipc/printers.ts) over the receipt printer service: the
 * registry Devices edits, a test print, the status, a cart's receipt and "No sale". Who may call
 * each is the channels' declaration; each handler here keeps only the rules beyond the role.
 * Every address is held to the places devices may use (device-places.ts): a shop-network or
 * loopback IPv4 address on port 9100 (or a port allowed at start, as for terminals), or a
 * serial port the system lists.
 */
import type { HandlerArg, HandlerMap, HandlerResults, PrinterAddress, PrinterSettings } from '../../../shared/ipc/contract';
import { PRINTER_MSG, PRINTER_PORT } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import { serialPathRefusal, type DevicePlaces } from '../../devices/device-places';
import type { UserDirectory } from '../auth/users';
import { managerPin } from '../cart/cart-approval';
import { DeviceError } from '../../devices/device-messages';
import { fittedLogo } from './printer-open';
import type { PrinterRegistry } from './printer-registry';
import type { ReceiptPrinter } from './receipt-printer';
import type { NewPrintJob } from './print-queue';

type PrinterHandlers = Pick<HandlerMap, Extract<keyof HandlerMap, `printers:${string}`>>;

export const NO_SALE_MSG = {
  needsManager: 'Opening the drawer with no sale is a manager’s: ask a manager to approve it with their PIN.',
  refused: 'That manager PIN is not right: the drawer stays shut.',
} as const;

export const printerPortMsg = (allowed: string) =>
  `A receipt printer uses port ${PRINTER_PORT}${allowed ? `, or a port allowed on this computer (${allowed})` : '. Set the printer to it, or have whoever starts Ringup allow another port (RINGUP_TERMINAL_PORTS)'}.`;

/** The place rule for a printer: port 9100 or an allowed one; a serial path the system lists (or an allowed pseudo-terminal). */
export async function printerAddressRefusal(a: PrinterAddress, places: DevicePlaces): Promise<string | null> {
  if (a.kind === 'serial') return serialPathRefusal(a.path, places);
  if (a.port === PRINTER_PORT || places.terminalPorts.some(([lo, hi]) => a.port >= lo && a.port <= hi)) return null;
  return printerPortMsg(places.terminalPorts.map(([lo, hi]) => (lo === hi ? String(lo) : `${lo}-${hi}`)).join(', '));
}

export interface PrintersDeps {
  registry: PrinterRegistry;
  printer: ReceiptPrinter;
  users: UserDirectory;
  places: DevicePlaces;
  /** A paid cart's receipt documents (customer copy, and the merchant's when due or asked for); null when the cart is not paid or not found. */
  cartJobs: (cartId: string, merchantCopy: boolean) => Promise<Result<NewPrintJob[]>>;
}

/** The settings with their logo fitted to the paper (scaled, on white); the sentence when the file is no picture. */
function withFittedLogo(p: PrinterSettings): Result<PrinterSettings> {
  if (!p.logo) return ok(p);
  try {
    return ok({ ...p, logo: fittedLogo(p.logo, p.paper) });
  } catch (err) {
    const why = err instanceof DeviceError ? err.message : PRINTER_MSG.logo;
    return fail('bad_logo', why, { logo: [why] });
  }
}

async function savePrinter(d: PrintersDeps, { id, printer }: HandlerArg<'printers:save'>): Promise<Result<HandlerResults['printers:save']>> {
  const why = await printerAddressRefusal(printer.address, d.places);
  if (why) return fail('device_place', why, { [printer.address.kind === 'tcp' ? 'address.port' : 'address.path']: [why] });
  const fitted = withFittedLogo(printer);
  if (!fitted.ok) return fitted;
  const saved = d.registry.save(id, fitted.value);
  if (!saved) return fail('not_found', PRINTER_MSG.unknown);
  void d.printer.poll();
  return ok(saved);
}

async function removePrinter(d: PrintersDeps, { id }: HandlerArg<'printers:remove'>): Promise<Result<HandlerResults['printers:remove']>> {
  const was = d.registry.remove(id);
  if (!was) return fail('not_found', PRINTER_MSG.unknown);
  void d.printer.poll();
  return ok({ id, name: was.name });
}

async function testPrint(d: PrintersDeps, p: HandlerArg<'printers:test-print'>): Promise<Result<HandlerResults['printers:test-print']>> {
  const why = await printerAddressRefusal(p.address, d.places);
  if (why) return fail('device_place', why);
  const fitted = withFittedLogo(p);
  if (!fitted.ok) return fitted;
  return ok(await d.printer.testPrint(fitted.value));
}

async function printCart(d: PrintersDeps, { cartId, merchantCopy }: HandlerArg<'printers:print-cart'>): Promise<Result<HandlerResults['printers:print-cart']>> {
  if (!d.printer.registered()) return fail('use_browser_print', PRINTER_MSG.noPrinter);
  const jobs = await d.cartJobs(cartId, merchantCopy ?? false);
  if (!jobs.ok) return jobs;
  return ok(await d.printer.print(jobs.value));
}

/** "No sale": a manager opens the drawer; a cashier only with a manager's PIN typed at the counter. */
async function noSale(d: PrintersDeps, arg: HandlerArg<'printers:no-sale'>): Promise<Result<HandlerResults['printers:no-sale']>> {
  const s = d.users.require();
  if (!s.ok) return s;
  let approvedBy: string | null = null;
  if (s.value.user.role !== 'manager') {
    if (!arg?.approval) return fail('approval_needed', NO_SALE_MSG.needsManager);
    const m = await managerPin(d.users, arg.approval, NO_SALE_MSG.refused);
    if (!m.ok) return m;
    approvedBy = m.value.name;
  }
  const why = await d.printer.kickDrawer();
  if (why) return fail('printer', why);
  return ok({ approvedBy });
}

export function createPrintersHandlers(d: PrintersDeps): PrinterHandlers {
  return {
    'printers:list': async () => ok(d.registry.list()),
    'printers:save': (a) => savePrinter(d, a),
    'printers:remove': (a) => removePrinter(d, a),
    'printers:test-print': (a) => testPrint(d, a),
    'printers:status': async () => ok(await d.printer.poll()),
    'printers:print-cart': (a) => printCart(d, a),
    'printers:no-sale': (a) => noSale(d, a),
  };
}
