// Lint for every layer. The import-direction rules (after VS Code's code-layering) are
// the heart of it: shared/ is pure, renderer/ talks to the core only through the IPC
// contract, the core reaches the engine only through its public entry, and only main.ts,
// preload.ts and the safeStorage adapter may import electron.
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const ROOT = dirname(fileURLToPath(import.meta.url));

const electronOnly = {
  name: 'electron',
  message: 'Only electron/main.ts, electron/preload.ts and electron/secrets/safe-storage-store.ts may import electron; the core must run in plain Node.',
};

/** Files allowed to import 'electron'. */
export const ELECTRON_IMPORTERS = ['electron/main.ts', 'electron/preload.ts', 'electron/secrets/safe-storage-store.ts'];

/** The engine's public entry: what the rest of the app may import from electron/gateway/ (extension-less, as importTarget answers). */
export const ENGINE_ENTRY = ['electron/gateway/engine', 'electron/gateway/engine-process-protocol'];

/**
 * Where a relative import points, repo-relative with forward slashes and without its extension;
 * undefined for packages and Node built-ins. Resolved against the importing file, because the
 * same text means different places: `../gateway/guarded-call` from electron/core/sales/ is the
 * core's own gateway folder, `../../gateway/engine` is the engine.
 */
export function importTarget(importerFile, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const target = relative(ROOT, resolve(dirname(importerFile), specifier)).split(sep).join('/');
  return target.replace(/\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/, '');
}

/**
 * `ringup/layer-imports`: each option names a place (a folder or a file, repo-relative, without
 * extension) that the linted files may not import, with the files of it they may (`except`),
 * and the message. A few lines instead of no-restricted-imports' patterns, which match the
 * specifier's text and so cannot tell `../gateway/x` in one folder from the same text in another.
 */
const layerImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Import direction between the layers, with each specifier resolved against the importing file.' },
    schema: [
      {
        type: 'array',
        items: {
          type: 'object',
          properties: { into: { type: 'string' }, except: { type: 'array', items: { type: 'string' } }, message: { type: 'string' } },
          required: ['into', 'message'],
          additionalProperties: false,
        },
      },
    ],
  },
  create(context) {
    const forbidden = context.options[0] ?? [];
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = importTarget(context.filename, source.value);
      if (target === undefined) return;
      const rule = forbidden.find((f) => (target === f.into || target.startsWith(`${f.into}/`)) && !(f.except ?? []).includes(target));
      if (rule) context.report({ node: source, message: rule.message });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.source),
    };
  },
};

const ringupPlugin = { rules: { 'layer-imports': layerImports } };

const noRenderer = { into: 'renderer', message: 'Code under electron/ must not import renderer code.' };
/** Everything under electron/ but the shared helpers, for the places that may import none of it. */
const ELECTRON_PARTS = ['core', 'gateway', 'devices', 'host', 'ipc', 'client', 'secrets', 'tools', 'main', 'main-entry', 'preload', 'store-server'];

/** Each layer's forbidden places, resolved (ringup/layer-imports). Globs are disjoint: a later block would replace an earlier one's list. */
export const LAYER_IMPORTS = [
  {
    files: ['shared/**/*.ts'],
    forbid: [
      { into: 'electron', message: 'shared/ must not import from electron/: it runs in the renderer too.' },
      { into: 'renderer', message: 'shared/ must not import from renderer/.' },
      { into: 'test', message: 'shared/ must not import from test/.' },
    ],
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    ignores: ['renderer/vite.config.ts'],
    forbid: [{ into: 'electron', message: 'The renderer must not import from electron/: use the IPC contract in shared/ipc.' }],
  },
  {
    // The core, the node host, the gateway client, main and preload: the engine only through its entry.
    files: ['electron/**/*.ts'],
    ignores: ['electron/gateway/**', 'electron/devices/**', 'electron/common/**', 'electron/store-server/**'],
    forbid: [
      noRenderer,
      {
        into: 'electron/gateway',
        except: ENGINE_ENTRY,
        message: 'Outside the engine, import it only through electron/gateway/engine.ts (or engine-process-protocol.ts); what both need belongs in electron/common/.',
      },
    ],
  },
  {
    // The store server (issue 24) runs on a back-office machine: shared/, electron/common/ and the engine's entry (--engine), nothing of a register's core.
    files: ['electron/store-server/**/*.ts'],
    forbid: [
      noRenderer,
      {
        into: 'electron/gateway',
        except: ENGINE_ENTRY,
        message: 'The store server reaches the engine only through electron/gateway/engine.ts.',
      },
      ...['core', 'host', 'ipc', 'client', 'main', 'preload', 'devices', 'secrets'].map((part) => ({
        into: `electron/${part}`,
        message: `The store server must not import from electron/${part}: it imports only itself, electron/common/, the engine's entry and shared/.`,
      })),
    ],
  },
  {
    // The engine stands alone (standalone CLI, its own process): nothing from the app's core.
    files: ['electron/gateway/**/*.ts'],
    forbid: [
      noRenderer,
      ...['core', 'host', 'ipc', 'client', 'main', 'preload'].map((part) => ({
        into: `electron/${part}`,
        message: `The engine must not import from electron/${part}: it imports only itself, electron/common/, electron/devices/, the secret stores and shared/.`,
      })),
    ],
  },
  {
    // Device drivers and simulators are imported by both the core and the engine, so they import neither.
    files: ['electron/devices/**/*.ts'],
    forbid: [
      noRenderer,
      ...['core', 'gateway', 'host', 'ipc', 'client'].map((part) => ({
        into: `electron/${part}`,
        message: `electron/devices/ is shared by the core and the engine: it must not import from electron/${part}.`,
      })),
    ],
  },
  {
    // What the core and the engine both need (SQLite opener, WAL checkpointer, run dates, CLI arguments).
    files: ['electron/common/**/*.ts'],
    forbid: [
      noRenderer,
      ...ELECTRON_PARTS.map((part) => ({
        into: `electron/${part}`,
        message: 'electron/common/ is imported by the core and the engine alike: it imports only itself, shared/ and packages.',
      })),
    ],
  },
];

export const layerRules = [
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electronOnly],
        patterns: [
          { regex: '^node:', message: 'shared/ runs in the renderer too: no node:* imports.' },
          { regex: '^(fs|path|os|crypto|child_process|net|http|https|url|util|events|stream)$', message: 'shared/ runs in the renderer too: no Node built-ins.' },
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
          { regex: '^(better-sqlite3|serialport|fastify|ws|electron-store)$', message: 'Main-process packages are not for the renderer.' },
        ],
      }],
    },
  },
  {
    files: ['electron/**/*.ts'],
    ignores: ELECTRON_IMPORTERS,
    rules: { 'no-restricted-imports': ['error', { paths: [electronOnly] }] },
  },
  ...LAYER_IMPORTS.map(({ files, ignores, forbid }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    plugins: { ringup: ringupPlugin },
    rules: { 'ringup/layer-imports': ['error', forbid] },
  })),
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
