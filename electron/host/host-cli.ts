/**
 * `node build/node/host.mjs [--port P] [--data DIR] [--json] [--reason TEXT] [--idle-lock-seconds N] [--skip-first-run]`
 * Starts the core and serves the renderer on 127.0.0.1. `--json` prints one JSON line
 * (url, origin, token, dataDir, gateway) for scripts and tests. `--idle-lock-seconds`
 * overrides the store's idle-lock minutes (a kiosk that locks sooner; tests that
 * must not wait minutes). `--skip-first-run` takes the first-run default (the embedded
 * engine) without asking: scripted installs, and tests that start from a fresh folder.
 * The node host has no system browser of its own: an OAuth sign-in's login page is
 * opened by the renderer in a new tab.
 */
import { fileURLToPath } from 'node:url';
import { remoteGatewayFromEnv, startCore } from '../core/app-core';
import { argFlag, argPort, argValue, closeOnSignals } from '../common/cli-args';
import { resolveDataDir } from '../core/platform/data-dir';
import { forkEngine } from '../core/gateway/engine-supervisor';
import { startHost } from './host-server';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const dataDir = resolveDataDir(argv);
  // The engine runs in its own supervised child process (build/engine/engine-child.mjs).
  const engineEntry = fileURLToPath(new URL('../engine/engine-child.mjs', import.meta.url));
  const idleLockSeconds = Number(argValue(argv, 'idle-lock-seconds') ?? NaN);
  const timeoutMs = Number(process.env.RINGUP_GATEWAY_TIMEOUT_MS ?? '');
  const core = await startCore({
    dataDir,
    shell: 'node-host',
    remote: remoteGatewayFromEnv(),
    engineProcess: forkEngine(engineEntry),
    skipFirstRun: argFlag(argv, 'skip-first-run'),
    ...(Number.isFinite(idleLockSeconds) && idleLockSeconds > 0 ? { idleLockMs: idleLockSeconds * 1000 } : {}),
    ...(Number.isInteger(timeoutMs) && timeoutMs > 0 ? { gatewayTimeoutMs: timeoutMs } : {}),
  });
  const rendererDir = fileURLToPath(new URL('../renderer/', import.meta.url));
  const host = await startHost({
    core,
    rendererDir,
    port: argPort(argv) ?? 0,
    logError: (channel, err) => console.error(`[ipc] ${channel} failed:`, err instanceof Error ? err.message : err),
  });
  closeOnSignals(async () => {
    await host.close();
    await core.close();
  });

  const status = core.status();
  if (argFlag(argv, 'json')) {
    console.log(JSON.stringify({ url: host.url, origin: host.origin, token: host.token, dataDir, gateway: status.gateway }));
    return;
  }
  const reason = argValue(argv, 'reason');
  if (reason) console.log(`Electron is not available here: ${reason}`);
  console.log(`Ringup is running on the node host. Open this address in a browser on this computer:\n\n  ${host.url}\n`);
  console.log(`Data folder: ${dataDir}`);
  console.log(`Gateway (${status.gateway.mode}): ${status.gateway.baseUrl} — ${status.gateway.health}`);
  if (status.registerCopy) console.log(`\n${status.registerCopy}\n`);
  console.log('Press Ctrl+C to stop.');
}

main().catch((err: unknown) => {
  console.error(`Ringup could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
