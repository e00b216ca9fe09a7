/**
 * README.md is kept true by the tests it names (issue 22, point 7). Its first screen says what
 * Ringup is, gives the two commands and the first sale, and lists the sections; the reference
 * follows, one section per role, and every section names the test files that prove what it says.
 * Whatever the README names that the repository does not have — a test file, a source path, an
 * npm script, an anchor of the contents list — fails here, so the README cannot drift from the
 * code unnoticed. CI runs the test command the README shows (`.ci/run` greps for it), so the
 * first screen must show exactly that command.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const README = read('README.md');

/** What fits on a screen without scrolling, in a terminal or on the repository's page. */
const FIRST_SCREEN_LINES = 40;
const ROLE_SECTIONS = ['Cashier', 'Manager', 'Installer', 'Integrator of the engine', 'Developer'];
const START_COMMAND = 'npm ci && npm start';

interface Line {
  text: string;
  /** 1-based, as an editor shows it. */
  n: number;
  inCode: boolean;
}

interface Section {
  level: number;
  title: string;
  /** The heading's line and the lines up to the next heading (of any level). */
  lines: Line[];
}

function linesOf(markdown: string): Line[] {
  let inCode = false;
  return markdown.split('\n').map((text, i) => {
    const fence = /^\s*```/.test(text);
    if (fence) inCode = !inCode;
    return { text, n: i + 1, inCode: inCode || fence };
  });
}

const headingOf = (l: Line) => (l.inCode ? null : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(l.text));

function sectionsOf(lines: Line[]): Section[] {
  const out: Section[] = [];
  for (const l of lines) {
    const h = headingOf(l);
    if (h) out.push({ level: h[1]!.length, title: h[2]!, lines: [l] });
    else out.at(-1)?.lines.push(l);
  }
  return out;
}

/** GitHub's heading anchors: markup and punctuation dropped, lower case, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const l of linesOf(markdown)) {
    const h = headingOf(l);
    if (!h) continue;
    const base = h[2]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

const textOf = (lines: Line[]) => lines.map((l) => l.text).join('\n');
const testFilesIn = (text: string) => [...new Set(text.match(/\btest\/[\w./-]+\.(?:test|spec)\.ts\b/g) ?? [])];

/** Folders .gitignore names (test/output/ …): made by a run, absent from a fresh clone, so named without being checked. */
const GENERATED = read('.gitignore')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l.endsWith('/') && l.slice(0, -1).includes('/'));

/** Repository paths the README names, cut before the first placeholder (`electron/core/<domain>/` names `electron/core/`). */
function repoPathsIn(text: string): string[] {
  const found = text.match(/(?<![\w./:@~-])(?:electron|renderer|shared|test|resources|\.ci)\/[^\s`'"),;|\]]*/g) ?? [];
  return [...new Set(found.map((p) => p.split(/[<…*{#]/)[0]!.replace(/[.:]+$/, '')))].filter((p) => !GENERATED.some((g) => p.startsWith(g)));
}

const ALL = linesOf(README);
const SECTIONS = sectionsOf(ALL);
/** The first screen ends with the contents list; the reference is every section after it. */
const CONTENTS = SECTIONS.findIndex((s) => s.level === 2 && s.title === 'Contents');
const FIRST_SCREEN = CONTENTS < 0 ? ALL.slice(0, FIRST_SCREEN_LINES) : ALL.slice(0, SECTIONS[CONTENTS]!.lines.findLast((l) => l.text.trim() !== '')!.n);
const FIRST_SCREEN_TEXT = textOf(FIRST_SCREEN);
const REFERENCE = CONTENTS < 0 ? SECTIONS.filter((s) => s.lines[0]!.n > FIRST_SCREEN_LINES) : SECTIONS.slice(CONTENTS + 1);
/** A heading with nothing under it but its subsections says nothing, so it has nothing to prove. */
const SAYS_SOMETHING = REFERENCE.filter((s) => s.lines.slice(1).some((l) => l.text.trim() !== ''));

describe('the first screen of README.md', () => {
  it(`fits in ${FIRST_SCREEN_LINES} lines and ends with the contents list`, () => {
    expect(CONTENTS, 'a "## Contents" section').toBeGreaterThanOrEqual(0);
    expect(FIRST_SCREEN.length).toBeLessThanOrEqual(FIRST_SCREEN_LINES);
  });

  it('shows the two commands, the test command exactly as CI reads it from the README', () => {
    const ciTestCommand = /^TEST_COMMAND='([^']+)'$/m.exec(read('.ci/run'))?.[1];
    expect(ciTestCommand, ".ci/run's TEST_COMMAND").toBeDefined();
    const commandLines = FIRST_SCREEN.filter((l) => l.inCode).map((l) => l.text.trim());
    expect(commandLines.some((l) => l.startsWith(START_COMMAND)), `${START_COMMAND} in a code block`).toBe(true);
    expect(commandLines.some((l) => l.startsWith(ciTestCommand!)), `${ciTestCommand} in a code block`).toBe(true);
  });

  it('walks through the first sale in four numbered steps, named by the test that takes them', () => {
    const steps = FIRST_SCREEN.filter((l) => !l.inCode && /^\d+\.\s/.test(l.text)).map((l) => Number(/^\d+/.exec(l.text)![0]));
    expect(steps).toEqual([1, 2, 3, 4]);
    expect(testFilesIn(FIRST_SCREEN_TEXT).length).toBeGreaterThan(0);
  });

  it('lists every section of the reference, one per role first, each link leading to its heading', () => {
    const contents = [...FIRST_SCREEN_TEXT.matchAll(/\[([^\]]+)\]\(#([^)]+)\)/g)].map((m) => m[2]!);
    const anchors = anchorsOf(README);
    const top = REFERENCE.filter((s) => s.level === 2);
    expect(top.slice(0, ROLE_SECTIONS.length).map((s) => s.title)).toEqual(ROLE_SECTIONS);
    for (const s of top) expect(contents, `the contents list links "${s.title}"`).toContain([...anchorsOf(`## ${s.title}`)][0]);
    for (const a of contents) expect(anchors, `#${a} is a heading`).toContain(a);
  });
});

describe('every section of the reference', () => {
  it.each(SAYS_SOMETHING.map((s) => [s.title, s] as const))('"%s" names the tests that prove it', (_title, s) => {
    expect(testFilesIn(textOf(s.lines)), `section "${s.title}" (line ${s.lines[0]!.n}) names no test/….test.ts or test/….spec.ts`).not.toEqual([]);
  });
});

describe('what README.md names exists', () => {
  it('every test file', () => {
    const missing = testFilesIn(README).filter((p) => !existsSync(join(ROOT, p)));
    expect(missing).toEqual([]);
  });

  it('every source path', () => {
    const missing = repoPathsIn(README).filter((p) => !existsSync(join(ROOT, p)));
    expect(missing).toEqual([]);
  });

  it('every npm script', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const named = [...README.matchAll(/\bnpm run ([\w:.-]+)/g), ...README.matchAll(/\bnpm (start|test)\b/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(0);
    expect([...new Set(named)].filter((n) => !scripts.includes(n))).toEqual([]);
  });

  it('every link: a file of the repository, and the heading it points at', () => {
    const broken: string[] = [];
    for (const l of ALL.filter((x) => !x.inCode)) {
      for (const [, target] of l.text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const file = path === '' ? 'README.md' : path;
        if (!existsSync(join(ROOT, file))) broken.push(`line ${l.n}: ${target}`);
        else if (anchor && file.endsWith('.md') && !anchorsOf(read(file)).has(anchor)) broken.push(`line ${l.n}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('what the app says about README.md', () => {
  /**
   * Sentences on screen that send a person to a part of the README ("the README’s “Key backup”
   * says how"). The engine's files point to the engine's own README (electron/gateway/README.md).
   */
  function readmeMentions(dir: string): string[] {
    if (dir === join('electron', 'gateway')) return [];
    return readdirSync(join(ROOT, dir)).flatMap((f) => {
      const p = join(dir, f);
      if (statSync(join(ROOT, p)).isDirectory()) return readmeMentions(p);
      if (!/\.tsx?$/.test(f)) return [];
      return [...read(p).matchAll(/README(?:’|')s [“"]([^”"]+)[”"]/g)].map((m) => m[1]!);
    });
  }

  it('each part of the README a screen points to is a heading or a bold phrase there', () => {
    const mentions = [...readmeMentions('electron'), ...readmeMentions('renderer/src'), ...readmeMentions('shared')];
    expect(mentions.length).toBeGreaterThan(0);
    const headings = SECTIONS.map((s) => s.title);
    const bold = [...README.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]!);
    for (const m of mentions) expect([...headings, ...bold], `README part "${m}"`).toContain(m);
  });
});
