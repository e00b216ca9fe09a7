/** The merchant module: the engine's core resources (issue 3). */
import type { EngineModule } from '../framework/context';
import { contactResource } from './contacts';
import { deviceTermResource } from './device-terms';
import { locationInfoResource, registerLocationInfoRoutes } from './location-infos';
import { locationResource, registerLocationRoutes } from './locations';
import { merchantOpenApi } from './merchant-openapi';
import { postbackConfigResource } from './postback-configs';
import { productTransactionResource } from './product-transactions';
import { scannerManufacturerResource, scannerModelResource, scannerResource } from './scanners';
import { merchantMigrations, merchantReferenceTables } from './schema-migrations';
import { tagResource } from './tags';
import { terminalApplicationResource, terminalManufacturerResource, terminalResource } from './terminals';
import { registerUserRoutes, userResource } from './users';

export const merchantModule: EngineModule = {
  name: 'merchant',
  migrations: merchantMigrations,
  referenceTables: merchantReferenceTables,
  resources: [
    userResource,
    locationResource,
    productTransactionResource,
    contactResource,
    tagResource,
    terminalManufacturerResource,
    terminalApplicationResource,
    terminalResource,
    scannerManufacturerResource,
    scannerModelResource,
    scannerResource,
    deviceTermResource,
    locationInfoResource,
    postbackConfigResource,
  ],
  openapi: merchantOpenApi,
  routes(app, ctx) {
    registerUserRoutes(app, ctx);
    registerLocationRoutes(app, ctx);
    registerLocationInfoRoutes(app, ctx);
  },
};
