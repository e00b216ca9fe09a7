/**
 * `receipt:print` and `reports:print` with the receipt printer first (issue 23): when one is
 * registered, a transaction's receipt (customer copy, and the merchant's when its signature line
 * is due or asked for) and an 80 mm X or Z report go to it, through the print queue, and the
 * answer says printed or why it waits. A payment made on a pay link's page prints as a pay link payment. Without one — or an A4 report — the channel does as
 * before: the desktop shell prints or saves a PDF, the node host answers `use_browser_print`.
 */
import type { DayReport, HandlerMap, TransactionView } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { PayLinkFacts } from '../../../shared/receipts/receipt-document';
import type { Printing } from './printing';

export interface ReceiptSources {
  view: (id: string) => Promise<Result<TransactionView>>;
  /** What the pay link asked for, when the transaction was paid on one (pay-link-facts.ts); else null. */
  payLink: (id: string) => Promise<PayLinkFacts | null>;
}

export function receiptPrintPrinterFirst(printing: Printing, from: ReceiptSources, fallback: HandlerMap['receipt:print']): HandlerMap['receipt:print'] {
  return async (a) => {
    if (!printing.registered()) return fallback(a);
    const t = await from.view(a.id);
    if (!t.ok) return t;
    const out = await printing.printTransaction(t.value, a.merchantCopy ?? false, await from.payLink(a.id));
    return out.ok ? ok({ savedTo: null, printer: out.value }) : fallback(a);
  };
}

/** The report a print asks for by its file name: `x-report` (the X now) or `z-report-N` (closed day N). */
export function reportPrintPrinterFirst(printing: Printing, reports: Pick<HandlerMap, 'reports:x' | 'reports:z-view'>, fallback: HandlerMap['reports:print']): HandlerMap['reports:print'] {
  return async (a) => {
    if (a.paper !== '80mm' || !printing.registered()) return fallback(a);
    const z = /^z-report-(\d{1,7})$/.exec(a.name);
    let report: Result<DayReport>;
    if (z) report = await reports['reports:z-view']({ number: Number(z[1]) });
    else if (a.name === 'x-report') report = await reports['reports:x']();
    else return fail('not_found', 'That report is not one the printer can print: open it again and print.');
    if (!report.ok) return report;
    const out = await printing.printReport(report.value);
    return out.ok ? ok({ savedTo: null, printer: out.value }) : fallback(a);
  };
}
