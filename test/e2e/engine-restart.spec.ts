/**
 * The engine in its own process, seen from the counter (issue 9, point 9): the engine
 * child is killed (kill -9) and, while its port is held by someone else, cannot come
 * back — the status bar says "restarting…". Once the port is free the supervisor brings
 * it back on the same data and the cashier sells again.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { openApp, ringUpKeyedSale, signIn, USERS } from './helpers/counter';

function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

/** The engine is forked by the core process, the host's one child (issue 22, point 4). */
function enginesOf(hostPid: number): number[] {
  const [core] = childrenOf(hostPid);
  return core ? childrenOf(core) : [];
}

/**
 * Holds the engine's port so it cannot come back. Whoever connects meanwhile (the core's health
 * check, the offline forwarder's probe) is hung up on when the port is released: a server's
 * close() waits for its open connections, and a client's keep-alive socket would hold it forever.
 */
async function holdPort(port: number): Promise<{ release(): Promise<void> }> {
  for (let i = 0; i < 200; i++) {
    const server: Server = createServer();
    const sockets = new Set<Socket>();
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    const ok = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (ok)
      return {
        release: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            for (const socket of sockets) socket.destroy();
          }),
      };
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`port ${port} never came free`);
}

let host: HostInfo | undefined;
test.afterEach(async () => {
  if (host) await stopHostProcess(host);
});

test('kill -9 of the engine: the status bar says restarting, then the counter sells again', async ({ page }) => {
  test.setTimeout(120_000);
  host = await startHostProcess();
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  const gateway = page.getByTestId('status-gateway');
  await expect(gateway).toContainText('reachable');

  const [enginePid] = enginesOf(host.process.pid!);
  expect(enginePid).toBeGreaterThan(0);
  const port = Number(new URL(host.gateway.baseUrl).port);
  process.kill(enginePid!, 'SIGKILL');
  const blocker = await holdPort(port);
  try {
    await expect(gateway).toContainText('restarting…');
    await shot(page, 'engine-restarting-status-bar');
  } finally {
    await blocker.release();
  }
  await expect(gateway).toContainText('reachable', { timeout: 30_000 });
  expect(enginesOf(host.process.pid!)).toHaveLength(1);

  await ringUpKeyedSale(page, { amountDigits: '1850' });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await shot(page, 'engine-restarted-sale-approved');
});
