/**
 * What each screen shows: its name (screen-registry.ts declares the rest) to its component.
 * A Record over every ScreenName, so a screen declared without a view does not type-check.
 * Apart from the declarations because the Manage hub is one of these views and reads them.
 */
import type { ReactElement } from 'react';
import type { ScreenName } from './nav-store';
import { InstallerScreen } from '../devices/installer-screen';
import { BatchesScreen } from '../batches/batches-screen';
import { CounterUsersScreen } from '../users/counter-users-screen';
import { GatewayScreen } from '../gateway/gateway-screen';
import { AuditScreen } from '../audit/audit-screen';
import { CartSalesScreen } from '../cart/cart-sales-screen';
import { CatalogueScreen } from '../catalogue/catalogue-screen';
import { ManageScreen } from './manage-screen';
import { OutboxScreen } from '../outbox/outbox-screen';
import { QueueScreen } from '../queue/queue-screen';
import { RegistersScreen } from '../store/registers-screen';
import { ReportsScreen } from '../reports/reports-screen';
import { VaultScreen } from '../vault/vault-screen';
import { RecurringScreen } from '../recurring/recurring-screen';
import { BillingLinksScreen } from '../billing-links/billing-links-screen';
import { SaleScreen } from '../sales/sale-screen';
import { SettingsScreen } from '../settings/settings-screen';
import { SystemScreen } from './system-screen';
import { TransactionsScreen } from '../transactions/transactions-screen';

const SCREEN_VIEWS: Record<ScreenName, () => ReactElement> = {
  sale: () => <SaleScreen />,
  transactions: () => <TransactionsScreen />,
  system: () => <SystemScreen />,
  manage: () => <ManageScreen />,
  devices: () => <InstallerScreen />,
  batches: () => <BatchesScreen />,
  reports: () => <ReportsScreen />,
  vault: () => <VaultScreen />,
  recurring: () => <RecurringScreen />,
  paylinks: () => <BillingLinksScreen />,
  gateway: () => <GatewayScreen />,
  users: () => <CounterUsersScreen />,
  queue: () => <QueueScreen />,
  settings: () => <SettingsScreen />,
  audit: () => <AuditScreen />,
  outbox: () => <OutboxScreen />,
  catalogue: () => <CatalogueScreen />,
  cartsales: () => <CartSalesScreen />,
  registers: () => <RegistersScreen />,
};

export function renderScreen(id: ScreenName): ReactElement {
  return SCREEN_VIEWS[id]();
}
