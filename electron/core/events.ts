/** A small typed emitter for the contract's pushed events. */
import type { EventName, EventPayloads } from '../../shared/ipc/contract';

export type EventListener = <E extends EventName>(event: E, payload: EventPayloads[E]) => void;

export class CoreEvents {
  private readonly listeners = new Set<EventListener>();

  /** Listen to every event; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void {
    for (const l of this.listeners) {
      try {
        l(event, payload);
      } catch {
        // A broken subscriber (a closed socket, a destroyed window) must not stop the others.
      }
    }
  }
}
