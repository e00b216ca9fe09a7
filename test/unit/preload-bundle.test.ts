/**
 * A sandboxed preload may require only 'electron' (and a few built-ins); anything else
 * fails at window start-up, which no mocked unit test would notice. Build it and look.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('preload bundle', () => {
  beforeAll(() => {
    execFileSync(process.execPath, ['electron/tools/build.mjs', '--only', 'node', '--quiet'], { cwd: root });
  });

  it('is CommonJS and requires nothing but electron', () => {
    const code = readFileSync(`${root}build/preload/preload.cjs`, 'utf8');
    const required = [...code.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(code).not.toMatch(/^\s*import\s/m);
  });
});
