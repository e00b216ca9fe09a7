import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __RINGUP_VERSION__: JSON.stringify(pkg.version) },
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/unit/**/*.test.ts', 'test/gateway/**/*.test.ts', 'test/devices/**/*.test.ts', 'test/store/**/*.test.ts'],
    environment: 'node',
    // The node host's keys go to a temporary folder, never the home folder.
    setupFiles: ['test/helpers/keys-dir-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
