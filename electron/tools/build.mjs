#!/usr/bin/env node
// Builds what the app needs into build/:
//   build/main/main.mjs        Electron main      (esbuild, ESM)
//   build/preload/preload.cjs  Electron preload   (esbuild, CommonJS: sandboxed preloads cannot be ESM)
//   build/node/host.mjs        node host          (esbuild, ESM)
//   build/node/gateway-cli.mjs standalone engine  (esbuild, ESM)
//   build/node/sim-cli.mjs     device simulators  (esbuild, ESM)
//   build/node/store-cli.mjs   the store server   (esbuild, ESM)
//   build/core/core-child.mjs  the core's own process: Electron's utilityProcess, the node host's child
//   build/core/report-reader.mjs the core's worker thread that reads a report's ringup.db figures
//   build/engine/engine-child.mjs the engine's own process, forked by the core process
//   build/renderer/            React renderer     (vite)
//   build/vendor/scalar-standalone.js  the engine's API reference renderer (copied from the dev
//                              dependency @scalar/api-reference, so the packaged app ships 3.5 MB, not its 84 MB tree)
// Usage: node electron/tools/build.mjs [--quiet] [--only node|renderer]
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));
const argv = process.argv.slice(2);
const quiet = argv.includes('--quiet');
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined;
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const define = { __RINGUP_VERSION__: JSON.stringify(pkg.version) };
const log = (msg) => quiet || console.log(msg);

async function buildNode() {
  const common = {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    define,
    logLevel: 'warning',
  };
  const started = Date.now();
  await Promise.all([
    esbuild({ ...common, entryPoints: ['electron/main-entry.ts'], outfile: 'build/main/main.mjs', format: 'esm' }),
    // A sandboxed preload can require only 'electron' and a few built-ins, so everything else is bundled in.
    esbuild({ ...common, packages: undefined, external: ['electron'], entryPoints: ['electron/preload.ts'], outfile: 'build/preload/preload.cjs', format: 'cjs', platform: 'browser' }),
    esbuild({ ...common, entryPoints: ['electron/host/host-cli.ts'], outfile: 'build/node/host.mjs', format: 'esm' }),
    esbuild({ ...common, entryPoints: ['electron/gateway/gateway-cli.ts'], outfile: 'build/node/gateway-cli.mjs', format: 'esm' }),
    esbuild({ ...common, entryPoints: ['electron/devices/sim/sim-cli.ts'], outfile: 'build/node/sim-cli.mjs', format: 'esm' }),
    esbuild({ ...common, entryPoints: ['electron/store-server/store-cli.ts'], outfile: 'build/node/store-cli.mjs', format: 'esm' }),
    esbuild({ ...common, entryPoints: ['electron/core-process/core-child.ts'], outfile: 'build/core/core-child.mjs', format: 'esm' }),
    esbuild({ ...common, entryPoints: ['electron/core/reports/report-reader-worker.ts'], outfile: 'build/core/report-reader.mjs', format: 'esm' }),
    esbuild({ ...common, entryPoints: ['electron/gateway/engine-child.ts'], outfile: 'build/engine/engine-child.mjs', format: 'esm' }),
  ]);
  mkdirSync(`${root}build/vendor`, { recursive: true });
  copyFileSync(createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'), `${root}build/vendor/scalar-standalone.js`);
  log(`built main, preload, host, core, gateway, store server and simulators in ${Date.now() - started} ms`);
}

async function buildRenderer() {
  const { build } = await import('vite');
  const started = Date.now();
  await build({ configFile: `${root}renderer/vite.config.ts`, logLevel: quiet ? 'error' : 'warn' });
  log(`built renderer in ${Date.now() - started} ms`);
}

try {
  if (!only || only === 'node') await buildNode();
  if (!only || only === 'renderer') await buildRenderer();
} catch (err) {
  console.error(`Build failed: ${err?.message ?? err}`);
  process.exit(1);
}
