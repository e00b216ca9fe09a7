/**
 * A simulated EMV terminal speaking the same protocol as the real ones, over TCP or a serial
 * port (a socat pseudo-terminal). It plays the sandbox's mock amounts (mock-amounts.ts) and
 * a customer that tests script (`script`): card presented or not, the tip chosen, PIN,
 * signature drawn or not, terms accepted or declined. `faults` make it misbehave on the wire
 * (NAK, wrong LRC, garbage, vanish at a state) so the driver's error paths are exercised.
 *
 * Timeouts come from the settings sent with each request; `secondMs` scales a second.
 * One operation at a time: a second request while one runs is answered BUSY.
 */
import { createServer, type Server } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { TERMINAL_TIMEOUTS, type TimeoutKey } from '../../../shared/payments/terminal-timeouts';
import { openSerialLink, socketLink, type DeviceLink } from '../device-link';
import { FramedChannel } from '../framed-channel';
import { ETX, PROTOCOL_VERSION, joinSub, responseCommand, type Frame } from '../poslink-frame';
import { percentTipCents } from '../../../shared/payments/tip-suggestions';
import { CMD, RESULT, decodeSettings, decodeTransaction, encodeResult, type OperationSettings, type TerminalResult, type TerminalState, type TransactionRequest } from '../terminal-commands';
import { encryptCardRead } from '../reader-encryption';
import { SIM_CARDS, mockOutcome } from './mock-amounts';
import { signaturePng } from './signature-image';
import type { TlsIdentity } from './self-signed-cert';
import { listenLoopback } from './listen-loopback';

export interface CustomerScript {
  /** 'on-cue': the customer waits with the card until the test calls presentCard() (within the card entry timeout). */
  card: 'present' | 'none' | 'on-cue';
  /** 0 = no tip, 1..3 = percent_1..3, 'no-answer' lets the tip screen time out. */
  tip: 0 | 1 | 2 | 3 | 'no-answer';
  pin: 'enter' | 'none';
  signature: 'draw' | 'no-touch' | 'no-submit';
  terms: 'accept' | 'decline' | 'no-answer';
  /** Time the customer takes per step (ms). */
  stepMs: number;
}

export interface SimFaults {
  /** NAK this many of the next frames received. */
  nakFrames?: number;
  /** Send this many of the next frames with a wrong LRC. */
  badLrcFrames?: number;
  /** Send garbage instead of the next response. */
  garbleResponse?: boolean;
  /** Drop the connection when the operation reaches this state. */
  vanishAt?: TerminalState;
  /**
   * Answer the next card read with the full card number where the first six go, in the
   * EMV data (PAN, track 2, and inside the application label the receipt prints), as a
   * misconfigured terminal might: the receivers must mask it.
   */
  fullPan?: boolean;
  /**
   * Answer the next sale, auth or return reporting this many cents more approved (and of them
   * `tipCents` more tip) than it ran, as a tampered terminal might: the receivers must not
   * charge what the terminal says, only what was asked plus the tip it was allowed to add.
   */
  overReport?: { approvedCents: number; tipCents?: number };
  /**
   * Rewrites the next sale, auth or return answer on the wire (its fields as encoded, after the
   * sale was recorded here, so a void of its reference still finds it), as a hostile terminal or
   * something between it and the register might: the receivers must parse and check it.
   */
  rewriteAnswer?: (fields: string[]) => string[];
}

export const DEFAULT_SCRIPT: CustomerScript = { card: 'present', tip: 0, pin: 'enter', signature: 'draw', terms: 'accept', stepMs: 40 };

export const PROMPTS: Record<TerminalState, string> = {
  idle: '',
  card: 'Insert, tap or swipe card',
  tip: 'Choose a tip',
  pin: 'Enter PIN',
  signature: 'Sign on the screen',
  processing: 'Processing',
  terms: 'Read the terms',
  done: 'Done',
};

class Aborted extends Error {}
class Timeout extends Error {
  constructor(readonly key: TimeoutKey) {
    super(key);
  }
}
class Vanished extends Error {}

