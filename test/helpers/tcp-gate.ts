/**
 * A real TCP gate on 127.0.0.1 in front of a gateway, for outage tests: `down()` stops
 * listening and cuts open connections (the gateway's address refuses, as a dead link
 * does), `up()` listens again on the same port. (test/helpers/tcp-proxy.ts instead keeps
 * listening and drops or swallows.)
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP gate in front of the engine: `down()` stops listening (refused), `up()` listens again on the same port. */
export class Gate {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(private readonly target: number) {}
  async up(): Promise<void> {
    this.server = createServer((c) => {
      const u = connect(this.target, '127.0.0.1');
      for (const s of [c, u]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      c.pipe(u).pipe(c);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }
  async down(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}
