/**
 * `receipt:print` and `receipt:email`. Printing goes through the desktop shell when it supplies
 * a printer (Electron main: webContents.print / printToPDF), else the renderer prints with the
 * browser's own print. An e-mailed receipt is the gateway's: the address is set on the sale and
 * the gateway sends it; whether it went out is read from the managers' outbox by the core, as
 * the gateway's admin user, and a cashier gets that one message's state, never the outbox.
 */
import type { HandlerArg, HandlerResults } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import type { UserDirectory } from '../auth/users';
import { withGatewayFailure } from '../gateway/guarded-call';
import { SALE_ERRORS } from '../sales/sale-errors';
import { receiptDelivery } from './receipt-delivery';

export interface PrintReceiptDeps {
  users: UserDirectory;
  /** Prints (or saves as PDF) the receipt page in the desktop app, answering where a PDF went or null. */
  printReceipt?: (transactionId: string) => Promise<string | null>;
}

export async function printReceipt(deps: PrintReceiptDeps, { id }: HandlerArg<'receipt:print'>): Promise<Result<HandlerResults['receipt:print']>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  if (!deps.printReceipt) return fail('use_browser_print', SALE_ERRORS.printInBrowser);
  return ok({ savedTo: await deps.printReceipt(id) });
}

export interface EmailReceiptDeps {
  client: GatewayClient;
  /** Reads whether the e-mail went out: the gateway's admin user (sales.ts, outboxClient). */
  outboxClient: GatewayClient;
  users: UserDirectory;
  locationId: string | undefined;
}

export async function emailReceipt(deps: EmailReceiptDeps, { id, email }: HandlerArg<'receipt:email'>): Promise<Result<HandlerResults['receipt:email']>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  return withGatewayFailure(async () => {
    await deps.client.updateTransaction(id, { action: 'edit', notification_email_address: email });
    return ok({ sentTo: email, delivery: await receiptDelivery(deps.outboxClient, id, deps.locationId) });
  });
}
