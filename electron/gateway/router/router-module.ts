/**
 * Router endpoints: the engine drives an EMV terminal through the same driver as the app's
 * core (electron/devices), while the integrator's request stays open.
 *
 * - POST /v2/routertransactions: sale, authonly or refund on the terminal named by
 *   terminal_id; bounded by its overall_timeout. transaction_amount is the amount before
 *   the tip: the customer adds the tip on the terminal (its tip_percents) unless tip_amount
 *   is sent — Ringup: of `tip_base_amount` when sent (the store's tip base, e.g. before tax),
 *   or one of three flat `tip_amounts` (smart tips; router-fields.ts routerTipOffer); the stored transaction_amount is the total, tip included, as for every sale; answers 201 `{"routertransaction": {...}}`
 *   with the stored transaction's fields plus entry_mode_id and emv_receipt_data, its
 *   `_links.self` at /v2/transactions/{id}. The card read stands in for account data
 *   and the engine's processor decides, as for keyed sales (amount rules apply). What the
 *   terminal reports is checked first (terminal-amounts.ts): an approved amount that is not
 *   the amount asked plus a tip the terminal was allowed to add is reversed on the terminal
 *   and refused (422 under terminal_id); nothing is charged or stored. So is an answer the
 *   driver does not accept (terminal-answer.ts: amounts not in whole cents, a card number where
 *   none belongs, markup in its text…). Both refusals carry the terminal's answer masked under
 *   `terminal_answer`, for the counter's device-fault record.
 * - POST /v2/routeraccountvaults: reads a card and stores an account vault (no number:
 *   the terminal never gives one out; such a vault is a token of the read only).
 * - POST /v2/deviceterms on a terminal with an address prompts on it and stores the
 *   cardholder's answer and signature (a terminal without one keeps the engine's
 *   built-in simulated customer, see merchant/device-terms.ts).
 * Terminal errors: unreachable or gone mid-way → 503; busy → 409; a timeout, the customer
 * aborting or a connect error → 422 with the terminal's message under `terminal_id`.
 * Every successful contact records last_registration_ts on the terminal.
 * Ringup extensions (for the counter, which holds a router request open): GET
 * /v2/terminals/{id}/state answers `{"terminalstate": {terminal_id, state, prompt, busy}}`
 * (card, tip, pin, signature, processing, terms, done, idle); POST
 * /v2/terminals/{id}/cancel cancels the running operation (its request answers 422
 * "Cancelled at the counter."), or with `{"terminalcancel": {"transaction_api_id"}}` that
 * request only, also when it has not reached the terminal yet; POST
 * /v2/terminals/{id}/initialize (the installer's connection test) asks the terminal what it
 * is and records last_registration_ts.
 * One operation per terminal: a request for a terminal the engine is driving is refused 409
 * before the terminal is asked.
 * Migration 1200 adds `serial_path` to terminals and scanners (Ringup: serial devices);
 * 1201 takes the old seed's 127.0.0.1:10009 off the untouched demo terminal; 1203 adds `tls` and
 * `tls_fingerprint` to terminals (Ringup, issue 20 point 1: the link over TLS, pinned to the
 * terminal's certificate); 1204 adds `reported_serial_number`, the serial the terminal gave of
 * itself when it was last initialized (Ringup, issue 21 point 14). A TLS terminal that presents another certificate, or does not answer
 * over TLS, is never spoken to: 503 with the sentence under `terminal_id` and the fingerprint it
 * presented under `terminal_certificate` (for the counter's device-fault record); it counts as no
 * contact (last_registration_ts stays).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formatMoney, parseMoneyInput } from '../../../shared/payments/money';
import { DEVICE_MSG, DeviceError } from '../../devices/device-messages';
import { TerminalFault } from '../../devices/terminal-answer';
import { TERMINAL_CERTIFICATE_KEY, TerminalCertificateError } from '../../devices/terminal-tls';
import type { TerminalResult } from '../../devices/terminal-commands';
import type { TerminalDriver, TerminalInfo } from '../../devices/terminal-driver';
import type { EngineContext, EngineModule } from '../framework/context';
import { ApiError, ErrorCollector, fmt, notFound } from '../framework/errors';
import type { Row } from '../framework/resource';
import { wrappedBody } from '../framework/validate';
import { DEVICE_TERMS_ACCEPTED, deviceTermResource, termsAnswers } from '../merchant/device-terms';
import { MERCHANT_MSG } from '../merchant/messages';
import { routerOpenApi } from './router-openapi';
import { actionAllow } from '../payments/transaction-fields';
import { ANY_USER, DEVICE_SETUP, MANAGERS } from '../framework/permissions';
import type { AccountData } from '../payments/card-source';
import type { PaymentsRuntime } from '../payments/payments-module';
import { docWithLinks } from '../payments/transaction-doc';
import { PAY_MSG } from '../payments/payment-messages';
import { cancelApiId, ROUTER_ACTIONS, routerTipOffer, routerTransactionErrors, routerVaultErrors } from './router-fields';
import { present } from '../payments/input-fields';
import { ROUTER_TRANSACTION_DIGITS, ROUTER_VAULT_DIGITS, TERMINAL_CANCEL_DIGITS } from './router-card-numbers';
import { ROUTER_MSG, TERMINAL_ANSWER_KEY } from './router-messages';
import { allowedTipCents, reportFits, type TerminalAsk } from './terminal-amounts';
import { MOCK_COMMUNICATION_TYPE } from '../merchant/terminals';
import { MockTerminals } from './mock-terminal';
import { driverFor, terminalSettings } from './terminal-link';

type Body = Record<string, unknown>;

export function deviceErrorToApi(e: unknown): never {
  if (e instanceof TerminalCertificateError) throw new ApiError(503, { terminal_id: [e.message], [TERMINAL_CERTIFICATE_KEY]: [e.presented ?? 'none (no TLS handshake)'] });
  if (e instanceof DeviceError) {
    const status = e.code === 'unreachable' || e.code === 'disconnected' || e.code === 'protocol' ? 503 : e.code === 'busy' ? 409 : 422;
    throw new ApiError(status, { terminal_id: [e.message] });
  }
  throw e;
}

/** The terminal answered (last_registration_ts): not when unreachable, nor when it was not the terminal set up (TLS). */
const reachedTerminal = (e: unknown) => !(e instanceof DeviceError) || (e.code !== 'unreachable' && e.code !== 'untrusted');

