/**
 * Command line for the device simulators (built to build/node/sim-cli.mjs):
 *
 *   npm run sim:terminal -- --tcp 10009            (or --serial /dev/pts/N)
 *   npm run sim:terminal -- --tcp 10009 --tls      (TLS with a self-signed certificate made at start,
 *                                                   or --tls --cert cert.pem --key key.pem to be given one)
 *   npm run sim:scanner  -- --serial /dev/pts/N [--micr "T072000326T 12345678U 1001"]
 *   npm run sim:barcode  -- --serial /dev/pts/N [--suffix cr|crlf] [--baud 9600]
 *   npm run sim:printer  -- --tcp 9100 (or --serial /dev/pts/N) [--out ./printer-output] [--paper 80|58]
 *                          [--drawer-open-level low|high]
 *
 * Options: --second-ms N scales a second (default 1000), --serial-number S.
 * With --tls the second line printed is the certificate's SHA-256 fingerprint, as a terminal
 * shows it on its screen for the installer to pin on the Devices screen.
 * Scripting from outside: one JSON object per line on stdin, e.g.
 *   {"script": {"tip": 3, "signature": "draw"}}   {"faults": {"nakFrames": 1}}   {"micr": "…"}
 *   {"presentCard": true} (the customer presents the card a {"script": {"card": "on-cue"}} waits with)
 * The barcode scanner takes no JSON: each line typed on its stdin is a code scanned (sent with
 * the suffix, CR by default), and it answers `scanned CODE`.
 * The printer's stdin takes:
 *    {"paper": "out"|"near-end"|"ok"}  {"cover": "open"|"closed"}  {"drawer": "closed"}  {"online": false}
 * The printer prints "receipt N → path.png" as each receipt is cut, and "drawer opened" on a kick.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { BarcodeSimulator, type BarcodeSuffix } from './barcode-simulator';
import { PrinterSimulator } from './printer-simulator';
import { ScannerSimulator } from './scanner-simulator';
import { identityOf, selfSignedIdentity } from './self-signed-cert';
import { TerminalSimulator } from './terminal-simulator';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const kind = process.argv[2];
  const secondMs = Number(arg('second-ms') ?? 1000);
  const serial = arg('serial');
  const tcp = arg('tcp');
  if (kind === 'terminal') {
    const serialNumber = arg('serial-number') ?? 'SIM0001';
    const sim = new TerminalSimulator({ secondMs, serialNumber });
    const certFile = arg('cert');
    const keyFile = arg('key');
    if (serial) {
      await sim.attachSerial(serial);
      console.log(`terminal simulator on serial ${serial}`);
    } else if (process.argv.includes('--tls')) {
      if (!certFile !== !keyFile) throw new Error('--cert and --key go together (PEM files), or leave both out for a new self-signed certificate');
      const identity = certFile && keyFile ? identityOf(readFileSync(keyFile, 'utf8'), readFileSync(certFile, 'utf8')) : selfSignedIdentity(serialNumber);
      const port = await sim.listenTls(identity, Number(tcp ?? 10009));
      console.log(`terminal simulator on tls 127.0.0.1:${port}`);
      console.log(`certificate SHA-256 fingerprint ${identity.fingerprint}`);
    } else {
      const port = await sim.listenTcp(Number(tcp ?? 10009));
      console.log(`terminal simulator on tcp 127.0.0.1:${port}`);
    }
    createInterface({ input: process.stdin }).on('line', (line) => {
      try {
        const msg = JSON.parse(line) as { script?: object; faults?: object; presentCard?: boolean };
        if (msg.script) Object.assign(sim.script, msg.script);
        if (msg.faults) Object.assign(sim.faults, msg.faults);
        if (msg.presentCard) sim.presentCard();
        console.log('ok');
      } catch {
        console.log('not JSON: ignored');
      }
    });
  } else if (kind === 'scanner') {
    if (!serial) throw new Error('the scanner simulator needs --serial PATH (a socat pty)');
    const sim = new ScannerSimulator({ micr: arg('micr') });
    await sim.attachSerial(serial);
    console.log(`check scanner simulator on serial ${serial}`);
    createInterface({ input: process.stdin }).on('line', (line) => {
      try {
        const msg = JSON.parse(line) as { micr?: string };
        if (typeof msg.micr === 'string') sim.micr = msg.micr;
        console.log('ok');
      } catch {
        console.log('not JSON: ignored');
      }
    });
  } else if (kind === 'barcode') {
    if (!serial) throw new Error('the barcode scanner simulator needs --serial PATH (a socat pty)');
    const suffix = arg('suffix') ?? 'cr';
    if (suffix !== 'cr' && suffix !== 'crlf') throw new Error('--suffix is cr or crlf');
    const baud = Number(arg('baud') ?? 9600);
    if (!Number.isInteger(baud) || baud <= 0) throw new Error('--baud is a whole number such as 9600');
    const sim = new BarcodeSimulator(suffix as BarcodeSuffix);
    await sim.attachSerial(serial, baud);
    console.log(`barcode scanner simulator on serial ${serial} (suffix ${suffix})`);
    createInterface({ input: process.stdin }).on('line', (line) => {
      const code = line.trim();
      if (!code) return;
      sim.scan(code);
      console.log(`scanned ${code}`);
    });
  } else if (kind === 'printer') {
    await runPrinter(serial, tcp);
  } else {
    console.error('usage: sim-cli terminal (--tcp PORT [--tls [--cert FILE --key FILE]] | --serial PATH) | scanner --serial PATH | barcode --serial PATH [--suffix cr|crlf] | printer (--tcp PORT | --serial PATH) [--out DIR] [--paper 80|58]');
    process.exit(2);
  }
}

interface PrinterCommand {
  paper?: unknown;
  cover?: unknown;
  drawer?: unknown;
  online?: unknown;
}

/** Applies one stdin command to the printer, all of it or (when a part is wrong) none; answers what was wrong, or null. */
function applyPrinterCommand(sim: PrinterSimulator, msg: PrinterCommand): string | null {
  const { paper, cover, drawer, online } = msg;
  if (paper !== undefined && paper !== 'ok' && paper !== 'near-end' && paper !== 'out') return 'paper is "ok", "near-end" or "out"';
  if (cover !== undefined && cover !== 'open' && cover !== 'closed') return 'cover is "open" or "closed"';
  if (drawer !== undefined && drawer !== 'closed') return 'the drawer can only be pushed "closed" (a kick opens it)';
  if (online !== undefined && typeof online !== 'boolean') return 'online is true or false';
  if (paper !== undefined) sim.paper = paper;
  if (cover !== undefined) sim.coverOpen = cover === 'open';
  if (drawer !== undefined) sim.closeDrawer();
  if (online !== undefined) sim.online = online;
  return null;
}

