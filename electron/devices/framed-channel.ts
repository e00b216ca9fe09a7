/**
 * One side of a framed exchange over a DeviceLink, used by the driver and the simulator:
 * - send(): writes a frame and waits for ACK; a NAK resends it, the third NAK ends the
 *   exchange with EOT (DEVICE_MSG.NAKED); no answer within ackTimeoutMs is NO_ACK.
 * - every frame received is checked: a good one is ACKed and handed on, a wrong LRC is
 *   NAKed (the sender resends), garbage is reported to onGarbled.
 * One send at a time (the protocol is half-duplex per exchange); sends queue.
 */
import type { DeviceLink } from './device-link';
import { DEVICE_MSG, DeviceError } from './device-messages';
import { ACK, EOT, FrameReader, MAX_NAKS, NAK, encodeFrame, type Frame } from './poslink-frame';

export interface ChannelOptions {
  ackTimeoutMs?: number;
  /** Test hook (simulator faults): change the bytes of an outgoing frame. */
  mangle?: (bytes: Buffer, frame: Frame) => Buffer;
  /** Test hook (simulator faults): answer NAK instead of ACK to a good frame. */
  refuse?: (frame: Frame) => boolean;
}

export class FramedChannel {
  private readonly reader = new FrameReader();
  private waiter: { resolve: (ack: boolean) => void } | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private frameHandlers: ((f: Frame) => void)[] = [];
  private closeHandlers: (() => void)[] = [];
  private garbledHandlers: (() => void)[] = [];
  eotReceived = false;

  constructor(
    readonly link: DeviceLink,
    private readonly opts: ChannelOptions = {},
  ) {
    link.onData((chunk) => {
      for (const ev of this.reader.push(chunk)) {
        if (ev.kind === 'ack' || ev.kind === 'nak') {
          const w = this.waiter;
          this.waiter = undefined;
          w?.resolve(ev.kind === 'ack');
        } else if (ev.kind === 'eot') this.eotReceived = true;
        else if (ev.kind === 'bad-lrc') link.write(Buffer.from([NAK]));
        else if (ev.kind === 'garbled') for (const h of this.garbledHandlers) h();
        else if (this.opts.refuse?.(ev.frame)) link.write(Buffer.from([NAK]));
        else {
          link.write(Buffer.from([ACK]));
          for (const h of this.frameHandlers) h(ev.frame);
        }
      }
    });
    link.onClose(() => {
      const w = this.waiter;
      this.waiter = undefined;
      w?.resolve(false);
      for (const h of this.closeHandlers) h();
    });
  }

  onFrame(h: (f: Frame) => void): void {
    this.frameHandlers.push(h);
  }

  onClose(h: () => void): void {
    this.closeHandlers.push(h);
  }

  onGarbled(h: () => void): void {
    this.garbledHandlers.push(h);
  }

  send(frame: Frame): Promise<void> {
    const run = this.chain.then(() => this.sendNow(frame));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async sendNow(frame: Frame): Promise<void> {
    const clean = encodeFrame(frame);
    for (let attempt = 1; attempt <= MAX_NAKS; attempt++) {
      if (this.link.closed) throw new DeviceError('disconnected', DEVICE_MSG.DISCONNECTED);
      const bytes = this.opts.mangle ? this.opts.mangle(clean, frame) : clean;
      const answered = new Promise<boolean | 'timeout'>((resolve) => {
        const timer = setTimeout(() => {
          this.waiter = undefined;
          resolve('timeout');
        }, this.opts.ackTimeoutMs ?? 3000);
        this.waiter = {
          resolve: (ack) => {
            clearTimeout(timer);
            resolve(ack);
          },
        };
      });
      this.link.write(bytes);
      const ack = await answered;
      if (ack === true) return;
      if (this.link.closed) throw new DeviceError('disconnected', DEVICE_MSG.DISCONNECTED);
      if (ack === 'timeout') throw new DeviceError('protocol', DEVICE_MSG.NO_ACK);
    }
    this.link.write(Buffer.from([EOT]));
    throw new DeviceError('protocol', DEVICE_MSG.NAKED);
  }
}
