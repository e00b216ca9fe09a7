/**
 * The house's import graph, built from the real files with TypeScript's own parser and module
 * resolution (the same resolution `tsc -p` uses, so `../gateway/x` from electron/core/sales/ is
 * the core's own gateway folder and `../../gateway/x` is the engine). Used by the import-circle
 * test and by anyone who wants to ask "who imports what" of the tree as it is on disk.
 *
 * Every edge says whether it is erased at run time (`import type`, `export type`, an import
 * whose every named binding is `type`, an `import('x')` type). The circle test counts those
 * too: a type-only circle still ties two files together (neither can move or be read alone),
 * and the issue asks for no circle, not for no circle that survives the build.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** Repo-relative, forward slashes. */
  from: string;
  to: string;
  specifier: string;
  /** Erased at run time: the edge exists for the type checker only. */
  typeOnly: boolean;
}

export interface ImportGraph {
  files: string[];
  edges: ImportEdge[];
}

/** The folders the graph is built from: everything the project wrote, tests and their helpers included. */
export const GRAPH_ROOTS = ['electron', 'shared', 'renderer', 'test'];

const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'output', 'test-results', 'build', 'dist']);

function listSources(root: string, dir: string, out: string[]): void {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) listSources(root, rel, out);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(rel);
    }
  }
}

const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowJs: true,
  resolveJsonModule: true,
  jsx: ts.JsxEmit.ReactJSX,
};

interface RawImport {
  specifier: string;
  typeOnly: boolean;
}

/** Every module specifier a file names: static imports and re-exports, `import()`, `require()` and `import('x')` types. */
function importsOf(file: string, text: string): RawImport[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : file.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const found: RawImport[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly || (clause.name === undefined && named !== undefined && named.length > 0 && named.every((e) => e.isTypeOnly)));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      const typeOnly = node.isTypeOnly || (named !== undefined && named.length > 0 && named.every((e) => e.isTypeOnly));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      found.push({ specifier: node.moduleReference.expression.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0]!)) {
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isImport || isRequire) found.push({ specifier: (node.arguments[0] as ts.StringLiteralLike).text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Resolves `specifier` as written in `fromFile` (repo-relative) to a repo-relative file, or undefined for packages and built-ins. */
export function resolveImport(root: string, fromFile: string, specifier: string, cache?: ts.ModuleResolutionCache): string | undefined {
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) return undefined;
  const resolved = ts.resolveModuleName(specifier, join(root, fromFile), OPTIONS, ts.sys, cache).resolvedModule;
  if (!resolved || resolved.isExternalLibraryImport) return undefined;
  const rel = relative(root, resolved.resolvedFileName).split(sep).join('/');
  return rel.startsWith('..') ? undefined : rel;
}

export function buildImportGraph(root: string, roots: readonly string[] = GRAPH_ROOTS): ImportGraph {
  const files: string[] = [];
  for (const r of roots) listSources(root, r, files);
  files.sort();
  const edges: ImportEdge[] = [];
  const cache = ts.createModuleResolutionCache(root, (f) => f, OPTIONS);
  for (const from of files) {
    for (const imp of importsOf(from, readFileSync(join(root, from), 'utf8'))) {
      const to = resolveImport(root, from, imp.specifier, cache);
      if (to !== undefined) edges.push({ from, to, specifier: imp.specifier, typeOnly: imp.typeOnly });
    }
  }
  return { files, edges };
}

/**
 * Every import circle, each as one path that closes on its first file (a → b → c → a), one per
 * strongly connected component (Tarjan), so a knot of many files is reported once with a
 * concrete loop through it rather than as every loop it contains.
 */
export function findCircles(edges: readonly ImportEdge[]): string[][] {
  return findKnots(edges).map((k) => k.loop);
}

export interface ImportKnot {
  /** Every file of the strongly connected component, sorted. */
  files: string[];
  /** One shortest loop through its first file. */
  loop: string[];
}

/** The strongly connected components of the graph that hold a loop, each with one loop through it. */
export function findKnots(edges: readonly ImportEdge[]): ImportKnot[] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    const list = next.get(e.from) ?? [];
    if (!list.includes(e.to)) list.push(e.to);
    next.set(e.from, list);
  }
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;

  // Iterative Tarjan: the house has thousands of files and a deep import chain would overflow a recursive one.
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; i: number }> = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const succ = next.get(top.node) ?? [];
      if (top.i < succ.length) {
        const w = succ[top.i++]!;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, i: 0 });
        } else if (onStack.has(w)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!));
        }
      } else {
        work.pop();
        if (work.length > 0) {
          const parent = work[work.length - 1]!.node;
          low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
        }
        if (low.get(top.node) === index.get(top.node)) {
          const comp: string[] = [];
          let w: string;
          do {
            w = stack.pop()!;
            onStack.delete(w);
            comp.push(w);
          } while (w !== top.node);
          const selfLoop = comp.length === 1 && (next.get(comp[0]!) ?? []).includes(comp[0]!);
          if (comp.length > 1 || selfLoop) components.push(comp);
        }
      }
    }
  }
  return components.map((comp) => {
    const files = comp.sort();
    return { files, loop: loopThrough(files, next) };
  });
}

/** A shortest loop from the component's first file back to itself, staying inside the component. */
function loopThrough(comp: string[], next: Map<string, string[]>): string[] {
  const inside = new Set(comp);
  const start = comp[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const n = queue.shift()!;
    for (const w of next.get(n) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at = n; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, n);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
