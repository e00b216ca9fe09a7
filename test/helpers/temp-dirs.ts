/**
 * Temporary folders for one test file: `newDir(prefix)` makes one under the system's temp
 * folder, `keep(dir)` adds one made another way (a folder renamed by the test), and every one
 * is removed after the file's tests (an afterAll registered by the call; vitest runs after-hooks
 * in reverse order, so a file's own afterAll registered later — closing its cores — runs first).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function tempDirs(): { newDir: (prefix: string) => string; keep: (dir: string) => void } {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return {
    newDir: (prefix) => {
      const d = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    },
    keep: (dir) => {
      dirs.push(dir);
    },
  };
}