export function presentedAccount(r: TerminalResult): AccountData {
  return {
    paymentMethod: 'cc', brand: r.brand, firstSix: r.firstSix || null, lastFour: r.lastFour, expDate: r.expDate || null,
    accountNumber: null, cvv: null, routing: null, accountType: r.debit ? 'debit' : null, accountHolderName: null, achSecCode: null, vaultId: null,
  };
}

/**
 * A terminal answered amounts that do not fit the request (terminal-amounts.ts), or an answer
 * that is not well formed (a TerminalFault, terminal-answer.ts): its approval is reversed on the
 * terminal (a void naming its reference) before the request is refused, so the terminal's batch
 * does not keep it either. The answer says whether the terminal confirmed, and carries the
 * terminal's answer masked under `terminal_answer`, so the counter records the device fault.
 */
async function reverseOnTerminal(driver: TerminalDriver, refNum: string, refused: string, raw: string): Promise<ApiError> {
  let reversed = false;
  if (refNum) {
    try {
      await driver.void(randomUUID().replace(/-/g, ''), refNum);
      reversed = true;
    } catch {
      // Told below: the merchant checks the terminal.
    }
  }
  return new ApiError(422, { terminal_id: [`${refused} ${reversed ? ROUTER_MSG.REVERSED : ROUTER_MSG.NOT_REVERSED}`], [TERMINAL_ANSWER_KEY]: [raw] });
}

/** The amounts of an answer that does not fit, as its masked raw record. */
const answerSummary = (a: TerminalResult) => `approved ${a.approvedCents}, tip ${a.tipCents}, ref ${a.refNum}, card ${a.firstSix}/${a.lastFour}`;

/** What a terminal is doing now (Ringup extension, GET /v2/terminals/{id}/state). */
interface LiveState {
  state: string;
  prompt: string;
  busy: boolean;
}

/** Migration that takes the old seed's address off the untouched demo terminal. */
export const DEMO_TERMINAL_MIGRATION = 1201;
/** Migration that makes the untouched demo terminal of an older seed the sandbox's mock terminal. */
export const MOCK_TERMINAL_MIGRATION = 1202;