export interface SimulatorOptions {
  secondMs?: number;
  serialNumber?: string;
}

export class TerminalSimulator {
  script: CustomerScript = { ...DEFAULT_SCRIPT };
  faults: SimFaults = {};
  readonly secondMs: number;
  readonly serialNumber: string;
  /** Every request frame received (tests read the settings sent). */
  readonly received: Frame[] = [];
  /** States shown, in order. */
  readonly states: TerminalState[] = [];
  private readonly servers: Server[] = [];
  private readonly links = new Set<DeviceLink>();
  private running = false;
  private readonly sales = new Map<string, { cents: number; tip: number }>();
  private refSeq = 1000;
  private cue: (() => void) | undefined;

  constructor(opts: SimulatorOptions = {}) {
    this.secondMs = opts.secondMs ?? 1000;
    this.serialNumber = opts.serialNumber ?? 'SIM0001';
  }

  /** Listens on 127.0.0.1; answers the port (pass 0 for a free one). */
  listenTcp(port = 0): Promise<number> {
    return this.listenOn(createServer((socket) => this.attach(socketLink(socket))), port);
  }

  /**
   * Listens over TLS on 127.0.0.1 with this certificate (self-signed-cert.ts), as a terminal with
   * TLS turned on does (issue 20, point 1); answers the port.
   */
  listenTls(identity: TlsIdentity, port = 0): Promise<number> {
    const server = createTlsServer({ key: identity.key, cert: identity.cert, minVersion: 'TLSv1.2' }, (socket) => this.attach(socketLink(socket)));
    // A client that refuses the certificate ends the handshake: nothing to serve, nothing to report.
    server.on('tlsClientError', () => undefined);
    return this.listenOn(server, port);
  }

  /** Listens with `server` on 127.0.0.1 (closed with the simulator); answers the port. */
  private listenOn(server: Server, port: number): Promise<number> {
    this.servers.push(server);
    return listenLoopback(server, port);
  }

  /** Serves one end of a serial line (e.g. a socat pty). */
  async attachSerial(path: string): Promise<void> {
    this.attach(await openSerialLink(path));
  }

  /** Serves one end of any link (the engine's built-in mock terminal: an in-memory pipe, memory-link.ts). */
  serve(link: DeviceLink): void {
    this.attach(link);
  }

  /** The terminal waits for the card a script.card 'on-cue' customer holds. */
  get waitingForCard(): boolean {
    return this.cue !== undefined;
  }

  /** The customer presents the card the terminal is waiting for (script.card 'on-cue'). */
  presentCard(): void {
    const go = this.cue;
    this.cue = undefined;
    go?.();
  }

  /** Drops every open connection now (a terminal unplugged). */
  dropConnections(): void {
    for (const l of this.links) void l.close();
  }

