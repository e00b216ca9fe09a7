/**
 * The node host survives any WebSocket frame (issue 9, point 8): hand-made frames over
 * a raw TCP socket against the real host process. Each malformed frame closes that one
 * connection with a clear close code (1002 protocol, 1007 bad UTF-8, 1009 too big, or
 * the bridge's own 44xx) and never the process; a normal client still works after all.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_CLOSE } from '../../electron/host/ws-bridge';
import { buildNodeBundle, removeBundle, startHostProcess, type HostProcess } from '../helpers/host-process';

let bundle: string;
let host: HostProcess;
beforeAll(async () => {
  bundle = await buildNodeBundle();
  host = await startHostProcess(bundle);
}, 120_000);
afterAll(async () => {
  await host?.stop();
  if (bundle) removeBundle(bundle);
});

interface FrameSpec {
  fin?: boolean;
  rsv?: number;
  opcode: number;
  payload?: Buffer;
  masked?: boolean;
  /** Claims this length in the header instead of the payload's (for oversize claims). */
  claimLength?: bigint;
}

function frame(f: FrameSpec): Buffer {
  const payload = f.payload ?? Buffer.alloc(0);
  const len = f.claimLength ?? BigInt(payload.length);
  const masked = f.masked ?? true;
  const head: number[] = [((f.fin ?? true) ? 0x80 : 0) | ((f.rsv ?? 0) << 4) | f.opcode];
  const m = masked ? 0x80 : 0;
  let ext = Buffer.alloc(0);
  if (len < 126n) head.push(m | Number(len));
  else if (len < 65536n) {
    head.push(m | 126);
    ext = Buffer.alloc(2);
    ext.writeUInt16BE(Number(len));
  } else {
    head.push(m | 127);
    ext = Buffer.alloc(8);
    ext.writeBigUInt64BE(len);
  }
  const key = masked ? randomBytes(4) : Buffer.alloc(0);
  const body = Buffer.from(payload);
  if (masked) for (let i = 0; i < body.length; i++) body[i]! ^= key[i % 4]!;
  return Buffer.concat([Buffer.from(head), ext, key, body]);
}

const text = (s: string) => Buffer.from(s, 'utf8');
const closePayload = (code: number, reason = Buffer.alloc(0)) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(code);
  return Buffer.concat([b, reason]);
};
const BAD_UTF8 = Buffer.from([0xce, 0xba, 0xe1, 0xbd, 0xb9, 0xcf, 0x83, 0xce, 0xbc, 0xce, 0xb5, 0xed, 0xa0, 0x80, 0x65, 0x64]);
const hello = () => frame({ opcode: 1, payload: text(JSON.stringify({ type: 'hello', token: host.token })) });

