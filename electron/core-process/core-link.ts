/**
 * What a shell needs of the core, wherever the core runs: calls through the dispatcher, the
 * pushed events (with the caller each is for), and word that a window or connection went away.
 * The app and the node host reach the core in its own process (core-process.ts); unit tests of
 * the host reach a core in their own process (`inProcessLink`). Either way the dispatcher runs
 * beside the handlers (`dispatcherOf`), so validation and who may call what are judged in one
 * place for every transport.
 */
import type { Core } from '../core/app-core';
import type { EventListener } from '../core/platform/events';
import { createDispatcher, type Dispatch } from '../ipc/dispatcher';

export interface CoreEventSource {
  /** Listen to every event; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void;
}

export interface CoreLink {
  dispatch: Dispatch;
  events: CoreEventSource;
  disconnect(callerId: string): void;
}

export type LogError = (channel: string, err: unknown) => void;

/** The one dispatcher over a core's handlers (core-child.ts and in-process hosts alike). */
export function dispatcherOf(core: Core, allowedOrigins: readonly string[], logError?: LogError): Dispatch {
  return createDispatcher(core.handlers, { allowedOrigins, ...(logError ? { logError } : {}) });
}

/** A core running in this process (host unit tests). */
export function inProcessLink(core: Core, allowedOrigins: readonly string[], logError?: LogError): CoreLink {
  return { dispatch: dispatcherOf(core, allowedOrigins, logError), events: core.events, disconnect: (id) => core.disconnect(id) };
}
