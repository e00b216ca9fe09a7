import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react()],
  define: { __RINGUP_VERSION__: JSON.stringify(pkg.version) },
  build: {
    outDir: fileURLToPath(new URL('../build/renderer', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    // No inline scripts or eval: the CSP forbids both.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
