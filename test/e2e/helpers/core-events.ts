/**
 * The core's pushed events as a window hears them: a WebSocket to the node host's IPC bridge
 * (its own origin, the launch token, hello), collecting the events named. For specs that must
 * know an event was pushed before they act (a serial scanner's code heard while another screen
 * is open). It calls no channel.
 */
import WebSocket from 'ws';
import type { HostInfo } from '../fixtures';

export interface EventWatch {
  heard: Array<{ event: string; payload: unknown }>;
  close(): void;
}

export function watchCoreEvents(host: HostInfo, names: readonly string[]): Promise<EventWatch> {
  const origin = host.origin.replace(/\/$/, '');
  const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}/ipc`, { origin });
  const heard: EventWatch['heard'] = [];
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as { type: string; event?: string; payload?: unknown };
    if (msg.type === 'event' && msg.event && names.includes(msg.event)) heard.push({ event: msg.event, payload: msg.payload });
  });
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => {
      ws.send(JSON.stringify({ type: 'hello', token: host.token }));
      resolve({ heard, close: () => ws.close() });
    });
  });
}
