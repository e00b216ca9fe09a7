/**
 * A test's child process (a register or a queue the test kills with SIGKILL) bundled with
 * esbuild to build/test/<name>.mjs: under build/ so the bundle's external packages resolve
 * from the repo's node_modules. Answers the bundle's path, to run with `node`.
 */
import { join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('../../', import.meta.url).pathname;

export async function bundleTestChild(entryPoint: string, name: string): Promise<string> {
  const outfile = join(root, `build/test/${name}.mjs`);
  await build({
    absWorkingDir: root,
    entryPoints: [entryPoint],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}
