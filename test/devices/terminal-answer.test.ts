/**
 * A terminal's transaction answer read as strictly as input from the internet (issue 20,
 * point 1): the real driver against the simulator over a real TCP socket, the simulator
 * rewriting its answer on the wire. Every hostile answer ends as a device fault whose raw
 * answer is kept masked (no Luhn-valid run of 13-19 digits), never as a result; an honest
 * answer still reads. The check of an answer against its request is here too.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTcpLink } from '../../electron/devices/device-link';
import { DEVICE_MSG, DeviceError } from '../../electron/devices/device-messages';
import { SIM_CARDS } from '../../electron/devices/sim/mock-amounts';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { approvalMismatch, TerminalFault } from '../../electron/devices/terminal-answer';
import type { TerminalResult } from '../../electron/devices/terminal-commands';
import { TerminalDriver } from '../../electron/devices/terminal-driver';
import { defaultTimeouts } from '../../shared/payments/terminal-timeouts';
import { maskCardNumbersInText } from '../../shared/payments/masking';
import { rejectionOf } from '../helpers/rejection';

const PAN = SIM_CARDS.visa.pan;
const US = '\x1f';
let sim: TerminalSimulator;
let port: number;

const driver = () =>
  new TerminalDriver({ connect: () => openTcpLink('127.0.0.1', port), settings: { timeouts: defaultTimeouts(), tipPercents: null }, secondMs: 4, ackTimeoutMs: 1000 });

beforeEach(async () => {
  sim = new TerminalSimulator({ secondMs: 4 });
  sim.script.stepMs = 5;
  port = await sim.listenTcp(0);
});
afterEach(async () => {
  await sim.close();
});

/** Field 3 is "approved US tip"; field 4 "entry US brand US D/C US first six US last four US expiry". */
const setSub = (field: string, i: number, v: string) => field.split(US).map((x, j) => (j === i ? v : x)).join(US);

/** Answers that are not well formed, whatever their amounts say. */
export const MALFORMED: Array<[string, (f: string[]) => string[]]> = [
  ['an amount with an exponent ("1e9")', (f) => f.map((x, i) => (i === 3 ? setSub(x, 0, '1e9') : x))],
  ['an amount with a sign', (f) => f.map((x, i) => (i === 3 ? setSub(x, 0, '+1234') : x))],
  ['an amount with spaces', (f) => f.map((x, i) => (i === 3 ? setSub(x, 0, ' 1234') : x))],
  ['an amount with a decimal point', (f) => f.map((x, i) => (i === 3 ? setSub(x, 0, '12.34') : x))],
  ['an over-long amount', (f) => f.map((x, i) => (i === 3 ? setSub(x, 0, '0000000000001234') : x))],
  ['a declined status with approved text', (f) => ['100010', 'APPROVED', ...f.slice(2)]],
  ['an unknown status', (f) => ['999999', ...f.slice(1)]],
  ['a card number in an EMV tag value', (f) => f.map((x, i) => (i === 6 ? `AID=A0000000031010${US}APPLAB=VISA ${PAN}` : x))],
  ['a card number in a tag outside the allowlist', (f) => f.map((x, i) => (i === 6 ? `AID=A0000000031010${US}PAN=${PAN}` : x))],
  ['a card number in the expiry', (f) => f.map((x, i) => (i === 4 ? setSub(x, 5, PAN) : x))],
  ['a card number where the first six go', (f) => f.map((x, i) => (i === 4 ? setSub(x, 3, PAN) : x))],
  ['an expiry that is not MMYY', (f) => f.map((x, i) => (i === 4 ? setSub(x, 5, '1330') : x))],
  ['markup in the result text', (f) => [f[0]!, '<img src=x onerror=alert(1)>', ...f.slice(2)]],
  // C0 characters and DEL make the whole frame unreadable (poslink-frame.ts); C1 ones pass the wire as latin1.
  ['control characters in the result text', (f) => [f[0]!, 'APPROVED\x9b2J\x85', ...f.slice(2)]],
  ['an oversize result text', (f) => [f[0]!, 'A'.repeat(5000), ...f.slice(2)]],
  ['an oversize authorization code', (f) => f.map((x, i) => (i === 2 ? setSub(x, 0, '9'.repeat(300)) : x))],
  ['an unknown entry mode', (f) => f.map((x, i) => (i === 4 ? setSub(x, 0, 'X') : x))],
  ['more fields than a transaction answer has', (f) => [...f, '', 'extra']],
];

