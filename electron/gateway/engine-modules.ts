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

export function defaultModules(): EngineModule[] {
  const payments = createPaymentsModule();
  return [merchantModule, payments, createRouterModule(payments), createOAuthModule(), sandboxClockModule, createBillingLinksModule(payments)];
}
