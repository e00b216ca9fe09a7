/**
 * Preload (sandboxed, CommonJS). Exposes exactly the contract's methods as
 * `window.ringup` and nothing else: never ipcRenderer itself, never a generic
 * `invoke(channel)` that a compromised page could point anywhere.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { EVENT_CHANNEL, eventNames, methodToChannel, type EventName, type EventPayloads, type RingupBridge } from '../shared/ipc/contract';


function buildBridge(): RingupBridge {
  const bridge: Record<string, unknown> = {};
  for (const [method, channel] of Object.entries(methodToChannel)) {
    bridge[method] = (arg?: unknown) => ipcRenderer.invoke(channel, arg);
  }
  bridge.on = <E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void) => {
    if (!eventNames.includes(event)) throw new Error(`Unknown event ${event}`);
    const wrapped = (_e: IpcRendererEvent, name: string, payload: EventPayloads[E]) => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on(EVENT_CHANNEL, wrapped);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
  };
  return bridge as RingupBridge;
}

contextBridge.exposeInMainWorld('ringup', buildBridge() satisfies RingupBridge);
