/**
 * What `npm run bench:queue` (queue-bench.mjs) runs, bundled by it with esbuild: the core's
 * real offline queue, forwarder, app database and gateway client.
 */
export { GatewayClient } from '../../electron/client/gateway-client';
export { OfflineForwarder } from '../../electron/core/offline-forwarder';
export { OfflineQueue } from '../../electron/core/offline-queue';
export { openPosDatabase, startPosCheckpointer } from '../../electron/core/pos-database';
export { DEFAULT_STORE_SETTINGS } from '../../shared/ipc/settings';
