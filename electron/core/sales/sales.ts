/**
 * The counter's money handlers: sale, today's list, search, refund, void, tip adjust, receipt.
 * Every one checks the session first (refund and void need a manager, or a manager's PIN —
 * enforced here, whatever the screen shows), talks to the gateway only through the typed
 * client, and answers plain sentences.
 *
 * This file only binds: each channel's handler is a named function over its own small deps
 * (sale:* here in sales/, transactions:* in transactions/, receipt:* in receipts/), and what
 * they share for the life of the core — this app's refund ledger and clerk records, the views
 * joining them to the gateway's records, one queue of money steps per sale — is made once here.
 *
 * Simplifications: what a sale has had refunded is the larger of the gateway's refund records
 * (filtered by previous_transaction_id) and this app's own refund ledger (for a gateway that
 * cannot filter so); `receipt:print` prints through the shell only when the shell supplies
 * `printReceipt`, otherwise the renderer falls back to the browser's print.
 */
import type { CoreStatus, HandlerMap } from '../../../shared/ipc/contract';
import type { StoreSettings } from '../../../shared/ipc/settings';
import type { GatewayClient } from '../../client/gateway-client';
import type { SaleStatus } from '../../../shared/cart/tender-machine';
import type { UserDirectory } from '../auth/users';
import type { TenderRefs } from '../cart/tender-refs';
import { OneAtATime } from '../platform/one-at-a-time';
import type { PosDatabase } from '../platform/pos-database';
import type { OfflineSales } from '../queue/offline-sales';
import { emailReceipt, printReceipt } from '../receipts/receipt-handlers';
import { adjustTip } from '../transactions/adjust-tip';
import { TransactionViews } from '../transactions/clerk-views';
import { RefundLedger } from '../transactions/refund-ledger';
import { refundSale } from '../transactions/refund-sale';
import { transactionsSearch, transactionsToday, transactionView } from '../transactions/transaction-lists';
import { voidSaleHandler } from '../transactions/void-sale';
import { chargeSale } from './charge-sale';
import { ClerkRecords } from './clerk-records';
import type { LostPayments } from './lost-payments';
import { lostList, lostSeen } from './lost-list';
import { saleConfig } from './sale-config';
import { saleOutcome } from './sale-outcome';
import { voidPartialSale } from './void-partial';

export { SALE_ERRORS } from './sale-errors';
export { startOfLocalDay } from '../transactions/transaction-lists';

export interface SalesDeps {
  client: GatewayClient;
  /**
   * The client `sale:void-partial` voids with. A cashier's requests go as the engine's
   * cashier user, who may not void (role-credentials.ts); voiding a partial approval to
   * start over is the one void the core lets a cashier make (it checks: a partial, unsettled
   * sale), so it goes as the gateway's admin user. Defaults to `client`.
   */
  partialVoidClient?: GatewayClient;
  /**
   * Reads whether a receipt e-mail went out. The gateway's outbox is the managers' (it holds
   * customers' addresses and links); the core reads only that one message's state as the
   * gateway's admin user, and a cashier gets the state, never the outbox. Defaults to `client`.
   */
  outboxClient?: GatewayClient;
  users: UserDirectory;
  db: PosDatabase;
  locationId: string | undefined;
  productTransactionId: string | undefined;
  shell: CoreStatus['shell'];
  /**
   * Prints (or saves as PDF) the receipt page in the desktop app, answering where a PDF
   * went or null. Electron main supplies it (webContents.print / printToPDF); without it
   * `receipt:print` answers `use_browser_print` and the renderer calls window.print().
   */
  printReceipt?: (transactionId: string) => Promise<string | null>;
  /** The store's settings (thresholds, tax, tips, receipt header), read fresh on every use. */
  settings: () => StoreSettings;
  now?: () => number;
  /** Offline store-and-forward (issue 13, offline-sales.ts): takes a sale the gateway could not be reached for. */
  offline?: Pick<OfflineSales, 'take'>;
  /**
   * The carts whose card tenders these transactions may be (issue 20, cart-store.ts): a void of a
   * paid cart's card is a cart return (a manager's), and a cart follows a void of its tender.
   */
  carts?: { statusOfTransaction(transactionId: string): SaleStatus | null; tenderVoided(transactionId: string): void };
  /** Makes and binds every transaction_api_id (issue 20, point 2): the screen's clientRef is only an attempt id. */
  refs: TenderRefs;
  /** Payments whose answer is not known, on disk with their cashier before they leave (issue 20, point 3). */
  lost: LostPayments;
}

type SalesHandlers = Pick<
  HandlerMap,
  | 'sale:config'
  | 'sale:charge'
  | 'sale:outcome'
  | 'sale:void-partial'
  | 'sale:lost-list'
  | 'sale:lost-seen'
  | 'transactions:today'
  | 'transactions:search'
  | 'transactions:view'
  | 'transactions:refund'
  | 'transactions:void'
  | 'transactions:adjust-tip'
  | 'receipt:print'
  | 'receipt:email'
>;

export function createSalesHandlers(deps: SalesDeps): SalesHandlers {
  const { client, db } = deps;
  const now = deps.now ?? Date.now;
  const ledger = new RefundLedger(db);
  const clerks = new ClerkRecords(db);
  const views = new TransactionViews({ client, clerks, ledger, now });
  // Money changes of one sale run one after another (refunds and voids of different sales still overlap).
  const oneAtATime = new OneAtATime();
  const d = { ...deps, now, ledger, clerks, views, oneAtATime, partialVoidClient: deps.partialVoidClient ?? client, outboxClient: deps.outboxClient ?? client };

  return {
    'sale:config': () => saleConfig(d),
    'sale:charge': (args) => chargeSale(d, args),
    'sale:outcome': (args) => saleOutcome(d, args),
    'sale:lost-list': () => lostList(d),
    'sale:lost-seen': (args) => lostSeen(d, args),
    'sale:void-partial': (args) => voidPartialSale(d, args),
    'transactions:today': (args) => transactionsToday(d, args),
    'transactions:search': (args) => transactionsSearch(d, args),
    'transactions:view': (args) => transactionView(d, args),
    'transactions:refund': (args) => refundSale(d, args),
    'transactions:void': (args) => voidSaleHandler(d, args),
    'transactions:adjust-tip': (args) => adjustTip(d, args),
    'receipt:print': (args) => printReceipt(d, args),
    'receipt:email': (args) => emailReceipt(d, args),
  };
}
