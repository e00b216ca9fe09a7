/**
 * What `npm run bench:queue` (queue-bench.mjs) runs, bundled by it with esbuild: the core's
 * real offline queue, forwarder, app database and gateway client.
 */
export { GatewayClient } from '../../electron/client/gateway-client';
export { OfflineForwarder } from '../../electron/core/queue/offline-forwarder';
export { OfflineQueue } from '../../electron/core/queue/offline-queue';
export { openPosDatabase, startPosCheckpointer } from '../../electron/core/platform/pos-database';
export { DEFAULT_STORE_SETTINGS } from '../../shared/ipc/settings';
