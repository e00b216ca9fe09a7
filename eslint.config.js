// Lint for every layer. The import-direction rule (after VS Code's code-layering) is
// the heart of it: shared/ is pure, renderer/ talks to the core only through the IPC
// contract, and only main.ts, preload.ts and the safeStorage adapter may import electron.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const electronOnly = {
  name: 'electron',
  message: 'Only electron/main.ts, electron/preload.ts and electron/secrets/safe-storage-store.ts may import electron; the core must run in plain Node.',
};

/** Files allowed to import 'electron'. */
export const ELECTRON_IMPORTERS = ['electron/main.ts', 'electron/preload.ts', 'electron/secrets/safe-storage-store.ts'];

export const layerRules = [
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electronOnly],
        patterns: [
          { regex: '^node:', message: 'shared/ runs in the renderer too: no node:* imports.' },
          { regex: '^(fs|path|os|crypto|child_process|net|http|https|url|util|events|stream)$', message: 'shared/ runs in the renderer too: no Node built-ins.' },
          { regex: '(^|/)(electron|renderer)/', message: 'shared/ must not import from electron/ or renderer/.' },
          { regex: '^\\.\\./(\\.\\./)*(electron|renderer|test)(/|$)', message: 'shared/ must not import from electron/, renderer/ or test/.' },
        ],
      }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    ignores: ['renderer/vite.config.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electronOnly],
        patterns: [
          { regex: '^node:', message: 'The renderer has no Node: talk to the core through window.ringup.' },
          { regex: '^\\.\\./(\\.\\./)*electron(/|$)', message: 'The renderer must not import from electron/: use the IPC contract in shared/ipc.' },
          { regex: '^(better-sqlite3|serialport|fastify|ws|electron-store)$', message: 'Main-process packages are not for the renderer.' },
        ],
      }],
    },
  },
  {
    files: ['electron/**/*.ts'],
    ignores: ELECTRON_IMPORTERS,
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electronOnly],
        patterns: [{ regex: '^\\.\\./(\\.\\./)*renderer(/|$)', message: 'The core must not import renderer code.' }],
      }],
    },
  },
  {
    // Device drivers and simulators are imported by both the core and the engine, so they
    // import neither (nor the renderer): only shared/, Node and device packages.
    files: ['electron/devices/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electronOnly],
        patterns: [
          { regex: '^\\.\\./(\\.\\./)*renderer(/|$)', message: 'The core must not import renderer code.' },
          { regex: '^\\.\\./(\\.\\./)*(core|gateway)(/|$)', message: 'electron/devices/ is shared by the core and the engine: it must not import either.' },
        ],
      }],
    },
  },
  {
    // The engine stands alone (standalone CLI, its own process): nothing from the app's core.
    files: ['electron/gateway/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electronOnly],
        patterns: [
          { regex: '^\\.\\./(\\.\\./)*renderer(/|$)', message: 'The core must not import renderer code.' },
          { regex: '^(\\.\\./)+core(/|$)', message: 'The engine must not import from electron/core/: move what it needs under electron/gateway/.' },
        ],
      }],
    },
  },
];

export default tseslint.config(
  { ignores: ['build/**', 'dist/**', 'node_modules/**', 'test/output/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  ...layerRules,
);
