/**
 * The one place that enforces what each channel declares (shared/ipc/channel-declaration.ts):
 * who may call it, and what it writes to the audit log. app-core.ts wraps the core's handler
 * map with it once, so Electron IPC, the node host's WebSocket and in-process callers all go
 * through it. The map it answers carries its admission check (`admissionOf`): the dispatcher
 * asks it before it parses the argument, so a refused caller learns nothing about the
 * argument's shape (the handler checks again, for in-process callers).
 *
 * Before the handler:
 *   - a copied data folder answers only the channels declared `copiedFolder: 'answers'`
 *     (register-binding.ts says why), in its own sentence;
 *   - `before-sign-in` lets anyone in; otherwise the calling window must be signed in (an idle
 *     session is locked here, and the check counts as activity, as `UserDirectory.require` does)
 *     and, for a list of roles, hold one of them — else `unauthenticated` / `forbidden` in the
 *     same sentences as the handlers used to answer (AUTH_ERRORS).
 * After it:
 *   - a successful call of a channel that declares an audit kind is written through its
 *     recorder (electron/core/audit/recorders.ts) with the caller as admitted: an idle lock
 *     during a slow charge does not lose the name of who charged. A declined sale is a
 *     successful call and is written as declined.
 *   - a refused or failed call writes nothing of its own; but money a service moved during it
 *     (a cart's card tenders, the voids of a cancelled cart, noted by `noteMoney`) is written
 *     all the same: a cancel that gave back one card of two still gave that one back.
 * Events that are not a channel's result (a wrong PIN, a lockout, an idle lock, a device
 * fault, a payment whose answer was lost) are recorded where they happen.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { channelAccess, channelAudit, channelDeclarations, roleMayCall, type AuditedChannel, type Channel, type ChannelAccess, type HandlerMap, type Role, type Session } from '../../shared/ipc/contract';
import { fail, ok, type Result } from '../../shared/result';
import type { AuditRecord } from '../core/audit/audit-log';
import type { AuditLine, AuditRecorders, MoneyMove, MoneyService } from '../core/audit/recorders';
import { AUTH_ERRORS } from '../core/auth/users';
import { REGISTER_COPY_MESSAGE } from '../core/queue/register-binding';
import { attachAdmission, type Admission } from './channel-admission';

export { admissionOf } from './channel-admission';

export interface ChannelRulesDeps {
  /** The calling window's session: `require` checks it (idle lock, activity), `peek` only reads it. */
  users: { require(): Result<Session>; peek(): Session | null };
  audit: { record(r: AuditRecord): void };
  recorders: AuditRecorders;
  /** This data folder is a copy of another register's (register-binding.ts). */
  copiedFolder: boolean;
  /** Where a recorder's own failure goes: the money moved, so the call's answer stands (never includes the argument). */
  logError?: (channel: string, err: unknown) => void;
}

/** What a channel's call carries for the code it runs: the session as admitted, and the money its services moved. */
interface CallContext {
  session: Session | null;
  moves: MoneyMove[];
}
const calls = new AsyncLocalStorage<CallContext>();

/** The channels an installer may call: derived from the declarations (before sign-in, any signed-in user, or a list naming installers). */
export const INSTALLER_CHANNELS: ReadonlySet<Channel> = new Set((Object.keys(channelAccess) as Channel[]).filter((c) => roleMayCall(channelAccess[c], 'installer')));

/** The channels a copied data folder still answers: derived from the declarations. */
export const REGISTER_COPY_CHANNELS: ReadonlySet<Channel> = new Set(
  (Object.keys(channelDeclarations) as Channel[]).filter((c) => (channelDeclarations[c] as { copiedFolder?: 'answers' }).copiedFolder === 'answers'),
);

/** The sentence for a role the declaration leaves out, in the words the handlers used. */
export function refusalFor(access: Exclude<ChannelAccess, 'before-sign-in' | 'signed-in'>, role: Role): string {
  if (role === 'installer') return AUTH_ERRORS.installerScope;
  if (access.includes('installer')) return AUTH_ERRORS.setupOnly;
  if (!access.includes('cashier')) return AUTH_ERRORS.managerOnly;
  return AUTH_ERRORS.counterOnly;
}

