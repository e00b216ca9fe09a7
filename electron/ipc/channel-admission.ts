/**
 * How the dispatcher finds the admission check of a ruled handler map (channel-rules.ts makes
 * it): kept under a symbol on the map, so it is no channel (Object.keys, a spread and the
 * bridges never see it), and in a file of its own so the dispatcher imports none of the core.
 */
import type { Channel, HandlerMap, Session } from '../../shared/ipc/contract';
import type { Result } from '../../shared/result';

/** Whether the calling window may call `channel` at all: its declared access (and a copied folder's refusal). */
export type Admission = (channel: Channel) => Result<Session | null>;

const ADMISSION = Symbol('ringup.channel-admission');

/** Attaches `admit` to a ruled handler map (channel-rules.ts). */
export function attachAdmission(handlers: object, admit: Admission): void {
  Object.defineProperty(handlers, ADMISSION, { value: admit, enumerable: false });
}

/** The admission check of a handler map made by `enforceChannelRules`, or undefined for any other map (a test's stubs). */
export function admissionOf(handlers: HandlerMap): Admission | undefined {
  return (handlers as HandlerMap & { [ADMISSION]?: Admission })[ADMISSION];
}
