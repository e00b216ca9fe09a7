/**
 * The receipt printer's part of the core, assembled once (app-core.ts only calls this): the
 * registry and print queue on the app database, the printer service and its status watcher,
 * the drawer kicked on the cart's `drawer:open` (cash tenders, cash given back), and the
 * `printers:*` channels.
 */
import type { HandlerMap, PrinterStatusView } from '../../../shared/ipc/contract';
import type { DevicePlaces } from '../../devices/device-places';
import type { AuditLog } from '../audit/audit-log';
import type { UserDirectory } from '../auth/users';
import type { CoreEvents } from '../platform/events';
import type { PosDatabase } from '../platform/pos-database';
import type { OpenPrinter } from './printer-connection';
import { openEscPosPrinter } from './printer-open';
import { PrinterRegistry } from './printer-registry';
import { createPrintersHandlers, type PrintersDeps } from './printers';
import { PrintQueue } from './print-queue';
import { receiptBytes } from './receipt-bytes';
import { PRINTER_WATCH_MS, ReceiptPrinter } from './receipt-printer';

export interface PrintingDeps {
  db: PosDatabase;
  events: CoreEvents;
  audit: AuditLog;
  users: UserDirectory;
  places: DevicePlaces;
  drawerAlertSeconds: () => number;
  cartJobs: PrintersDeps['cartJobs'];
  /** How often the printer is asked (ms; 0: only on demand). Default PRINTER_WATCH_MS. */
  intervalMs?: number;
  /** Default: the ESC/POS driver over TCP or serial. */
  open?: OpenPrinter;
}

export interface Printing {
  handlers: Pick<HandlerMap, Extract<keyof HandlerMap, `printers:${string}`>>;
  service: ReceiptPrinter;
  status(): PrinterStatusView;
  close(): Promise<void>;
}

export function startPrinting(d: PrintingDeps): Printing {
  const registry = new PrinterRegistry(d.db);
  const service = new ReceiptPrinter({
    registry,
    queue: new PrintQueue(d.db),
    open: d.open ?? openEscPosPrinter,
    encode: receiptBytes,
    events: d.events,
    audit: d.audit,
    drawerAlertSeconds: d.drawerAlertSeconds,
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
  return {
    handlers: createPrintersHandlers({ registry, printer: service, users: d.users, places: d.places, cartJobs: d.cartJobs }),
    service,
    status: () => service.status(),
    close: async () => {
      unsubscribe();
      await service.close();
    },
  };
}
