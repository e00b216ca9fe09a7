/**
 * A byte pipe to a device: a TCP socket or a serial port. Drivers and simulators speak the
 * protocol over this one shape, so every test runs the same code as the counter does.
 */
import { connect, type Socket } from 'node:net';
import { SerialPort } from 'serialport';
import { DEVICE_MSG, DeviceError } from './device-messages';
import { openPinnedTlsSocket } from './terminal-tls';

export interface DeviceLink {
  write(bytes: Uint8Array): void;
  onData(cb: (chunk: Buffer) => void): void;
  onClose(cb: () => void): void;
  /** Resolves once the device can be opened again (serial ports are exclusive). */
  close(): Promise<void>;
  readonly closed: boolean;
}

export function socketLink(socket: Socket): DeviceLink {
  let closed = false;
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined); // 'close' follows; the driver reports the disconnection
  socket.setNoDelay(true);
  return {
    write: (b) => {
      if (!closed) socket.write(b);
    },
    onData: (cb) => socket.on('data', cb),
    onClose: (cb) => socket.on('close', cb),
    // end(), not destroy(): the last ACK written must still reach the other side.
    close: () => {
      socket.end();
      setTimeout(() => socket.destroy(), 1000).unref();
      return Promise.resolve();
    },
    get closed() {
      return closed;
    },
  };
}

export function openTcpLink(host: string, port: number, connectTimeoutMs = 5000): Promise<DeviceLink> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new DeviceError('unreachable', DEVICE_MSG.UNREACHABLE));
    }, connectTimeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socketLink(socket));
    });
    socket.once('error', () => {
      clearTimeout(timer);
      reject(new DeviceError('unreachable', DEVICE_MSG.UNREACHABLE));
    });
  });
}

export function serialPortLink(port: SerialPort): DeviceLink {
  let closed = false;
  port.on('close', () => (closed = true));
  port.on('error', () => undefined);
  return {
    write: (b) => {
      if (!closed) port.write(Buffer.from(b));
    },
    onData: (cb) => port.on('data', cb),
    onClose: (cb) => port.on('close', cb),
    // Drain first: closing at once would drop the last ACK still in the output buffer.
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        if (!port.isOpen) return resolve();
        port.drain(() => port.close(() => resolve()));
      }),
    get closed() {
      return closed;
    },
  };
}

export function openSerialLink(path: string, baudRate = 9600): Promise<DeviceLink> {
  return new Promise((resolve, reject) => {
    const port = new SerialPort({ path, baudRate, autoOpen: false });
    port.open((err) => {
      if (err) reject(new DeviceError('unreachable', DEVICE_MSG.UNREACHABLE));
      else resolve(serialPortLink(port));
    });
  });
}

/** A link over TLS to the terminal presenting the certificate with this SHA-256 fingerprint (terminal-tls.ts). */
export async function openTlsLink(host: string, port: number, fingerprint: string, connectTimeoutMs = 5000): Promise<DeviceLink> {
  return socketLink(await openPinnedTlsSocket(host, port, fingerprint, connectTimeoutMs));
}

/** TLS on a network terminal: its certificate's pinned SHA-256 fingerprint (issue 20, point 1). */
export interface LinkTls {
  fingerprint: string;
}

/** Where a device is: an address and port (over TLS when `tls` is set), or a serial path. */
export type DeviceAddress = { kind: 'tcp'; host: string; port: number; tls?: LinkTls | null } | { kind: 'serial'; path: string };

/** Opens the link; a TCP address with `tls` is reached over TLS only, never in plain TCP. */
export function openLink(addr: DeviceAddress): Promise<DeviceLink> {
  if (addr.kind === 'serial') return openSerialLink(addr.path);
  return addr.tls ? openTlsLink(addr.host, addr.port, addr.tls.fingerprint) : openTcpLink(addr.host, addr.port);
}