/**
 * The session of the window whose channel is running, as the rules admitted it: handlers that
 * need to know who asks (a clerk record, a "manager cannot remove themselves") read it here
 * instead of checking the role again. Only inside a channel that needs a signed-in caller.
 */
export function callerSession(): Session {
  const s = calls.getStore()?.session;
  if (!s) throw new Error('callerSession() outside a signed-in channel: the channel rules admit the caller first');
  return s;
}

/**
 * A money service the core called on a channel's behalf moved money (the cart's card
 * tender, a cancelled cart's void): noted for the channel's recorder. `run` is the service.
 */
export async function noteMoney<S extends MoneyService>(service: S, arg: Parameters<HandlerMap[S]>[0], run: () => ReturnType<HandlerMap[S]>): Promise<Awaited<ReturnType<HandlerMap[S]>>> {
  const r = await run();
  if (r.ok) calls.getStore()?.moves.push({ service, arg, value: r.value } as MoneyMove);
  return r as Awaited<ReturnType<HandlerMap[S]>>;
}

export function enforceChannelRules(inner: HandlerMap, deps: ChannelRulesDeps): HandlerMap {
  const refusedCopy = fail('register_copy', REGISTER_COPY_MESSAGE);
  const logError = deps.logError ?? ((channel: string, err: unknown) => console.error(`[audit] ${channel}: ${err instanceof Error ? err.message : String(err)}`));

  function admit(channel: Channel): Result<Session | null> {
    if (deps.copiedFolder && !REGISTER_COPY_CHANNELS.has(channel)) return refusedCopy;
    const access = channelAccess[channel];
    if (access === 'before-sign-in') return ok(deps.users.peek());
    const s = deps.users.require();
    if (!s.ok) return s;
    if (access !== 'signed-in' && !access.includes(s.value.user.role)) return fail('forbidden', refusalFor(access, s.value.user.role));
    return s;
  }

  function write(channel: Channel, lines: readonly AuditLine[], caller: Session | null): void {
    try {
      for (const line of lines) {
        const user = line.user === undefined ? (caller ? { id: caller.user.id, name: caller.user.name } : null) : line.user;
        deps.audit.record({ kind: line.kind, user, amountCents: line.amountCents ?? null, transactionId: line.transactionId ?? null, detail: line.detail ?? '' });
      }
    } catch (err) {
      logError(channel, err);
    }
  }

  const handlers: Record<string, (arg: unknown) => Promise<Result<unknown>>> = {};
  for (const channel of Object.keys(channelDeclarations) as Channel[]) {
    const handler = inner[channel] as ((arg: unknown) => Promise<Result<unknown>>) | undefined;
    if (!handler) throw new Error(`IPC contract: channel "${channel}" has no handler`);
    const audited = channelAudit[channel] !== 'none';
    const recorder = audited ? deps.recorders.channels[channel as AuditedChannel] : undefined;
    if (audited && !recorder) throw new Error(`IPC contract: channel "${channel}" declares an audit kind but has no recorder`);
    handlers[channel] = async (arg) => {
      const admitted = admit(channel);
      if (!admitted.ok) return admitted;
      const caller = admitted.value;
      const call: CallContext = { session: caller, moves: [] };
      let before: unknown;
      if (recorder?.before) before = (recorder.before as (a: unknown, c: Session | null) => unknown)(arg, caller);
      let r: Result<unknown>;
      try {
        r = await calls.run(call, () => handler(arg));
      } catch (err) {
        write(channel, deps.recorders.moves(call.moves, caller), caller);
        throw err;
      }
      if (r.ok && recorder) {
        let lines: AuditLine[];
        try {
          const out = (recorder.record as (c: unknown, b: unknown) => AuditLine | AuditLine[])({ arg, value: r.value, caller, moves: call.moves }, before);
          lines = Array.isArray(out) ? out : [out];
        } catch (err) {
          // A recorder's bug must not turn money that moved into a failure: the moves are still written.
          logError(channel, err);
          lines = deps.recorders.moves(call.moves, caller);
        }
        write(channel, lines, caller);
      } else if (call.moves.length > 0) {
        // Not this channel's success, but money moved on its way: written all the same.
        write(channel, deps.recorders.moves(call.moves, caller), caller);
      }
      return r;
    };
  }
  attachAdmission(handlers, admit satisfies Admission);
  return handlers as HandlerMap;
}
