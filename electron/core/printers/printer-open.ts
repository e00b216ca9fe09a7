/**
 * Reaching a registered printer: the ESC/POS driver (electron/devices/printer-driver.ts) over a
 * TCP link (raw port 9100) or a serial line at the printer's speed, seen by the printer service
 * as a PrinterConnection. A printer that does not answer reads as a failure (the service shows
 * it offline, the drawer unknown); one that answers with an error reads as offline.
 */
import { openSerialLink, openTcpLink } from '../../devices/device-link';
import { DEVICE_MSG, DeviceError } from '../../devices/device-messages';
import { ReceiptPrinterDriver } from '../../devices/printer-driver';
import { encodeReceipt, fitLogo, type PrinterLayout } from '../../devices/receipt-encoding';
import type { PrinterSettings } from '../../../shared/ipc/contract';
import type { OpenPrinter, PrinterConnection, PrinterPlace } from './printer-connection';

const PNG_URL = 'data:image/png;base64,';

/** The encoder's view of a printer: paper, characters per line, cut, and the logo (already fitted when saved). */
export function printerLayout(p: Pick<PrinterSettings, 'paper' | 'charsPerLine' | 'cut' | 'logo'>): PrinterLayout {
  return { paperMm: p.paper === '80mm' ? 80 : 58, cpl: p.charsPerLine, cut: p.cut, logo: p.logo ? p.logo.slice(PNG_URL.length) : null };
}

/** A receiptline document as the ESC/POS bytes this printer prints (receipt-encoding.ts: receiptline). */
export const encodeForPrinter = (document: string, p: PrinterSettings): Uint8Array => encodeReceipt(document, printerLayout(p));

/** The installer's logo scaled to the paper on white (fitLogo), as the data URL that is stored; throws the sentence for a file that is no picture. */
export function fittedLogo(logo: string, paper: PrinterSettings['paper']): string {
  return PNG_URL + fitLogo(Buffer.from(logo.slice(PNG_URL.length), 'base64'), paper === '80mm' ? 80 : 58);
}

export function driverConnection(driver: ReceiptPrinterDriver): PrinterConnection {
  return {
    async status() {
      const s = await driver.status();
      if (!s.reachable) throw new DeviceError('printer_not_ready', DEVICE_MSG.PRINTER_OFFLINE);
      return { online: s.online && !s.error, paper: s.paper, coverOpen: s.coverOpen, drawerOpen: s.drawerOpen };
    },
    print: async (bytes) => void (await driver.print(bytes)),
    kickDrawer: () => driver.kickDrawer(),
    close: () => driver.close(),
  };
}

/** The driver for a printer's address; its link opens on first use and again after a drop. */
export const openEscPosPrinter: OpenPrinter = async (p: PrinterPlace) => {
  const a = p.address;
  const connect = a.kind === 'tcp' ? () => openTcpLink(a.host, a.port, 3000) : () => openSerialLink(a.path, a.baud);
  return driverConnection(new ReceiptPrinterDriver({ connect }));
};
