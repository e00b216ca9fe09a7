/**
 * The receipt printer's part of the core, assembled once (app-core.ts only calls this): the
 * registry and print queue on the app database, the printer service and its status watcher,
 * the drawer kicked on the cart's `drawer:open` (cash tenders, cash given back), and the
 * `printers:*` channels.
 */
import type { CartReceiptData, DayReport, HandlerMap, PrinterStatusView, PrintOutcome, StoreSettings, TransactionView } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { PayLinkFacts } from '../../../shared/receipts/receipt-document';
import { PRINTER_MSG } from '../../../shared/ipc/contract';
import type { DevicePlaces } from '../../devices/device-places';
import type { AuditLog } from '../audit/audit-log';
import type { UserDirectory } from '../auth/users';
import type { CoreEvents } from '../platform/events';
import type { PosDatabase } from '../platform/pos-database';
import type { OpenPrinter } from './printer-connection';
import { encodeForPrinter, openEscPosPrinter } from './printer-open';
import { cartJobs, reportJob, saleJobs } from './receipt-jobs';
import { PrinterRegistry } from './printer-registry';
import { createPrintersHandlers, type PrintersDeps } from './printers';
import { PrintQueue } from './print-queue';
import { PRINTER_WATCH_MS, ReceiptPrinter } from './receipt-printer';

export interface PrintingDeps {
  db: PosDatabase;
  events: CoreEvents;
  audit: AuditLog;
  users: UserDirectory;
  places: DevicePlaces;
  settings: () => StoreSettings;
  /** A paid cart's receipt data, as the cart's own `cart:receipt` reads it. */
  cartReceipt: (cartId: string) => Promise<Result<CartReceiptData>>;
  /** How often the printer is asked (ms; 0: only on demand). Default PRINTER_WATCH_MS. */
  intervalMs?: number;
  /** Default: the ESC/POS driver over TCP or serial. */
  open?: OpenPrinter;
}

export interface Printing {
  handlers: Pick<HandlerMap, Extract<keyof HandlerMap, `printers:${string}`>>;
  service: ReceiptPrinter;
  status(): PrinterStatusView;
  /** Whether receipts go to a registered printer (else the shell's or the browser's print). */
  registered(): boolean;
  /** A transaction's receipt on the printer: the customer copy, and the merchant's when due or asked for. */
  printTransaction(t: TransactionView, merchantCopy: boolean, payLink?: PayLinkFacts | null): Promise<Result<PrintOutcome>>;
  printReport(report: DayReport): Promise<Result<PrintOutcome>>;
  close(): Promise<void>;
}

export function startPrinting(d: PrintingDeps): Printing {
  const registry = new PrinterRegistry(d.db);
  const service = new ReceiptPrinter({
    registry,
    queue: new PrintQueue(d.db),
    open: d.open ?? openEscPosPrinter,
    encode: encodeForPrinter,
    storeName: () => d.settings().storeName,
    events: d.events,
    audit: d.audit,
    drawerAlertSeconds: () => d.settings().drawerOpenAlertSeconds,
    who: () => d.users.current()?.user ?? null,
  });
  // Cash in or out: the drawer opens through the printer (nothing happens without a printer).
  const unsubscribe = d.events.subscribe((event) => {
    if (event === 'drawer:open' && service.registered()) {
      void service.kickDrawer().then((why) => {
        if (why) console.error(`[printers] ${why}`);
      });
    }
  });
  service.watch(d.intervalMs ?? PRINTER_WATCH_MS);
  const store = () => {
    const st = d.settings();
    return { name: st.storeName, address: st.storeAddress, phone: st.storePhone };
  };
  /** The printer in use, to make documents at its width; the sentence when there is none. */
  const inUse = () => registry.active();
  const cartPrintJobs: PrintersDeps['cartJobs'] = async (cartId, merchantCopy) => {
    const p = inUse();
    if (!p) return fail('use_browser_print', PRINTER_MSG.noPrinter);
    const r = await d.cartReceipt(cartId);
    return r.ok ? ok(cartJobs(r.value, { store: store(), width: p.charsPerLine, merchantCopy })) : r;
  };
  return {
    handlers: createPrintersHandlers({ registry, printer: service, users: d.users, places: d.places, cartJobs: cartPrintJobs }),
    service,
    status: () => service.status(),
    registered: () => inUse() !== null,
    printTransaction: async (t, merchantCopy, payLink) => {
      const p = inUse();
      if (!p) return fail('use_browser_print', PRINTER_MSG.noPrinter);
      return ok(await service.print(saleJobs(t, { store: store(), width: p.charsPerLine, settings: d.settings(), merchantCopy, payLink: payLink ?? null })));
    },
    printReport: async (report) => {
      const p = inUse();
      if (!p) return fail('use_browser_print', PRINTER_MSG.noPrinter);
      return ok(await service.print([reportJob(report, p.charsPerLine)]));
    },
    close: async () => {
      unsubscribe();
      await service.close();
    },
  };
}
