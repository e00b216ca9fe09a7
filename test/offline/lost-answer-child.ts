/**
 * The register the lost-answer kill test (test/unit/lost-answer-kill.test.ts) kills with
 * SIGKILL while the gateway's answer to a payment is held at a TCP proxy. One run of this
 * process is one start of the app on the same data folder:
 *
 * 1. Resume (from the second start on): the next person signs in (Morgan) and reads what the
 *    counter shows of payments whose answer was lost (`sale:lost-list`, until none is still
 *    being checked), and marks what it saw as seen. Then the cashier (Casey) acts as a cashier
 *    would on what the screen said: a payment shown as approved is done; anything else — shown
 *    "not charged", or not shown at all — is charged again. For the cart's ways the cart screen
 *    says it: a paid cart is done, a cart whose card payment is declined is paid again.
 *    Prints `LOST <json>` and `RESOLVED <run>`.
 * 2. Pay (unless this is the last start): Casey signs in, the process prints `READY <run>` and
 *    waits for a line on stdin (the test holds the answers from then on), pays run `<run>`'s
 *    amount the given way and prints `PAYING <run>`; the test kills the process once the gateway has answered (the
 *    answer waits at the proxy).
 *
 * Usage (bundled by the test with esbuild): node child.mjs <dataDir> <baseUrl> <credsJson> <way> <run> <lastRun> <terminalPort>
 * RINGUP_KEYS_DIR points at the test's keys folder.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCore } from '../../electron/core/app-core';
import { devicePlacesFromEnv } from '../../electron/devices/device-places';
import { createDispatcher } from '../../electron/ipc/dispatcher';
import type { HandlerResults } from '../../shared/ipc/contract';
import { defaultTimeouts } from '../../shared/payments/terminal-timeouts';
import type { Result } from '../../shared/result';
import { amountOf, type KillWay } from './lost-answer-ways';

const [dataDir, baseUrl, credsJson, way, runText, lastText, terminalPort] = process.argv.slice(2) as [string, string, string, KillWay, string, string, string];
const run = Number(runText);
const lastRun = Number(lastText);
const creds = JSON.parse(credsJson) as { developer_id: string; user_id: string; user_api_key: string; location_id: string; cc_product_transaction_id: string };
const ORIGIN = 'http://127.0.0.1:5999';
const CARD = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string) => process.stdout.write(`${line}\n`);

function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

async function main(): Promise<void> {
  const core = await startCore({
    dataDir,
    shell: 'node-host',
    healthIntervalMs: 0,
    lostSweepMs: 100,
    devicePlaces: devicePlacesFromEnv({ RINGUP_TERMINAL_PORTS: '1024-65535' }),
    skipFirstRun: true,
    remote: {
      baseUrl,
      auth: { developerId: creds.developer_id, userId: creds.user_id, userApiKey: creds.user_api_key },
      locationId: creds.location_id,
      productTransactionId: creds.cc_product_transaction_id,
    },
  });
  const dispatch = createDispatcher(core.handlers, { allowedOrigins: [ORIGIN] });
  const call = async <C extends keyof HandlerResults>(channel: C, arg?: unknown): Promise<Result<HandlerResults[C]>> =>
    (await dispatch(channel, { url: `${ORIGIN}/`, isMainFrame: true }, arg)) as Result<HandlerResults[C]>;
  const signInAs = async (name: string, pin: string) => {
    const user = value(await call('auth:users')).users.find((u) => u.name === name)!;
    value(await call('auth:sign-in', { userId: user.id, pin }));
  };

  // First start: the terminal and the saved card this way needs.
  const setupFile = join(dataDir, 'kill-setup.json');
  if (!existsSync(setupFile)) {
    let savedId = '';
    if (way === 'terminal' || way === 'cart-terminal') {
      await signInAs('Jordan', '2468');
      const { lastRegistrationTs: _ts, ...demo } = value(await call('devices:installer-data')).terminals[0]!;
      value(await call('devices:terminal-save', { ...demo, address: { kind: 'tcp', host: '127.0.0.1', port: Number(terminalPort) }, tipPercents: null, timeouts: defaultTimeouts() }));
    }
    if (way === 'saved' || way === 'cart-saved') {
      await signInAs('Morgan', '1234');
      const pat = value(await call('vault:add-contact', { firstName: 'Pat', lastName: 'Saved', email: '' }));
      savedId = value(await call('vault:add-card', { contactId: pat.id, holderName: 'Pat Saved', number: CARD.number, expiry: '1230' })).id;
    }
    writeFileSync(setupFile, JSON.stringify({ savedId }));
  }
  const { savedId } = JSON.parse(readFileSync(setupFile, 'utf8')) as { savedId: string };
  const cart = way.startsWith('cart-');

  /** Pays `cents` the way under test, as Casey; what the screen heard. */
  async function pay(cents: number, attempt: string): Promise<Result<unknown>> {
    const check = { routing: '072000326', account: '12345678', checkNumber: String(1000 + run), micr: `T072000326T 12345678U ${1000 + run}` };
    switch (way) {
      case 'keyed':
        return call('sale:charge', { subtotalCents: cents, taxCents: 0, tipCents: 0, card: CARD, clientRef: attempt });
      case 'saved':
        return call('vault:charge', { id: savedId, subtotalCents: cents, taxCents: 0, tipCents: 0, clientRef: attempt });
      case 'terminal':
        return call('devices:terminal-sale', { subtotalCents: cents, taxCents: 0, tipCents: 0, clientRef: attempt });
      case 'check':
        return call('devices:check-pay', { subtotalCents: cents, taxCents: 0, check, holderName: 'Pat Doe', clientRef: attempt });
      default: {
        const cur = value(await call('cart:current'));
        if (cur.lines.length > 0 && cur.tenders.length === 0) value(await call('cart:clear'));
        if (cur.tenders.length === 0 || cur.lines.length === 0) value(await call('cart:add-open', { name: 'Kill test', amountCents: cents, taxCategory: 'exempt' }));
        if (way === 'cart-card') return call('cart:pay-card', { card: CARD, clientRef: attempt });
        if (way === 'cart-saved') return call('cart:pay-saved', { methodId: savedId, clientRef: attempt });
        return call('cart:pay-terminal', { clientRef: attempt });
      }
    }
  }

  if (run > 0) {
    const prev = run - 1;
    // The next person to sign in sees what became of the payment whose answer was lost.
    await signInAs('Morgan', '1234');
    let shown: HandlerResults['sale:lost-list'] = [];
    for (let i = 0; i < 300; i++) {
      const r = await call('sale:lost-list');
      shown = r.ok ? r.value : []; // a register without the list shows nothing
      if (!shown.some((l) => l.state === 'checking')) break;
      await sleep(100);
    }
    say(`LOST ${JSON.stringify(shown.map((l) => ({ state: l.state, amountCents: l.amountCents, cashier: l.cashierName, way: l.way })))}`);
    for (const l of shown) if (l.state !== 'checking') await call('sale:lost-seen', { id: l.id });
    await signInAs('Casey', '0000');
    const cents = amountOf(way, prev);
    let done: boolean;
    if (cart) {
      // The cart screen: wait while its card payment is still being checked, then it says paid or not.
      let view = value(await call('cart:current'));
      for (let i = 0; i < 300 && view.tenders.some((t) => t.status === 'pending'); i++) {
        await sleep(100);
        view = value(await call('cart:current'));
      }
      done = view.status === 'paid';
    } else {
      done = shown.some((l) => l.amountCents === cents && l.state === 'approved');
    }
    if (!done) {
      say('RECHARGED');
      const again = await pay(cents, `again-${prev}`);
      if (!again.ok) say(`RECHARGE-REFUSED ${again.error.message}`);
    }
    say(`RESOLVED ${prev}`);
  }
  if (run >= lastRun) {
    await core.close();
    process.exit(0);
  }
  await signInAs('Casey', '0000');
  // The test holds the gateway's answers only from here on (a cashier's charge above goes through), then says go.
  say(`READY ${run}`);
  await new Promise<void>((res) => process.stdin.once('data', () => res()));
  say(`PAYING ${run}`);
  const r = await pay(amountOf(way, run), `pay-${run}`);
  say(`ANSWERED ${JSON.stringify(r.ok ? 'ok' : r.error)}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(3);
});
