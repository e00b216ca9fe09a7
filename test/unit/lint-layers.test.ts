/**
 * The import-direction rules are only worth something if they bite: lint a few bad
 * imports with the project's own ESLint config and check each is rejected, while
 * the same imports in an allowed place pass. Relative specifiers are resolved against
 * the file (ringup/layer-imports in eslint.config.js), so the same text can be refused in
 * one folder and allowed in another.
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` });
  const fatal = result!.messages.filter((m) => m.fatal);
  expect(fatal).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'ringup/layer-imports').map((m) => m.message);
}

describe('layer import rule', () => {
  it.each([
    ['shared/ imports electron', 'shared/bad.ts', "import { app } from 'electron';\nexport const x = app;\n"],
    ['shared/ imports node:fs', 'shared/bad.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n"],
    ['shared/ imports a bare Node built-in', 'shared/ipc/bad.ts', "import path from 'path';\nexport const x = path;\n"],
    ['shared/ imports the core', 'shared/bad.ts', "import { startCore } from '../electron/core/app-core';\nexport const x = startCore;\n"],
    ['shared/ imports the renderer', 'shared/ipc/bad.ts', "import { App } from '../../renderer/src/app';\nexport const x = App;\n"],
    ['the renderer imports the core', 'renderer/src/bad.ts', "import { startCore } from '../../electron/core/app-core';\nexport const x = startCore;\n"],
    ['the renderer imports electron', 'renderer/src/bad.ts', "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n"],
    ['the renderer imports node:fs', 'renderer/src/bad.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n"],
    ['the core imports electron', 'electron/core/bad.ts', "import { app } from 'electron';\nexport const x = app;\n"],
    ['a device driver imports the core', 'electron/devices/bad.ts', "import { startCore } from '../core/app-core';\nexport const x = startCore;\n"],
    ['a simulator imports the engine', 'electron/devices/sim/bad.ts', "import { createEngine } from '../../gateway/engine';\nexport const x = createEngine;\n"],
    ['the engine imports electron', 'electron/gateway/bad.ts', "import { safeStorage } from 'electron';\nexport const x = safeStorage;\n"],
    ['the engine imports the core', 'electron/gateway/bad.ts', "import { openDatabase } from '../core/sqlite';\nexport const x = openDatabase;\n"],
    ['an engine module imports the core', 'electron/gateway/payments/bad.ts', "import { startCore } from '../../core/app-core';\nexport const x = startCore;\n"],
    ['the engine imports renderer code', 'electron/gateway/bad.ts', "import { App } from '../../renderer/src/app';\nexport const x = App;\n"],
    // The core reaches the engine only through engine.ts and the process protocol (issue 22, point 5).
    ['the core reaches inside the engine', 'electron/core/ok.ts', "import { openDatabase } from '../gateway/framework/database';\nexport const x = openDatabase;\n"],
    ['a core slice reads the engine\'s sealed meta', 'electron/core/gateway/bad.ts', "import { unsealMetaValue } from '../../gateway/framework/engine-meta';\nexport const x = unsealMetaValue;\n"],
    ['a core slice imports an engine module by type only', 'electron/core/recurring/bad.ts', "import type { EngineContext } from '../../gateway/framework/context';\nexport type X = EngineContext;\n"],
    ['a core slice re-exports from the engine', 'electron/core/platform/bad.ts', "export { keepWalBounded } from '../../gateway/payments/wal-restart';\n"],
    ['a core slice loads an engine module lazily', 'electron/core/sales/bad.ts', "export const load = () => import('../../gateway/merchant/seed');\n"],
    ['the node host reaches inside the engine', 'electron/host/bad.ts', "import { MovableClock } from '../gateway/framework/clock';\nexport const x = MovableClock;\n"],
    ['main reaches inside the engine', 'electron/main.ts', "import { defaultModules } from './gateway/engine-modules';\nexport const x = defaultModules;\n"],
    ['the shared helpers import the core', 'electron/common/bad.ts', "import { startCore } from '../core/app-core';\nexport const x = startCore;\n"],
    ['the shared helpers import the engine', 'electron/common/bad.ts', "import { startEngine } from '../gateway/engine';\nexport const x = startEngine;\n"],
    ['the engine imports the node host', 'electron/gateway/recurring/bad.ts', "import { startHost } from '../../host/host-server';\nexport const x = startHost;\n"],
  ])('rejects: %s', async (_name, file, code) => {
    const errors = await layerErrors(file, code);
    expect(errors.length).toBeGreaterThan(0);
  });

  it.each([
    ['main imports electron', 'electron/main.ts', "import { app } from 'electron';\nexport const x = app;\n"],
    ['preload imports electron', 'electron/preload.ts', "import { contextBridge } from 'electron';\nexport const x = contextBridge;\n"],
    ['the core imports node:fs', 'electron/core/ok.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n"],
    ['the core imports the engine\'s entry', 'electron/core/ok.ts', "import { startEngine } from '../gateway/engine';\nexport const x = startEngine;\n"],
    ['a core slice imports the engine\'s process protocol', 'electron/core/gateway/ok.ts', "import type { ToEngine } from '../../gateway/engine-process-protocol';\nexport type X = ToEngine;\n"],
    ['main imports the engine\'s process protocol', 'electron/main.ts', "import type { FromEngine } from './gateway/engine-process-protocol';\nexport type X = FromEngine;\n"],
    // The same text as a refusal above, from a core slice: the core's own gateway folder, not the engine.
    ['a core slice imports the core\'s own gateway folder', 'electron/core/sales/ok.ts', "import { guardedCall } from '../gateway/guarded-call';\nexport const x = guardedCall;\n"],
    ['the core imports the shared helpers', 'electron/core/platform/ok.ts', "import { openDatabase } from '../../common/sqlite';\nexport const x = openDatabase;\n"],
    ['the engine imports the shared helpers', 'electron/gateway/payments/ok.ts', "import { WalCheckpointer } from '../../common/wal-checkpointer';\nexport const x = WalCheckpointer;\n"],
    ['the node host imports the shared helpers', 'electron/host/ok.ts', "import { argPort } from '../common/cli-args';\nexport const x = argPort;\n"],
    ['the engine imports its own framework', 'electron/gateway/payments/ok.ts', "import { openDatabase } from '../framework/database';\nexport const x = openDatabase;\n"],
    ['the renderer imports the contract', 'renderer/src/ok.ts', "import { channels } from '../../shared/ipc/contract';\nexport const x = channels;\n"],
    ['the engine imports a device driver', 'electron/gateway/ok.ts', "import { TerminalDriver } from '../devices/terminal-driver';\nexport const x = TerminalDriver;\n"],
    ['the core imports a device driver', 'electron/core/ok.ts', "import { TerminalDriver } from '../devices/terminal-driver';\nexport const x = TerminalDriver;\n"],
    ['shared/ imports shared/', 'shared/ipc/ok.ts', "import { ok } from '../result';\nexport const x = ok;\n"],
  ])('allows: %s', async (_name, file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });
});
