/** The framing alone: LRC, encoding, and a reader fed byte by byte, garbage and wrong LRCs. */
import { describe, expect, it } from 'vitest';
import { ACK, EOT, ETX, FrameReader, NAK, STX, encodeFrame, lrc, responseCommand } from '../../electron/devices/poslink-frame';

describe('POSLink framing', () => {
  it('LRC is the XOR of everything after STX through ETX', () => {
    const f = encodeFrame({ command: 'A00', version: '1.28', fields: [] });
    expect(f[0]).toBe(STX);
    expect(f[f.length - 2]).toBe(ETX);
    expect(f[f.length - 1]).toBe(lrc(f.subarray(1, f.length - 1)));
    // A00 FS 1.28 ETX: known value
    expect(lrc(Buffer.from('A00\x1c1.28\x03', 'latin1'))).toBe(0x4b);
  });

  it('reads frames split across chunks, and control bytes between them', () => {
    const bytes = Buffer.concat([Buffer.from([ACK]), encodeFrame({ command: 'T01', version: '1.28', fields: ['000000', 'OK', 'a\x1fb'] }), Buffer.from([NAK, EOT])]);
    const r = new FrameReader();
    const events = [...bytes].flatMap((b) => r.push(Uint8Array.of(b)));
    expect(events.map((e) => e.kind)).toEqual(['ack', 'frame', 'nak', 'eot']);
    expect(events[1]).toEqual({ kind: 'frame', frame: { command: 'T01', version: '1.28', fields: ['000000', 'OK', 'a\x1fb'] } });
  });

  it('reports a wrong LRC and garbage instead of guessing', () => {
    const good = encodeFrame({ command: 'T01', version: '1.28', fields: ['x'] });
    const bad = Buffer.from(good);
    bad[bad.length - 1] = (bad[bad.length - 1] ?? 0) ^ 1;
    const r = new FrameReader();
    expect(r.push(bad).map((e) => e.kind)).toEqual(['bad-lrc']);
    expect(r.push(Buffer.from('hello')).map((e) => e.kind)).toEqual(['garbled']);
    const ctrl = Buffer.from([STX, 0x41, 0x01, ETX]);
    expect(r.push(Buffer.concat([ctrl, Buffer.from([lrc(ctrl.subarray(1))])])).map((e) => e.kind)).toEqual(['garbled']);
    expect(r.push(good).map((e) => e.kind)).toEqual(['frame']);
  });

  it('the response command is the request plus one', () => {
    expect(responseCommand('T00')).toBe('T01');
    expect(responseCommand('A20')).toBe('A21');
  });
});
