/**
 * A byte pipe in memory: two DeviceLink ends, each delivering what the other writes. The
 * sandbox's built-in mock terminal (gateway/router/mock-terminal.ts) is a terminal simulator
 * on one end, so the engine drives it with the same driver, frames, ACKs and timeouts as a
 * terminal on a socket — no port, no address.
 *
 * Bytes arrive on the next turn of the event loop (never inside write(), as a socket would not
 * either). Closing one end closes both; bytes already written are still delivered first, like
 * a socket's end() that lets the last ACK through.
 */
import type { DeviceLink } from './device-link';

interface End {
  data: ((chunk: Buffer) => void)[];
  close: (() => void)[];
}

export function memoryLinkPair(): [DeviceLink, DeviceLink] {
  const ends: [End, End] = [{ data: [], close: [] }, { data: [], close: [] }];
  let closed = false;
  const close = (): Promise<void> => {
    if (closed) return Promise.resolve();
    closed = true;
    return new Promise((resolve) => {
      // After the deliveries already queued (setImmediate runs in order).
      setImmediate(() => {
        for (const e of ends) for (const cb of e.close) cb();
        resolve();
      });
    });
  };
  const side = (mine: End, theirs: End): DeviceLink => ({
    write: (bytes) => {
      if (closed) return;
      const chunk = Buffer.from(bytes);
      setImmediate(() => {
        for (const cb of theirs.data) cb(chunk);
      });
    },
    onData: (cb) => void mine.data.push(cb),
    onClose: (cb) => void mine.close.push(cb),
    close,
    get closed() {
      return closed;
    },
  });
  return [side(ends[0], ends[1]), side(ends[1], ends[0])];
}