async function runPrinter(serial: string | undefined, tcp: string | undefined): Promise<void> {
  const paper = arg('paper') ?? '80';
  if (paper !== '80' && paper !== '58') throw new Error('--paper is 80 or 58 (millimetres)');
  const level = arg('drawer-open-level') ?? 'low';
  if (level !== 'low' && level !== 'high') throw new Error('--drawer-open-level is low or high');
  const outDir = arg('out') ?? 'printer-output';
  const sim = new PrinterSimulator({
    paperMm: paper === '80' ? 80 : 58,
    outDir,
    drawerOpenLevel: level,
  });
  sim.onReceipt = (r, n) => console.log(`receipt ${n} → ${r.png ?? '(no file)'}`);
  sim.onDrawerKick = () => console.log('drawer opened');
  if (serial) {
    await sim.attachSerial(serial);
    console.log(`printer simulator on serial ${serial}`);
  } else {
    const port = await sim.listenTcp(Number(tcp ?? 9100));
    console.log(`printer simulator on tcp 127.0.0.1:${port}`);
  }
  createInterface({ input: process.stdin }).on('line', (line) => {
    let msg: PrinterCommand;
    try {
      msg = JSON.parse(line) as PrinterCommand;
    } catch {
      console.log('not JSON: ignored');
      return;
    }
    const wrong = typeof msg === 'object' && msg !== null ? applyPrinterCommand(sim, msg) : 'send a JSON object';
    console.log(wrong ? `not done: ${wrong}` : 'ok');
  });
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