describe('a transaction answer is read strictly', () => {
  it('an honest answer reads as before', async () => {
    const r = await driver().sale({ amountCents: 714, tipCents: 0, ecrRef: 'honest' });
    expect(r).toMatchObject({ approvedCents: 714, tipCents: 0, firstSix: '411111', lastFour: '1111', expDate: '1230', entryMode: 'C' });
  });

  it.each(MALFORMED)('%s is a device fault with the raw answer masked', async (_name, rewrite) => {
    sim.faults.rewriteAnswer = rewrite;
    const e = await rejectionOf(driver().sale({ amountCents: 1234, tipCents: 0, ecrRef: 'hostile' }), DeviceError);
    expect(sim.faults.rewriteAnswer).toBeUndefined(); // the terminal did send it
    expect(e).toBeInstanceOf(TerminalFault);
    expect(e.code).toBe('fault');
    expect(e.message).toBe(DEVICE_MSG.FAULT);
    const raw = (e as TerminalFault).raw;
    expect(raw.length).toBeGreaterThan(0);
    expect(raw.length).toBeLessThanOrEqual(600);
    expect(raw).not.toContain(PAN);
    expect(maskCardNumbersInText(raw)).toBe(raw);
    expect([...raw].every((c) => c >= ' ' && c <= '~' && c !== '<' && c !== '>')).toBe(true);
    // The reference of what the terminal claims, so it can be reversed there.
    expect((e as TerminalFault).refNum).toMatch(/^\d+$/);
  });

  it("a refusal's words are plain text: no markup, no control characters, capped", async () => {
    sim.faults.rewriteAnswer = () => ['100002', `Card Entry <b>Timeout</b>\x9b${'!'.repeat(200)}`];
    const e = await rejectionOf(driver().sale({ amountCents: 1234, tipCents: 0, ecrRef: 'words' }), DeviceError);
    expect(e.code).toBe('timeout');
    expect([...e.message].every((c) => c >= ' ' && c <= '~' && c !== '<' && c !== '>')).toBe(true);
    expect(e.message.length).toBeLessThanOrEqual(64);
  });
});

describe('an answer is checked against its request', () => {
  const answer = (approvedCents: number, tipCents: number) => ({ approvedCents, tipCents }) as TerminalResult;
  const ask = { amountCents: 1234, tipCents: undefined as number | undefined, maxTipCents: 247, capCents: 1_000_000 };
  it.each([
    ['the amount asked', { ...ask, tipCents: 0 }, answer(1234, 0), null],
    ['the amount asked and a tip within the limit', ask, answer(1481, 247), null],
    ['ten times the amount', { ...ask, tipCents: 0 }, answer(12_340, 0), 'amount'],
    ['one cent', { ...ask, tipCents: 0 }, answer(1, 0), 'amount'],
    ['a tip past the limit', ask, answer(1482, 248), 'tip'],
    ['a tip when the terminal was not to ask', { ...ask, tipCents: 0 }, answer(1334, 100), 'tip'],
    ['a total past the hard cap', { ...ask, capCents: 1400 }, answer(1481, 247), 'cap'],
    ['a tip that does not add up', ask, answer(1481, 200), 'amount'],
  ] as const)('%s', (_name, a, r, kind) => {
    const m = approvalMismatch(a, r);
    if (kind === null) expect(m).toBeNull();
    else expect(m?.kind).toBe(kind);
  });
});
