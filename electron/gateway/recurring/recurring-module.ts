/**
 * The recurring module (migrations 400–499): the `recurring` resource, its four actions,
 * and the due work that runs recurrings (recurring-runner.ts). Charges go through the
 * payments module's transaction path, so it is created with the payments module.
 */
import type { EngineModule } from '../framework/context';
import type { PaymentsRuntime } from '../payments/payments-module';
import { registerRecurringActions } from './recurring-actions';
import { RECURRING_MIGRATIONS } from './recurring-migrations';
import { recurringOpenApi } from './recurring-openapi';
import { recurringResource } from './recurring-resource';
import { RecurringRunner } from './recurring-runner';

export function createRecurringModule(payments: { runtime(): PaymentsRuntime }): EngineModule {
  return {
    name: 'recurring',
    migrations: RECURRING_MIGRATIONS,
    resources: [recurringResource],
    routes: (app, ctx) => registerRecurringActions(app, ctx),
    openapi: recurringOpenApi,
    dueWork: (ctx) => new RecurringRunner(ctx, () => payments.runtime()).dueWork(),
  };
}
