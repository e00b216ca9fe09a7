/**
 * No import circle in the house (issue 22): the import graph of electron/, shared/, renderer/ and
 * test/ is built from the real files with TypeScript's module resolution, and any circle fails the
 * test with its path. `import type` edges count (see test/helpers/import-graph.ts for why): a circle
 * is broken by moving the piece both sides need into its own file, never by a lazy require.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildImportGraph, findCircles, findKnots, type ImportEdge, type ImportGraph } from '../helpers/import-graph';

const root = fileURLToPath(new URL('../../', import.meta.url));

let graph: ImportGraph | undefined;
/** Built once for the file: parsing and resolving every file of the house takes a few seconds. */
const house = (): ImportGraph => (graph ??= buildImportGraph(root));

const edge = (from: string, to: string): ImportEdge => ({ from, to, specifier: to, typeOnly: false });

describe('import circles', () => {
  it('the finder reports a circle with its path, once per knot, and nothing for a tree', () => {
    expect(findCircles([edge('a', 'b'), edge('b', 'c'), edge('a', 'c')])).toEqual([]);
    expect(findCircles([edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('c', 'd')])).toEqual([['a', 'b', 'c', 'a']]);
    // Two loops through one knot are one report; a separate knot is a second one.
    const knots = findCircles([edge('a', 'b'), edge('b', 'a'), edge('b', 'c'), edge('c', 'a'), edge('x', 'y'), edge('y', 'x')]);
    expect(knots).toHaveLength(2);
    expect(knots).toContainEqual(['x', 'y', 'x']);
    expect(findCircles([edge('s', 's')])).toEqual([['s', 's']]);
  });

  it('the graph resolves relative specifiers against the importing file (the core\'s gateway/ folder is not the engine)', () => {
    const { edges } = house();
    const from = (f: string) => edges.filter((e) => e.from === f).map((e) => e.to);
    // gateway-start.ts (the core's gateway slice) imports both the engine's entry and its own folder's supervisor.
    expect(from('electron/core/gateway/gateway-start.ts')).toContain('electron/gateway/engine.ts');
    expect(from('electron/core/gateway/gateway-start.ts')).toContain('electron/core/gateway/engine-supervisor.ts');
    // Type-only edges are in the graph, marked.
    expect(edges.some((e) => e.typeOnly)).toBe(true);
  });

  it('electron/, shared/, renderer/ and test/ hold no import circle, type-only imports included', () => {
    const { files, edges } = house();
    expect(files.length).toBeGreaterThan(500);
    // Each knot as one loop through it, then every file it ties together (where to look when breaking it).
    const circles = findKnots(edges).map((k) => `${k.loop.join(' → ')}  (ties ${k.files.length} files: ${k.files.join(', ')})`);
    expect(circles).toEqual([]);
  });

  // The lint rule (ringup/layer-imports) checks this file by file; here the same rule holds for the
  // real tree as TypeScript resolves it, .mjs tools included. Tests may reach inside the engine.
  it('outside electron/gateway/ and test/, the engine is imported only through engine.ts and engine-process-protocol.ts', () => {
    const entry = new Set(['electron/gateway/engine.ts', 'electron/gateway/engine-process-protocol.ts']);
    const deep = house()
      .edges.filter((e) => e.to.startsWith('electron/gateway/') && !e.from.startsWith('electron/gateway/') && !e.from.startsWith('test/') && !entry.has(e.to))
      .map((e) => `${e.from} → ${e.to}`);
    expect(deep).toEqual([]);
  });
});
