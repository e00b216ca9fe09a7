/**
 * A small typed emitter for the contract's pushed events. An event goes to every
 * window (`emit`) or to one caller only (`emitTo`: a sign-in, a sign-out or an idle
 * lock belongs to the window it happened in); each bridge drops events addressed to
 * another caller.
 */
import type { EventName, EventPayloads } from '../../../shared/ipc/contract';

/** `to` is the caller id the event is meant for; undefined means every window. */
export type EventListener = <E extends EventName>(event: E, payload: EventPayloads[E], to?: string) => void;

export class CoreEvents {
  private readonly listeners = new Set<EventListener>();

  /** Listen to every event; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void {
    this.deliver(event, payload, undefined);
  }

  emitTo<E extends EventName>(callerId: string, event: E, payload: EventPayloads[E]): void {
    this.deliver(event, payload, callerId);
  }

  private deliver<E extends EventName>(event: E, payload: EventPayloads[E], to: string | undefined): void {
    for (const l of this.listeners) {
      try {
        l(event, payload, to);
      } catch {
        // A broken subscriber (a closed socket, a destroyed window) must not stop the others.
      }
    }
  }
}

/** Whether an event addressed to `to` is for the window or connection `callerId`. */
export function isFor(callerId: string, to: string | undefined): boolean {
  return to === undefined || to === callerId;
}
