/** The one way screens reach the core: `ringup`, from the preload (Electron) or the WebSocket bridge (node host). */
import type { RingupBridge } from '../../../shared/ipc/contract';
import { createWsBridge, takeToken } from './ws-bridge';

declare global {
  interface Window {
    ringup?: RingupBridge;
  }
}

function resolveBridge(): RingupBridge {
  if (window.ringup) return window.ringup;
  const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ipc`;
  return createWsBridge(wsUrl, takeToken());
}

export const ringup: RingupBridge = resolveBridge();
