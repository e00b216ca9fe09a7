/**
 * One connection to the counter's printer, shared by everything that talks to it — the status
 * watcher, the print queue, the drawer kick, a test print — one at a time: a serial port opens
 * once, and many network printers serve one connection on port 9100 at a time. A call that
 * fails drops the connection, so the next opens a fresh one (a printer switched off and on).
 */
import type { OpenPrinter, PrinterConnection, PrinterPlace } from './printer-connection';

export class PrinterLine {
  private conn: { key: string; c: PrinterConnection } | null = null;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly open: OpenPrinter) {}

  /** Runs `fn` on the printer at `p`'s address once every earlier call has finished. */
  use<T>(p: PrinterPlace, fn: (c: PrinterConnection) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      const key = JSON.stringify(p.address);
      if (this.conn && this.conn.key !== key) await this.drop();
      this.conn ??= { key, c: await this.open(p) };
      try {
        return await fn(this.conn.c);
      } catch (err) {
        await this.drop();
        throw err;
      }
    };
    const r = this.chain.then(run, run);
    this.chain = r.catch(() => undefined);
    return r;
  }

  /** Closes the connection after the calls under way. */
  close(): Promise<void> {
    const r = this.chain.then(() => this.drop());
    this.chain = r;
    return r;
  }

  private async drop(): Promise<void> {
    const c = this.conn;
    this.conn = null;
    await c?.c.close().catch(() => undefined);
  }
}
