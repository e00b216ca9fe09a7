/**
 * The engine's modules import one another without circles (issue 19, point 9): every
 * import and export-from under electron/gateway/ (type-only ones included, as madge counts
 * them) forms a graph without a cycle. A circle means two files are one concept or a
 * declaration depends on what it declares for; the test names the files of each circle.
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(__dirname, '../../electron/gateway');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Relative imports of a file, resolved to files under ROOT. */
function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out = new Set<string>();
  for (const m of src.matchAll(/^\s*(?:import|export)\s[^'";]*?['"](\.[^'"]+)['"]/gm)) {
    const target = resolve(dirname(file), m[1] as string);
    const path = target.endsWith('.ts') ? target : `${target}.ts`;
    if (existsSync(path)) out.add(path);
  }
  return [...out];
}

/** Strongly connected components of more than one file (Tarjan), as paths relative to ROOT. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        group.push(relative(ROOT, w));
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('electron/gateway imports', () => {
  test('the scanner finds a circle when there is one', () => {
    const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
    expect(circles(g).map((c) => c.length)).toEqual([3]);
  });

  test('form no circle (framework/ and payments/ included)', () => {
    const files = tsFiles(ROOT);
    expect(files.length).toBeGreaterThan(100);
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    expect(circles(graph)).toEqual([]);
  });
});
