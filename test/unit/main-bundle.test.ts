/**
 * Electron main keeps windows, printing, dialogs and safeStorage — nothing else (issue 22,
 * point 4): the core runs in its own utilityProcess. Bundled the way build.mjs bundles main, the
 * main process must carry none of the core — no SQLite, no serial ports, no engine, no domain
 * code — only what it needs to reach the core process and to hand events to its window.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('main bundle', () => {
  it('holds no core: its only packages are electron and zod (the contract), its only core files the data folder and the event filter', async () => {
    const out = await build({
      absWorkingDir: root,
      entryPoints: ['electron/main-entry.ts'],
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      packages: 'external',
      define: { __RINGUP_VERSION__: '"test"' },
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const main = Object.values(out.metafile.outputs)[0]!;
    const packages = new Set(main.imports.filter((i) => i.external && !i.path.startsWith('node:')).map((i) => i.path));
    expect(packages).toEqual(new Set(['electron', 'zod']));
    const inputs = Object.keys(out.metafile.inputs);
    expect(inputs.filter((f) => f.startsWith('electron/core/')).sort()).toEqual(['electron/core/platform/data-dir.ts', 'electron/core/platform/events.ts']);
    expect(inputs.filter((f) => /^electron\/(gateway|devices|client|host)\//.test(f))).toEqual([]);
    // What it does carry of the core process: how to start it and the shell port it serves.
    expect(inputs).toEqual(expect.arrayContaining(['electron/core-process/core-process.ts', 'electron/core-process/shell-port.ts', 'electron/secrets/safe-storage-store.ts']));
  });
});
