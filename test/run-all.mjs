#!/usr/bin/env node
// `npm test`: typecheck, lint, vitest (unit, gateway, devices), the engine's contract run and Playwright end-to-end
// tests in Debian's Chromium, then ONE summary line: "N passed, N failed".
// Typecheck, lint and build count as one check each; vitest and Playwright count tests.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'test/output');
mkdirSync(out, { recursive: true });
const bin = (name) => join(root, 'node_modules/.bin', name);

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`Chromium is not installed at ${chromium}; the end-to-end tests need it: sudo apt-get install -y chromium socat`);
}

let passed = 0;
let failed = 0;
const failures = [];

function step(title, cmd, args) {
  console.log(`\n=== ${title} ===`);
  const started = Date.now();
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } });
  console.log(`--- ${title}: ${res.status === 0 ? 'ok' : `FAILED (exit ${res.status ?? res.signal})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return res.status === 0;
}

function check(title, cmd, args) {
  if (step(title, cmd, args)) passed++;
  else {
    failed++;
    failures.push(title);
  }
}

/** Runs a test runner and adds the counts from its JSON report (or one failure if there is none). */
function counted(title, cmd, args, reportPath, read) {
  rmSync(reportPath, { force: true });
  const okExit = step(title, cmd, args);
  if (!existsSync(reportPath)) {
    failed++;
    failures.push(`${title} (no report)`);
    return;
  }
  const { p, f } = read(JSON.parse(readFileSync(reportPath, 'utf8')));
  passed += p;
  failed += f;
  if (f > 0 || (!okExit && f === 0)) failures.push(title);
  if (!okExit && f === 0) failed++;
}

check('typecheck: shared', bin('tsc'), ['-p', 'shared']);
check('typecheck: electron', bin('tsc'), ['-p', 'electron']);
check('typecheck: renderer', bin('tsc'), ['-p', 'renderer']);
check('typecheck: test', bin('tsc'), ['-p', 'test']);
check('lint', bin('eslint'), ['--max-warnings', '0', '.']);
check('build', process.execPath, ['electron/tools/build.mjs', '--quiet']);

const unitReport = join(out, 'unit-results.json');
counted(
  'unit tests (vitest)',
  bin('vitest'),
  ['run', '--config', 'test/vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${unitReport}`],
  unitReport,
  (r) => ({ p: r.numPassedTests ?? 0, f: (r.numFailedTests ?? 0) + (r.numRuntimeErrorTests ?? 0) }),
);

// The engine's OpenAPI document against the running engine: Portman-generated contract and
// fuzz requests run by newman (offline); each newman assertion counts, and every 5xx or
// request outside loopback is one more failure.
const contractReport = join(out, 'contract-results.json');
counted('contract run (Portman + newman)', process.execPath, ['test/contract/run-portman.mjs'], contractReport, (r) => ({ p: r.passed ?? 0, f: r.failed ?? 0 }));

const e2eReport = join(out, 'e2e-results.json');
counted('end-to-end tests (Playwright, Chromium)', bin('playwright'), ['test', '--config', 'test/playwright.config.ts'], e2eReport, (r) => {
  // A test that failed once and passed on its retry counts as passed, and is named here.
  const flaky = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) for (const t of spec.tests ?? []) if (t.status === 'flaky') flaky.push(`${spec.file}: ${spec.title}`);
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of r.suites ?? []) walk(suite);
  if (flaky.length) console.log(`\nFlaky (failed once, passed on retry): ${flaky.length}\n  ${flaky.join('\n  ')}`);
  return { p: (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0), f: r.stats?.unexpected ?? 0 };
});

console.log('');
if (failures.length) console.log(`Failed: ${failures.join('; ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
