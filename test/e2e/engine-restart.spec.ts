/**
 * The engine in its own process, seen from the counter (issue 9, point 9): the engine
 * child is killed (kill -9) and, while its port is held by someone else, cannot come
 * back — the status bar says "restarting…". Once the port is free the supervisor brings
 * it back on the same data and the cashier sells again.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { openApp, ringUpKeyedSale, signIn, USERS } from './helpers/counter';

function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

async function holdPort(port: number): Promise<Server> {
  for (let i = 0; i < 200; i++) {
    const server = createServer();
    const ok = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (ok) return server;
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

  const [enginePid] = childrenOf(host.process.pid!);
  expect(enginePid).toBeGreaterThan(0);
  const port = Number(new URL(host.gateway.baseUrl).port);
  process.kill(enginePid!, 'SIGKILL');
  const blocker = await holdPort(port);
  try {
    await expect(gateway).toContainText('restarting…');
    await shot(page, 'engine-restarting-status-bar');
  } finally {
    await new Promise<void>((r) => blocker.close(() => r()));
  }
  await expect(gateway).toContainText('reachable', { timeout: 30_000 });
  expect(childrenOf(host.process.pid!)).toHaveLength(1);

  await ringUpKeyedSale(page, { amountDigits: '1850' });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await shot(page, 'engine-restarted-sale-approved');
});