/** Opens a raw upgraded socket; resolves with what the server sent after the 101 and its close code. */
async function rawSession(send: (s: Socket) => void): Promise<{ closeCode: number | undefined; bytes: Buffer }> {
  const sock = connect(host.port, '127.0.0.1');
  const connected = await new Promise<boolean>((r) => {
    sock.once('connect', () => r(true));
    sock.once('error', () => r(false));
  });
  if (!connected) return { closeCode: undefined, bytes: Buffer.alloc(0) };
  sock.on('error', () => {});
  const key = randomBytes(16).toString('base64');
  sock.write(
    `GET /ipc HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nOrigin: ${host.origin}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  let buf = Buffer.alloc(0);
  let upgraded = false;
  let replied = false;
  const done = new Promise<Buffer>((resolve) => {
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        expect(buf.subarray(0, 12).toString()).toBe('HTTP/1.1 101');
        upgraded = true;
        buf = buf.subarray(end + 4);
        send(sock);
      }
      // Answer the server's close like a well-behaved client, so it need not wait for its close timeout.
      const code = closeCodeOf(buf);
      if (code !== undefined && !replied) {
        replied = true;
        sock.end(frame({ opcode: 8, payload: closePayload(1000) }));
      }
    });
    sock.on('close', () => resolve(buf));
  });
  // Ends the socket if the server never closes (the test then fails on the close code).
  const timer = setTimeout(() => sock.destroy(), 20_000);
  const bytes = await done;
  clearTimeout(timer);
  return { closeCode: closeCodeOf(bytes), bytes };
}

/** Finds the server's close frame (opcode 8, unmasked) and returns its code. */
function closeCodeOf(bytes: Buffer): number | undefined {
  let i = 0;
  while (i + 2 <= bytes.length) {
    const opcode = bytes[i]! & 0x0f;
    let len = bytes[i + 1]! & 0x7f;
    let off = i + 2;
    if (len === 126) {
      len = bytes.readUInt16BE(off);
      off += 2;
    } else if (len === 127) {
      len = Number(bytes.readBigUInt64BE(off));
      off += 8;
    }
    if (opcode === 8) return len >= 2 ? bytes.readUInt16BE(off) : 1005;
    i = off + len;
  }
  return undefined;
}

const MB = 1 << 20;
const CASES: { name: string; frames: () => Buffer[]; expect: number; afterHello?: boolean }[] = [
  { name: 'unmasked client frame', frames: () => [frame({ opcode: 1, payload: text('{}'), masked: false })], expect: 1002 },
  { name: 'RSV1 without an extension', frames: () => [frame({ opcode: 1, rsv: 4, payload: text('{}') })], expect: 1002 },
  { name: 'RSV2 set', frames: () => [frame({ opcode: 1, rsv: 2, payload: text('{}') })], expect: 1002 },
  { name: 'RSV3 set', frames: () => [frame({ opcode: 1, rsv: 1, payload: text('{}') })], expect: 1002 },
  { name: 'reserved data opcode 0x3', frames: () => [frame({ opcode: 3, payload: text('x') })], expect: 1002 },
  { name: 'reserved control opcode 0xB', frames: () => [frame({ opcode: 0xb })], expect: 1002 },
  { name: 'ping longer than 125 bytes', frames: () => [frame({ opcode: 9, payload: Buffer.alloc(200, 1) })], expect: 1002 },
  { name: 'fragmented ping', frames: () => [frame({ opcode: 9, fin: false, payload: text('p') })], expect: 1002 },
  { name: 'continuation with nothing to continue', frames: () => [frame({ opcode: 0, payload: text('x') })], expect: 1002 },
  { name: 'new text frame inside a fragmented message', frames: () => [frame({ opcode: 1, fin: false, payload: text('{') }), frame({ opcode: 1, payload: text('}') })], expect: 1002 },
  { name: 'invalid UTF-8 text', frames: () => [frame({ opcode: 1, payload: BAD_UTF8 })], expect: 1007 },
  { name: 'invalid UTF-8 in fragments', frames: () => [frame({ opcode: 1, fin: false, payload: BAD_UTF8.subarray(0, 8) }), frame({ opcode: 0, payload: BAD_UTF8.subarray(8) })], expect: 1007 },
  { name: 'close with a 1-byte payload', frames: () => [frame({ opcode: 8, payload: Buffer.from([3]) })], expect: 1002 },
  { name: 'close code 999', frames: () => [frame({ opcode: 8, payload: closePayload(999) })], expect: 1002 },
  { name: 'close code 1005 (reserved)', frames: () => [frame({ opcode: 8, payload: closePayload(1005) })], expect: 1002 },
  { name: 'close code 1006 (reserved)', frames: () => [frame({ opcode: 8, payload: closePayload(1006) })], expect: 1002 },
  { name: 'close code 5000', frames: () => [frame({ opcode: 8, payload: closePayload(5000) })], expect: 1002 },
  { name: 'close reason with invalid UTF-8', frames: () => [frame({ opcode: 8, payload: closePayload(1000, BAD_UTF8) })], expect: 1007 },
  { name: 'frame claiming 2 MiB', frames: () => [frame({ opcode: 1, payload: Buffer.alloc(16), claimLength: BigInt(2 * MB) })], expect: 1009 },
  { name: 'frame claiming 2^63 bytes', frames: () => [frame({ opcode: 2, payload: Buffer.alloc(8), claimLength: 1n << 63n })], expect: 1009 },
  { name: 'fragments adding up past the limit', frames: () => [frame({ opcode: 1, fin: false, payload: Buffer.alloc(MB - 10, 0x20) }), frame({ opcode: 0, payload: Buffer.alloc(100, 0x20) })], expect: 1009 },
  { name: 'binary message', frames: () => [frame({ opcode: 2, payload: Buffer.from([1, 2, 3]) })], expect: WS_CLOSE.badMessage, afterHello: true },
  { name: 'text that is not JSON', frames: () => [frame({ opcode: 1, payload: text('not json') })], expect: WS_CLOSE.badMessage, afterHello: true },
  { name: 'call with a non-numeric id', frames: () => [frame({ opcode: 1, payload: text('{"type":"call","id":"x","channel":"core:status"}') })], expect: WS_CLOSE.badMessage, afterHello: true },
  { name: 'no hello first', frames: () => [frame({ opcode: 1, payload: text('{"type":"call","id":1,"channel":"core:status"}') })], expect: WS_CLOSE.badToken },
];

async function normalClientWorks(): Promise<void> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc`, { headers: { origin: host.origin } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = () => new Promise<Record<string, unknown>>((r) => ws.once('message', (d) => r(JSON.parse(d.toString()) as Record<string, unknown>)));
  ws.send(JSON.stringify({ type: 'hello', token: host.token }));
  expect(await next()).toEqual({ type: 'ready' });
  ws.send(JSON.stringify({ type: 'call', id: 1, channel: 'core:status' }));
  expect(await next()).toMatchObject({ type: 'result', id: 1, result: { ok: true } });
  ws.close();
}

describe('node host and malformed WebSocket frames', () => {
  it(`closes the one connection with a clear code for each of ${CASES.length} malformed inputs, and never dies`, { timeout: 180_000 }, async () => {
    const got: string[] = [];
    for (const c of CASES) {
      const r = await rawSession((s) => {
        if (c.afterHello) s.write(hello());
        // After the hello the server answers {"type":"ready"}; the bad frames follow right away.
        for (const f of c.frames()) s.write(f);
      });
      got.push(`${c.name}: ${r.closeCode}`);
      if (host.exited()) break;
    }
    expect(host.exited(), `host died: ${got.join('; ')} ${host.stderr().slice(-300)}`).toBe(false);
    expect(got).toEqual(CASES.map((c) => `${c.name}: ${c.expect}`));
    await normalClientWorks();
  });

  it('survives a socket that drops mid-frame and a truncated handshake', async () => {
    const a = connect(host.port, '127.0.0.1');
    a.on('error', () => {});
    await new Promise<void>((r) => a.once('connect', () => r()));
    a.write(`GET /ipc HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nOrigin: ${host.origin}\r\nUpgrade: websocket\r\n`);
    a.destroy();
    await rawSession((s) => {
      s.write(frame({ opcode: 1, payload: text('{"type":"hel') }).subarray(0, 9));
      s.destroy();
    });
    expect(host.exited()).toBe(false);
    await normalClientWorks();
  });
});
