/**
 * `node build/node/host.mjs [--port P] [--data DIR] [--json] [--reason TEXT] [--idle-lock-seconds N] [--skip-first-run] [--display]`
 * Serves the renderer on 127.0.0.1 and runs the core in a child process
 * (build/core/core-child.mjs: core-process/core-process.ts). `--json` prints one JSON line
 * (url, displayUrl, origin, token, dataDir, gateway — the gateway as the core process said when ready)
 * for scripts and tests. `--idle-lock-seconds` overrides the store's idle-lock minutes (a kiosk
 * that locks sooner; tests that must not wait minutes). `--skip-first-run` takes the first-run
 * default (the embedded engine) without asking: scripted installs, and tests that start from a
 * fresh folder. The node host has no system browser of its own: an OAuth sign-in's login page
 * is opened by the renderer in a new tab. `--display` prints the customer display's address beside
 * the app's (display-address.ts), for the screen that faces the customer.
 *
 * Ctrl+C or SIGTERM closes the bridge, then asks the core to close (it stops the engine and
 * checkpoints SQLite) and waits for it. If the core process ends on its own, the host says so
 * on stderr and exits with status 1 (core-process.ts says why it is not restarted).
 */
import { fileURLToPath } from 'node:url';
import { argFlag, argPort, argValue } from '../common/cli-args';
import { resolveDataDir } from '../core/platform/data-dir';
import { forkCore, startCoreProcess, type CoreProcess } from '../core-process/core-process';
import { displayUrlOf } from './display-address';
import { HOST_MESSAGES, startHost, type RunningHost } from './host-server';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const dataDir = resolveDataDir(argv);
  // Both are built beside this file's folder: build/core/ and build/engine/.
  const coreEntry = fileURLToPath(new URL('../core/core-child.mjs', import.meta.url));
  const engineEntry = fileURLToPath(new URL('../engine/engine-child.mjs', import.meta.url));
  const idleLockSeconds = Number(argValue(argv, 'idle-lock-seconds') ?? NaN);
  const timeoutMs = Number(process.env.RINGUP_GATEWAY_TIMEOUT_MS ?? '');

  // What is running so far: a signal may come before either is up.
  const running: { host?: RunningHost; core?: CoreProcess } = {};
  let closing = false;
  const close = async (code: number) => {
    if (closing) return;
    closing = true;
    try {
      await running.host?.close();
      await running.core?.close();
    } finally {
      process.exit(code);
    }
  };
  // Registered before anything starts: a signal during start-up still stops the core process.
  process.on('SIGINT', () => void close(0));
  process.on('SIGTERM', () => void close(0));

  const rendererDir = fileURLToPath(new URL('../renderer/', import.meta.url));
  const host = await startHost({
    rendererDir,
    port: argPort(argv) ?? 0,
    core: async (allowedOrigins) => {
      const core = await startCoreProcess(forkCore(coreEntry), {
        dataDir,
        shell: 'node-host',
        allowedOrigins: [...allowedOrigins],
        engineEntry,
        skipFirstRun: argFlag(argv, 'skip-first-run'),
        ...(Number.isFinite(idleLockSeconds) && idleLockSeconds > 0 ? { idleLockMs: idleLockSeconds * 1000 } : {}),
        ...(Number.isInteger(timeoutMs) && timeoutMs > 0 ? { gatewayTimeoutMs: timeoutMs } : {}),
      });
      core.onUnexpectedExit((how) => {
        console.error(HOST_MESSAGES.coreExited.replace('{how}', how));
        void close(1);
      });
      running.core = core;
      return core;
    },
  });

  running.host = host;
  const status = running.core!.status();
  if (argFlag(argv, 'json')) {
    console.log(JSON.stringify({ url: host.url, displayUrl: displayUrlOf(host.url), origin: host.origin, token: host.token, dataDir, gateway: status.gateway }));
    return;
  }
  const reason = argValue(argv, 'reason');
  if (reason) console.log(`Electron is not available here: ${reason}`);
  console.log(`Ringup is running on the node host. Open this address in a browser on this computer:\n\n  ${host.url}\n`);
  if (argFlag(argv, 'display')) console.log(`The customer display: open this address on the screen that faces the customer:\n\n  ${displayUrlOf(host.url)}\n`);
  console.log(`Data folder: ${dataDir}`);
  console.log(`Gateway (${status.gateway.mode}): ${status.gateway.baseUrl} — ${status.gateway.health}`);
  if (status.registerCopy) console.log(`\n${status.registerCopy}\n`);
  console.log('Press Ctrl+C to stop.');
}

main().catch((err: unknown) => {
  console.error(`Ringup could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
