/**
 * The one wrapper every IPC handler goes through, in Electron main and in the node
 * host alike. It refuses a message unless
 *   - the channel is part of the contract,
 *   - the sender is a top-level frame (no sub-frames, no webviews),
 *   - the sender's URL parses and its origin is on the allowlist,
 *   - the calling window may call the channel (its declared access: the admission the core's
 *     ruled handler map carries, channel-rules.ts), asked before the argument is parsed, so a
 *     refused caller learns nothing of its shape,
 *   - the argument passes the channel's schema (`unknown` in, typed out),
 * it runs the handler as the sending window or connection (see caller-context.ts),
 * and it turns every outcome — including a handler that throws — into a Result.
 *
 * It is deliberately electron-free: it sees the sender through the small `IpcSender`
 * shape that main.ts builds from `event.senderFrame`, so it runs under plain Node tests.
 */
import { channels, handlerArgs, methodName, type Channel, type HandlerMap } from '../../shared/ipc/contract';
import { fail, type Result } from '../../shared/result';
import { admissionOf } from './channel-admission';
import { LOCAL_CALLER, runAsCaller } from './caller-context';

export interface IpcSender {
  /** URL of the frame that sent the message (`event.senderFrame.url`). */
  url: string | undefined | null;
  /** False for any sub-frame (`senderFrame.parent !== null`). */
  isMainFrame: boolean;
  /**
   * Which window or connection is calling (`wc-<webContents id>`, `ws-<n>`): each has
   * its own sign-in. Absent only in tests of the dispatcher itself (LOCAL_CALLER).
   */
  callerId?: string;
}

export const IPC_ERRORS = {
  unknownChannel: 'This action is not part of Ringup.',
  badSender: 'The request came from a page Ringup does not trust.',
  subFrame: 'Requests from embedded frames are not accepted.',
  badArgument: 'The request was not in the expected form.',
  internal: 'Something went wrong inside Ringup. The details were written to the log.',
} as const;

export type Dispatch = (channel: string, sender: IpcSender, arg: unknown) => Promise<Result<unknown>>;

export interface DispatcherOptions {
  /** Exact origins allowed to call, e.g. `app://ringup` or `http://127.0.0.1:5123`. */
  allowedOrigins: readonly string[];
  /** Where unexpected errors go (never includes the argument, which may hold card data). */
  logError?: (channel: string, err: unknown) => void;
}

/** Throws at start-up if two channels would surface as the same bridge method. */
export function assertUniqueMethods(list: readonly string[] = channels): void {
  const seen = new Map<string, string>();
  for (const c of list) {
    const m = methodName(c);
    const prior = seen.get(m);
    if (prior) throw new Error(`IPC contract: channels "${prior}" and "${c}" both map to method "${m}"`);
    seen.set(m, c);
  }
}

export function originOf(url: string | undefined | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    // URL gives "null" as origin for non-special schemes; build it explicitly so
    // a custom standard scheme such as app://ringup is comparable.
    return `${u.protocol}//${u.host}`;
  } catch {
    return null;
  }
}

export function createDispatcher(handlers: HandlerMap, opts: DispatcherOptions): Dispatch {
  assertUniqueMethods();
  const allowed = new Set(opts.allowedOrigins);
  const admit = admissionOf(handlers);
  return async (channel, sender, arg) => {
    if (!Object.hasOwn(handlerArgs, channel)) return fail('unknown_channel', IPC_ERRORS.unknownChannel);
    if (!sender.isMainFrame) return fail('forbidden', IPC_ERRORS.subFrame);
    const origin = originOf(sender.url);
    if (!origin || !allowed.has(origin)) return fail('forbidden', IPC_ERRORS.badSender);

    const ch = channel as Channel;
    const callerId = sender.callerId ?? LOCAL_CALLER;
    const admitted = admit ? runAsCaller(callerId, () => admit(ch)) : null;
    if (admitted && !admitted.ok) return admitted;
    const parsed = handlerArgs[ch].safeParse(arg);
    if (!parsed.success) {
      const fields: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path.join('.') || 'general';
        (fields[key] ??= []).push(issue.message);
      }
      return fail('bad_request', IPC_ERRORS.badArgument, fields);
    }
    try {
      const handler = handlers[ch] as (a: unknown) => Promise<Result<unknown>>;
      return await runAsCaller(callerId, () => handler(parsed.data));
    } catch (err) {
      opts.logError?.(ch, err);
      return fail('internal', IPC_ERRORS.internal);
    }
  };
}
