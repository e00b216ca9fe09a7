/** The simulators' one way to listen: `server` on 127.0.0.1 at `port` (0: any free one); answers the port it got. */
import type { Server } from 'node:net';

export function listenLoopback(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const a = server.address();
      resolve(typeof a === 'object' && a ? a.port : port);
    });
  });
}