export function createRouterModule(payments: { runtime(): PaymentsRuntime }): EngineModule {
  let secondMs: number | undefined;
  /** The sandbox's built-in mock terminals (mock-terminal.ts); none in a production-mode engine. */
  let mock: MockTerminals | undefined;
  const live = new Map<string, LiveState>();
  /** Terminal id → the driver at work and the request it serves (location\0transaction_api_id, or null). */
  const running = new Map<string, { driver: TerminalDriver; apiKey: string | null }>();
  const inFlight = new Map<string, Promise<{ doc: string; id: string; open?: string }>>();
  /**
   * Cancels that arrived before their request (Cancel pressed at the counter while its sale
   * was still on the way): the request's key → when the note lapses (ms). Bounded by the
   * longest overall_timeout, and used up by the request it names.
   */
  const cancelledEarly = new Map<string, number>();
  const EARLY_CANCEL_MS = 300_000;
  const noteEarlyCancel = (key: string) => {
    const now = Date.now();
    for (const [k, until] of cancelledEarly) if (until < now) cancelledEarly.delete(k);
    if (cancelledEarly.size < 1000) cancelledEarly.set(key, now + EARLY_CANCEL_MS);
  };
  const takeEarlyCancel = (key: string) => {
    const until = cancelledEarly.get(key);
    cancelledEarly.delete(key);
    return until !== undefined && until >= Date.now();
  };

  /**
   * Runs one driver operation with the terminal's live state kept for the counter. A terminal
   * this engine is already driving is refused here (409 busy) before its driver is asked: the
   * second request must not replace the first one's live state or the driver its Cancel reaches.
   */
  async function track<T>(t: Row, driver: TerminalDriver, op: () => Promise<T>, apiKey: string | null = null): Promise<T> {
    const id = String(t.id);
    if (running.has(id)) throw new DeviceError('busy', DEVICE_MSG.BUSY);
    live.set(id, { state: 'idle', prompt: '', busy: true });
    running.set(id, { driver, apiKey });
    const mine = () => running.get(id)?.driver === driver;
    const off = driver.onState((state, prompt) => {
      if (mine()) live.set(id, { state, prompt, busy: true });
    });
    try {
      return await op();
    } finally {
      off();
      if (mine()) {
        running.delete(id);
        live.set(id, { state: 'idle', prompt: '', busy: false });
      }
    }
  }

  const findTerminal = (ctx: EngineContext, req: FastifyRequest, id: unknown, locationId: string | undefined): Row => {
    if (!present(id)) throw new ApiError(422, { terminal_id: [ROUTER_MSG.TERMINAL_REQUIRED] });
    const t = ctx.stmt('SELECT * FROM terminals WHERE id = ?').get(String(id)) as Row | undefined;
    if (!t || !req.auth.locationSet.has(String(t.location_id)) || (locationId !== undefined && t.location_id !== locationId)) {
      throw new ApiError(422, { terminal_id: [MERCHANT_MSG.TERMINAL_NOT_IN_LOCATION] });
    }
    if (t.active !== 1) throw new ApiError(422, { terminal_id: [ROUTER_MSG.TERMINAL_INACTIVE] });
    return t;
  };

  const driverOrFail = (t: Row): TerminalDriver => {
    const d = driverFor(t, secondMs, mock);
    if (!d) throw new ApiError(422, { terminal_id: [ROUTER_MSG.TERMINAL_NO_ADDRESS] });
    return d;
  };

  const registered = (ctx: EngineContext, t: Row) => {
    ctx.stmt('UPDATE terminals SET last_registration_ts = ? WHERE id = ?').run(ctx.clock.now(), t.id);
  };

  const emvReceipt = (r: TerminalResult) => (r.emv ? { ...r.emv } : null);

  return {
    name: 'router',
    migrations: [
      {
        version: 1200,
        module: 'router',
        name: 'serial paths of terminals and scanners',
        up(db) {
          db.exec('ALTER TABLE terminals ADD COLUMN serial_path TEXT; ALTER TABLE scanners ADD COLUMN serial_path TEXT;');
        },
      },
      {
        version: DEMO_TERMINAL_MIGRATION,
        module: 'router',
        name: 'the seeded demo terminal waits for an address',
        // Earlier seeds pointed it at 127.0.0.1:10009, so every counter without a terminal
        // showed it offline. Only the untouched record (never edited, never reached) changes.
        up(db) {
          db.prepare(
            `UPDATE terminals SET local_ip_address = NULL WHERE serial_number = 'SIM0000001' AND title = 'Demo Terminal'
               AND local_ip_address = '127.0.0.1' AND port = 10009 AND last_registration_ts IS NULL AND modified_ts = created_ts`,
          ).run();
        },
      },
      {
        version: MOCK_TERMINAL_MIGRATION,
        module: 'router',
        name: 'the seeded demo terminal is the mock terminal',
        // Only the record as the seed left it (no address, never edited): one an installer gave
        // an address, or changed, stays the merchant's. A production engine ignores "mock".
        up(db) {
          db.prepare(
            `UPDATE terminals SET communication_type = ? WHERE serial_number = 'SIM0000001' AND title = 'Demo Terminal' AND communication_type = 'tcp'
               AND local_ip_address IS NULL AND (serial_path IS NULL OR serial_path = '') AND modified_ts = created_ts`,
          ).run(MOCK_COMMUNICATION_TYPE);
        },
      },
      {
        version: 1203,
        module: 'router',
        name: 'TLS on the terminal link, pinned to the terminal certificate',
        up(db) {
          db.exec('ALTER TABLE terminals ADD COLUMN tls INTEGER NOT NULL DEFAULT 0; ALTER TABLE terminals ADD COLUMN tls_fingerprint TEXT;');
        },
      },
      {
        version: 1204,
        module: 'router',
        name: 'the serial number a terminal reports of itself',
        up(db) {
          db.exec('ALTER TABLE terminals ADD COLUMN reported_serial_number TEXT;');
        },
      },
    ],
    close() {
      return mock?.close();
    },
    init(ctx) {
      secondMs = ctx.options.deviceSecondMs;
      mock = ctx.options.production ? undefined : new MockTerminals(secondMs);
    },
    openapi: routerOpenApi,
    routes(app: FastifyInstance, ctx: EngineContext) {
      // The transaction action table decides (a refund on a terminal is a refund), before the customer is asked for a card.
      // Card numbers: the transaction fields' rules plus the terminal's id (router-card-numbers.ts).
      const routerTxnConfig = { allow: actionAllow('routertransaction', ROUTER_ACTIONS, { defaultAction: 'sale' }), keepsDigits: ROUTER_TRANSACTION_DIGITS };
      app.post('/v2/routertransactions', { config: routerTxnConfig }, async (req, reply) => {
        const body = wrappedBody(req.body, 'routertransaction');
        // Every field before the terminal is asked anything (router-fields.ts).
        routerTransactionErrors(body).throwIfAny();
        const action = present(body.action) ? String(body.action) : 'sale';
        const locationId = present(body.location_id) ? String(body.location_id) : undefined;
        const terminal = findTerminal(ctx, req, body.terminal_id, locationId);
        const rt = payments.runtime();
        // A repeated transaction_api_id answers the stored record without touching the terminal.
        if (present(body.transaction_api_id)) {
          const dup = rt.transactions.byApiId(String(terminal.location_id), String(body.transaction_api_id));
          if (dup) return reply.code(201).type('application/json; charset=utf-8').send(`{"routertransaction":${docWithLinks(rt.transactions.recordJson(dup), `${ctx.origin}/v2/transactions/${dup.id}`)}}`);
        }
        // The amounts were checked with every other field (routerTransactionErrors).
        const amountCents = parseMoneyInput(body.transaction_amount) as number;
        const tipCents = present(body.tip_amount) ? (parseMoneyInput(body.tip_amount) as number) : undefined;
        const driver = driverOrFail(terminal);
        const key = present(body.transaction_api_id) ? `${String(terminal.location_id)}\0${String(body.transaction_api_id)}` : null;
        // What the terminal may answer (terminal-amounts.ts): the amount asked plus a tip it was allowed to add.
        // The tip the customer picks on the terminal: on the base and with the flat amounts the request named (Ringup, issue 21).
        const offer = tipCents === undefined && action === 'sale' ? routerTipOffer(body) : {};
        const ask: TerminalAsk = { action: action as TerminalAsk['action'], amountCents, tipCents, tipPercents: terminalSettings(terminal).tipPercents, ...offer };
        const run = async (): Promise<{ doc: string; id: string; open?: string }> => {
          let read: TerminalResult;
          try {
            const r = { amountCents, tipCents, ecrRef: String(body.transaction_api_id ?? ctx.newId()).slice(0, 32), ...offer };
            read = await track(terminal, driver, async () => {
              let answer: TerminalResult;
              try {
                answer = await (action === 'refund' ? driver.refund(r) : action === 'authonly' ? driver.auth(r) : driver.sale(r, false));
              } catch (e) {
                // An answer the driver would not read (terminal-answer.ts): nothing it says is charged.
                if (e instanceof TerminalFault) throw await reverseOnTerminal(driver, e.refNum, e.message, e.raw);
                throw e;
              }
              if (!reportFits(ask, answer)) {
                const refused = fmt(ROUTER_MSG.AMOUNT_NOT_ASKED, { reported: formatMoney(answer.approvedCents), asked: formatMoney(ask.amountCents), tip: formatMoney(allowedTipCents(ask)) });
                throw await reverseOnTerminal(driver, answer.refNum, refused, answerSummary(answer));
              }
              return answer;
            }, key);
          } catch (e) {
            if (reachedTerminal(e)) registered(ctx, terminal);
            deviceErrorToApi(e);
          }
          registered(ctx, terminal);
          // Charged as asked: the amount before the tip plus the tip the terminal reported (checked above).
          const txBody: Body = {
            ...body,
            action,
            payment_method: 'cc',
            location_id: terminal.location_id,
            transaction_amount: formatMoney(amountCents + read.tipCents),
            tip_amount: read.tipCents > 0 ? formatMoney(read.tipCents) : present(body.tip_amount) ? body.tip_amount : undefined,
          };
          // Router-only fields: the terminal, and what its tip screen offered (not transaction fields).
          delete txBody.terminal_id;
          delete txBody.tip_base_amount;
          delete txBody.tip_amounts;
          const res = await rt.transactions.createFrom(req.auth, txBody, {
            account: presentedAccount(read),
            doc: {
              entry_mode_id: read.entryMode,
              emv_receipt_data: emvReceipt(read),
              terminal_id: terminal.id,
              terminal_serial_number: terminal.serial_number,
            },
          });
          return res;
        };
        // Parallel requests with the same transaction_api_id share one terminal run (no double charge).
        let pending = key ? inFlight.get(key) : undefined;
        if (!pending) {
          if (key && takeEarlyCancel(key)) deviceErrorToApi(new DeviceError('cancelled', DEVICE_MSG.CANCELLED));
          pending = run();
          if (key) {
            inFlight.set(key, pending);
            void pending.catch(() => undefined).finally(() => inFlight.delete(key));
          }
        }
        const res = await pending;
        return reply.code(201).type('application/json; charset=utf-8').send(`{"routertransaction":${docWithLinks(res.doc, `${ctx.origin}/v2/transactions/${res.id}`, res.open)}}`);
      });

      // Storing a card is a saved card's create: a manager's (as POST /v2/accountvaults).
      app.post('/v2/routeraccountvaults', { config: { allow: MANAGERS, keepsDigits: ROUTER_VAULT_DIGITS } }, async (req, reply) => {
        const body = wrappedBody(req.body, 'routeraccountvault');
        routerVaultErrors(body).throwIfAny();
        const terminal = findTerminal(ctx, req, body.terminal_id, String(body.location_id));
        const contact = ctx.stmt('SELECT id, location_id FROM contacts WHERE id = ?').get(String(body.contact_id)) as Row | undefined;
        if (!contact || contact.location_id !== terminal.location_id) throw new ApiError(422, { contact_id: [PAY_MSG.CONTACT_INVALID] });
        const driver = driverOrFail(terminal);
        let read: TerminalResult;
        try {
          read = await track(terminal, driver, () => driver.auth({ amountCents: 0, ecrRef: ctx.newId().slice(0, 32) }));
        } catch (e) {
          deviceErrorToApi(e);
        }
        registered(ctx, terminal);
        const rt = payments.runtime();
        const id = await rt.writer.submit(() => rt.vaults.insertFromAccount(presentedAccount(read), String(terminal.location_id), String(contact.id), {}, ctx.clock.now()));
        const row = rt.vaults.visibleRow(id, req.auth);
        const vault = row ? rt.vaults.serialize(row) : null;
        return reply.code(201).send({ accountvault: vault });
      });

      // Ringup extensions for the counter: follow a terminal live and cancel what it is doing.
      const stateOf = (req: FastifyRequest, id: string) => {
        const t = ctx.stmt('SELECT id, location_id FROM terminals WHERE id = ?').get(id) as Row | undefined;
        if (!t || !req.auth.locationSet.has(String(t.location_id))) throw notFound();
        const s = live.get(id) ?? { state: 'idle', prompt: '', busy: false };
        return { terminalstate: { terminal_id: id, ...s } };
      };
      app.get<{ Params: { id: string } }>('/v2/terminals/:id/state', { config: { allow: ANY_USER } }, async (req) => stateOf(req, req.params.id));
      // A body {"terminalcancel": {"transaction_api_id"}} cancels that request only: the one
      // running, or, when it has not reached the terminal yet, the one still on its way.
      // Stopping what a terminal does moves no money: whoever stands at it.
      app.post<{ Params: { id: string } }>('/v2/terminals/:id/cancel', { config: { allow: ANY_USER, keepsDigits: TERMINAL_CANCEL_DIGITS } }, async (req) => {
        const answer = stateOf(req, req.params.id);
        const errs = new ErrorCollector();
        const apiId = cancelApiId(req.body, errs);
        errs.throwIfAny();
        const r = running.get(req.params.id);
        if (!present(apiId)) r?.driver.cancel();
        else {
          const t = ctx.stmt('SELECT location_id FROM terminals WHERE id = ?').get(req.params.id) as Row;
          const key = `${String(t.location_id)}\0${String(apiId)}`;
          if (r?.apiKey === key) r.driver.cancel();
          else noteEarlyCancel(key);
        }
        return answer;
      });

      // Ringup extension for the installer's "Test connection": the engine initializes the
      // terminal itself (A00), so the contact is recorded like any other.
      app.post<{ Params: { id: string } }>('/v2/terminals/:id/initialize', { config: { allow: DEVICE_SETUP } }, async (req) => {
        const t = ctx.stmt('SELECT * FROM terminals WHERE id = ?').get(req.params.id) as Row | undefined;
        if (!t || !req.auth.locationSet.has(String(t.location_id))) throw notFound();
        if (t.active !== 1) throw new ApiError(422, { terminal_id: [ROUTER_MSG.TERMINAL_INACTIVE] });
        const driver = driverOrFail(t);
        let info: TerminalInfo;
        try {
          info = await track(t, driver, () => driver.initialize());
        } catch (e) {
          if (e instanceof DeviceError && reachedTerminal(e)) registered(ctx, t);
          deviceErrorToApi(e);
        }
        registered(ctx, t);
        // What the terminal says it is, beside what it is registered as: the counter says so when they differ.
        ctx.stmt('UPDATE terminals SET reported_serial_number = ? WHERE id = ?').run(info.serialNumber, t.id);
        const { last_registration_ts } = ctx.stmt('SELECT last_registration_ts FROM terminals WHERE id = ?').get(t.id) as Row;
        return { terminalinfo: { terminal_id: t.id, serial_number: info.serialNumber, model: info.model, application: info.application, last_registration_ts } };
      });

      // Device terms on a terminal with an address: prompt there before the record is made.
      const promptForDeviceTerms = async (req: FastifyRequest): Promise<void> => {
        const body = typeof req.body === 'object' && req.body !== null ? ((req.body as Body).deviceterm as Body | undefined) : undefined;
        if (!body || !present(body.terminal_id)) return;
        // Only a request the resource would accept reaches the customer; otherwise its 422 answers.
        let values: Row;
        try {
          values = ctx.validateWrite(deviceTermResource, req.body, 'create', req).values;
        } catch {
          return;
        }
        const t = ctx.stmt('SELECT * FROM terminals WHERE id = ?').get(String(values.terminal_id)) as Row | undefined;
        if (!t || t.location_id !== values.location_id) return;
        const requireSig = values.require_signature === 1;
        if (requireSig && t.sig_capture_enable !== 1) return;
        if (typeof values.device_terms_api_id === 'string') {
          const prior = ctx.stmt('SELECT reason_code_id FROM deviceterms WHERE location_id = ? AND device_terms_api_id = ?').get(values.location_id, values.device_terms_api_id) as Row | undefined;
          if (prior && prior.reason_code_id === DEVICE_TERMS_ACCEPTED) return; // taken
        }
        // Only a terminal with an address is prompted; the mock terminal keeps the engine's simulated customer (device-terms.ts).
        const driver = driverFor(t, secondMs);
        if (!driver) return;
        try {
          termsAnswers.set(req, await track(t, driver, () => driver.deviceTerms(String(values.terms_conditions), requireSig)));
        } catch (e) {
          deviceErrorToApi(e);
        }
        registered(ctx, t);
      };
      // A callback hook that returns at once for every other route: an async hook would cost
      // each request (every sale) a promise and a microtask turn.
      app.addHook('preHandler', (req, _reply, done) => {
        if (req.method !== 'POST' || req.routeOptions.url !== '/v2/deviceterms') return done();
        promptForDeviceTerms(req).then(() => done(), done);
      });
    },
  };
}