  async close(): Promise<void> {
    this.dropConnections();
    await Promise.all(this.servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  }

  private attach(link: DeviceLink): void {
    this.links.add(link);
    const ch = new FramedChannel(link, {
      ackTimeoutMs: 2000,
      refuse: () => {
        if (!this.faults.nakFrames) return false;
        this.faults.nakFrames--;
        return true;
      },
      mangle: (bytes) => {
        if (!this.faults.badLrcFrames) return bytes;
        this.faults.badLrcFrames--;
        const b = Buffer.from(bytes);
        b[b.length - 1] = (b[b.length - 1] ?? 0) ^ 0xff;
        return b;
      },
    });
    let abort: AbortController | undefined;
    link.onClose(() => {
      this.links.delete(link);
      abort?.abort();
    });
    ch.onFrame((f) => {
      if (f.command === CMD.cancel) {
        abort?.abort();
        return;
      }
      this.received.push(f);
      if (this.running) {
        this.respond(ch, f, [RESULT.busy, 'BUSY']).catch(() => undefined);
        return;
      }
      this.running = true;
      abort = new AbortController();
      const signal = abort.signal;
      // The device is free again once it has decided; waiting for the ACK of its answer
      // does not keep it busy.
      void this.handle(ch, f, signal)
        .finally(() => {
          this.running = false;
        })
        .then((fields) => (fields ? this.respond(ch, f, fields) : undefined))
        .catch(() => undefined);
    });
  }

  private async respond(ch: FramedChannel, req: Frame, fields: string[]): Promise<void> {
    if (ch.link.closed) return;
    if (this.faults.garbleResponse) {
      this.faults.garbleResponse = false;
      ch.link.write(Buffer.from([0x02, 0x01, 0x7f, 0x00, ETX, 0x7f ^ 0x01 ^ ETX]));
      return;
    }
    await ch.send({ command: responseCommand(req.command), version: PROTOCOL_VERSION, fields });
  }

  /** Runs one request; answers the response fields, or undefined to stay silent. */
  private async handle(ch: FramedChannel, f: Frame, signal: AbortSignal): Promise<string[] | undefined> {
    const wait = (ms: number) =>
      new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(new Aborted());
        const t = setTimeout(resolve, ms);
        signal.addEventListener('abort', () => {
          clearTimeout(t);
          reject(new Aborted());
        }, { once: true });
      });
    const state = async (s: TerminalState) => {
      this.states.push(s);
      if (this.faults.vanishAt === s) {
        this.faults.vanishAt = undefined;
        void ch.link.close();
        throw new Vanished();
      }
      await ch.send({ command: CMD.status, version: PROTOCOL_VERSION, fields: [s, PROMPTS[s]] });
    };
    const settingsOf = (field: string | undefined) => decodeSettings(field).settings;
    const expire = async (settings: OperationSettings, key: TimeoutKey): Promise<never> => {
      await wait(settings.timeouts[key] * this.secondMs);
      throw new Timeout(key);
    };
    const cardOnCue = (settings: OperationSettings) =>
      new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => {
          this.cue = undefined;
          reject(new Timeout('card_entry_timeout'));
        }, settings.timeouts.card_entry_timeout * this.secondMs);
        this.cue = () => {
          clearTimeout(t);
          resolve();
        };
        signal.addEventListener('abort', () => {
          clearTimeout(t);
          this.cue = undefined;
          reject(new Aborted());
        }, { once: true });
      });
    try {
      switch (f.command) {
        case CMD.init:
          return [RESULT.ok, 'OK', joinSub([this.serialNumber, 'A920 (simulated)', 'BroadPOS'])];
        case CMD.batch: {
          const all = [...this.sales.values()];
          const total = all.reduce((s, x) => s + x.cents, 0);
          return [RESULT.ok, 'OK', joinSub([all.length, total])];
        }
        case CMD.signature: {
          const s = settingsOf(f.fields[0]);
          return [RESULT.ok, 'OK', await this.signature(s, state, wait, expire)];
        }
        case CMD.terms: {
          const s = settingsOf(f.fields[2]);
          await state('terms');
          if (this.script.terms === 'no-answer') await expire(s, 'device_terms_prompt_timeout');
          await wait(this.script.stepMs);
          if (this.script.terms === 'decline') return [RESULT.ok, 'DECLINED', '0', ''];
          const sig = f.fields[1] === '1' ? await this.signature(s, state, wait, expire) : '';
          return [RESULT.ok, 'OK', '1', sig];
        }
        case CMD.credit:
        case CMD.debit: {
          const t = decodeTransaction(f.fields);
          if (!t) return [RESULT.notSupported, 'BAD REQUEST'];
          const fields = encodeResult(await this.transaction(t.req, t.settings, f.command === CMD.debit, state, wait, expire, cardOnCue));
          const rewrite = this.faults.rewriteAnswer;
          if (!rewrite || t.req.type === 'void' || t.req.type === 'adjust' || t.req.type === 'postauth') return fields;
          this.faults.rewriteAnswer = undefined;
          return rewrite(fields);
        }
        default:
          return [RESULT.notSupported, 'NOT SUPPORTED'];
      }
    } catch (e) {
      if (e instanceof Timeout) return [RESULT.timeout, TERMINAL_TIMEOUTS[e.key].message ?? 'TIMEOUT'];
      if (e instanceof Aborted) return ch.link.closed ? undefined : [RESULT.aborted, 'ABORTED'];
      return undefined;
    } finally {
      this.states.push('idle');
    }
  }

  private async signature(
    s: OperationSettings,
    state: (s: TerminalState) => Promise<void>,
    wait: (ms: number) => Promise<void>,
    expire: (s: OperationSettings, k: TimeoutKey) => Promise<never>,
  ): Promise<string> {
    await state('signature');
    if (this.script.signature === 'no-touch') await expire(s, 'signature_input_timeout');
    if (this.script.signature === 'no-submit') await expire(s, 'signature_submit_timeout');
    await wait(this.script.stepMs);
    return signaturePng();
  }

  private async transaction(
    req: TransactionRequest,
    s: OperationSettings,
    debitCmd: boolean,
    state: (s: TerminalState) => Promise<void>,
    wait: (ms: number) => Promise<void>,
    expire: (s: OperationSettings, k: TimeoutKey) => Promise<never>,
    cardOnCue: (s: OperationSettings) => Promise<void>,
  ): Promise<TerminalResult> {
    const refNum = String(++this.refSeq);
    const base: TerminalResult = {
      resultCode: RESULT.ok, resultText: 'APPROVED', authCode: '', refNum, approvedCents: 0, tipCents: 0, entryMode: 'K',
      brand: 'visa', debit: false, firstSix: '', lastFour: '', expDate: '', cvm: 'none', emv: null, signature: null,
    };
    if (req.type === 'void' || req.type === 'adjust' || req.type === 'postauth') {
      const orig = req.origRef ? this.sales.get(req.origRef) : undefined;
      await state('processing');
      await wait(this.script.stepMs);
      if (!orig) return { ...base, resultCode: RESULT.notSupported, resultText: 'NO SUCH TRANSACTION' };
      if (req.type === 'void') this.sales.delete(req.origRef as string);
      if (req.type === 'adjust') {
        orig.cents += (req.tipCents ?? 0) - orig.tip;
        orig.tip = req.tipCents ?? 0;
      }
      return { ...base, approvedCents: orig.cents, tipCents: orig.tip, refNum: req.origRef as string };
    }
    let outcome = mockOutcome(req.amountCents);
    const fail = (code: string, text: string): TerminalResult => ({ ...base, resultCode: code, resultText: text });
    if (outcome.kind === 'connect-error') {
      await state('processing');
      return fail(RESULT.connectError, 'CONNECT ERROR');
    }
    await state('card');
    if (outcome.kind === 'timeout-of' && outcome.key === 'overall_timeout') await wait(Number.MAX_SAFE_INTEGER >>> 1);
    if (outcome.kind === 'timeout-of' && outcome.key === 'card_entry_timeout') await expire(s, 'card_entry_timeout');
    if (this.script.card === 'none') await expire(s, 'card_entry_timeout');
    if (this.script.card === 'on-cue') await cardOnCue(s);
    await wait(this.script.stepMs);
    if (outcome.kind === 'timeout') return fail(RESULT.timeout, 'TIMEOUT');
    if (outcome.kind === 'aborted') return fail(RESULT.aborted, 'ABORTED');
    if (outcome.kind === 'delay') {
      await wait(outcome.seconds * this.secondMs);
      outcome = mockOutcome(0);
    }
    const read = outcome.kind === 'read' ? outcome : { kind: 'read' as const, entryMode: 'C' as const, debit: false, cvm: (outcome.kind === 'timeout-of' && outcome.key === 'pin_entry_timeout' ? 'pin' : outcome.kind === 'timeout-of' && outcome.key.startsWith('signature') ? 'signature' : 'none') as TerminalResult['cvm'], brand: undefined };
    let tip = req.tipCents ?? 0;
    if (req.type === 'sale' && req.tipCents === undefined && s.tipPercents) {
      await state('tip');
      if (this.script.tip === 'no-answer') await expire(s, 'tip_cashback_timeout');
      await wait(this.script.stepMs);
      const choice = this.script.tip;
      // Choice n is the n-th suggestion: a smart-tip flat amount when the request sent them, else a percent of the tip base it named.
      if (choice === 0 || choice === 'no-answer') tip = 0;
      else if (req.tipAmountsCents) tip = req.tipAmountsCents[choice - 1] ?? 0;
      else tip = percentTipCents(req.tipBaseCents ?? req.amountCents, s.tipPercents[choice - 1] ?? 0);
    }
    if (read.cvm === 'pin') {
      await state('pin');
      if (this.script.pin === 'none' || (outcome.kind === 'timeout-of' && outcome.key === 'pin_entry_timeout')) await expire(s, 'pin_entry_timeout');
      await wait(this.script.stepMs);
    }
    await state('processing');
    if (outcome.kind === 'timeout-of' && outcome.key === 'transaction_timeout') await expire(s, 'transaction_timeout');
    await wait(this.script.stepMs);
    let signature: string | null = null;
    if (read.cvm === 'signature') {
      if (outcome.kind === 'timeout-of' && outcome.key === 'signature_input_timeout') {
        await state('signature');
        await expire(s, 'signature_input_timeout');
      }
      if (outcome.kind === 'timeout-of' && outcome.key === 'signature_submit_timeout') {
        await state('signature');
        await expire(s, 'signature_submit_timeout');
      }
      signature = await this.signature(s, state, wait, expire);
    }
    const brand = read.brand ?? 'visa';
    const card = SIM_CARDS[brand];
    const total = req.amountCents + tip;
    if (req.type !== 'return') this.sales.set(refNum, { cents: total, tip });
    const cvmText = read.cvm === 'pin' ? 'PIN VERIFIED' : read.cvm === 'signature' ? 'SIGNATURE' : 'NO CVM';
    const emv: Record<string, string> | null = read.entryMode === 'C' || read.entryMode === 'P'
      ? { AID: card.aid, APPLAB: card.label, APPN: card.label, CVM: cvmText, TSI: 'E800', TVR: '0000008000' }
      : null;
    const leak = this.faults.fullPan === true;
    if (leak) {
      this.faults.fullPan = false;
      if (emv) Object.assign(emv, { PAN: card.pan, TRACK2: `${card.pan}D30121010000000000`, APPLAB: `${card.label} ${card.pan}` });
    }
    // Store-and-forward: the card as this reader encrypts it for the gateway (a number keyed on its pad too).
    const encrypted = req.storeAndForward
      ? encryptCardRead({ pan: card.pan, expDate: '1230', entryMode: read.entryMode, emv: emv ? { AID: card.aid, APPLAB: card.label, TVR: '0000008000', TSI: 'E800' } : null }, this.nextKsn())
      : null;
    await state('done');
    const over = this.faults.overReport;
    this.faults.overReport = undefined;
    return {
      ...base,
      authCode: String(100000 + (this.refSeq % 900000)).slice(-6),
      approvedCents: total + (over?.approvedCents ?? 0),
      tipCents: tip + (over?.tipCents ?? 0),
      entryMode: read.entryMode,
      brand,
      debit: read.debit || debitCmd,
      firstSix: leak ? card.pan : card.firstSix,
      lastFour: leak ? card.pan : card.lastFour,
      expDate: '1230',
      cvm: read.cvm,
      emv,
      signature,
      encrypted,
    };
  }

  /** The reader's key serial number for its next encryption: FFFF, this terminal's key id (from its serial), a counter. */
  private nextKsn(): string {
    const id = Buffer.from(this.serialNumber).toString('hex').padStart(11, '0').slice(-11);
    return `FFFF${id}${(++this.ksnCounter).toString(16).padStart(5, '0').slice(-5)}`.toUpperCase();
  }
  private ksnCounter = 0;
}
