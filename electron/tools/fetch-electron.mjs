#!/usr/bin/env node
// Fetches Electron's binary after `npm install`/`npm ci`. Electron's own install
// script is not in package.json "allowScripts", so npm skips it; we run it here and
// tolerate failure: where the binary cannot be downloaded (an offline or locked-down
// machine), `npm start` serves the same app from the node host instead. This script
// therefore always exits 0 and says in one line why Electron is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

function electronDir() {
  try {
    return dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
}

const dir = electronDir();
if (!dir) {
  console.log('Electron: not installed (production install); npm start will use the node host.');
  process.exit(0);
}
const pathFile = join(dir, 'path.txt');
if (existsSync(pathFile) && existsSync(join(dir, 'dist', readFileSync(pathFile, 'utf8').trim()))) {
  console.log('Electron: binary already present.');
  process.exit(0);
}
if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  console.log('Electron: binary download skipped (ELECTRON_SKIP_BINARY_DOWNLOAD is set); npm start will use the node host.');
  process.exit(0);
}

const res = spawnSync(process.execPath, [join(dir, 'install.js')], { encoding: 'utf8', timeout: 120_000 });
if (res.status === 0 && existsSync(pathFile)) {
  console.log('Electron: binary downloaded.');
} else {
  const text = `${res.stderr ?? ''}\n${res.stdout ?? ''}`;
  const why =
    res.error?.code === 'ETIMEDOUT'
      ? 'the download timed out after 120 s'
      : (text.match(/(getaddrinfo \w+ [^\s]+|ECONNREFUSED[^\n]*|ETIMEDOUT[^\n]*|HTTPError[^\n]*|\b\d{3}\b[^\n]*(Not Found|Forbidden)[^\n]*)/)?.[0] ??
        text.trim().split('\n').filter(Boolean).pop() ??
        `install.js exited with ${res.status}`);
  console.log(`Electron: the binary could not be downloaded (${why.slice(0, 200)}); npm start will serve the app from the node host instead.`);
}
process.exit(0);
