/**
 * The engine's modules, in order. The merchant module comes first (its migrations are
 * 1–99 and its seed runs first). Other modules (payments: migrations 100–199) are
 * registered by adding one import and one entry here.
 */
import type { EngineModule } from './framework/context';
import { merchantModule } from './merchant/module';
import { createPaymentsModule } from './payments/payments-module';
import { createRouterModule } from './router/router-module';
import { createOAuthModule } from './oauth/oauth-module';
import { sandboxClockModule } from './sandbox-clock/sandbox-clock-module';
import { createBillingLinksModule } from './billing-links/billing-links-module';
import { createRecurringModule } from './recurring/recurring-module';
import { createPostbacksModule } from './postbacks/postbacks-module';
import { createBatchCloseModule } from './payments/batch-close-module';
import { createNotificationsModule } from './notifications/notifications-module';
import { invoiceFileAttachments } from './billing-links/invoice-notices';

export function defaultModules(): EngineModule[] {
  const payments = createPaymentsModule();
  const notifications = createNotificationsModule();
  // E-mailed invoices carry their stored files (quick invoices with attach_files_to_email).
  notifications.addAttachmentSource(invoiceFileAttachments);
  // Postbacks after every module whose writes or due work announce record events (recurring
  // charges, batch auto-close), so a clock advance delivers what the earlier due work produced.
  return [
    merchantModule,
    payments,
    createRouterModule(payments),
    createOAuthModule(),
    createRecurringModule(payments),
    createBillingLinksModule(payments),
    createBatchCloseModule(payments),
    createPostbacksModule(),
    notifications,
    sandboxClockModule,
  ];
}
