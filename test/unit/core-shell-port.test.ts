/**
 * The shell port (issue 22, point 4): the one narrow way main offers the core process what only
 * main can do. Both ends wired back to back here, as core-process.ts and core-child.ts wire them
 * over the process channel: the core sees today's callbacks and a SecretStore; main runs only
 * the six operations, on checked arguments, for what it offers.
 */
import { describe, expect, it, vi } from 'vitest';
import { NO_SHELL, offerOf, serveShellPort, SHELL_PORT_ERRORS, shellPortClient, type ShellPort, type ShellRequest } from '../../electron/core-process/shell-port';
import type { SecretStore } from '../../electron/secrets/secret-store';

function memoryStore(): SecretStore & { map: Map<string, Buffer> } {
  const map = new Map<string, Buffer>();
  return {
    backend: 'memory',
    map,
    get: async (n) => map.get(n) ?? null,
    set: async (n, v) => void map.set(n, Buffer.from(v)),
    delete: async (n) => void map.delete(n),
  };
}

/** The core's end wired to main's through a structured clone, as the process channel would. */
function wired(port: ShellPort) {
  const requests: ShellRequest[] = [];
  const client = shellPortClient(offerOf(port), (req) => {
    requests.push(structuredClone(req));
    void serveShellPort(port, structuredClone(req)).then((answer) => client.answer(structuredClone(answer)));
  });
  return { client, requests };
}

describe('shell port', () => {
  it('gives the core a SecretStore whose bytes round-trip through main, and says which backend keeps them', async () => {
    const store = memoryStore();
    const { client, requests } = wired({ secrets: store });
    expect(client.secrets!.backend).toBe('memory');
    const key = Buffer.alloc(32, 5);
    await client.secrets!.set('vault-key', key);
    expect(store.map.get('vault-key')).toEqual(key);
    expect(await client.secrets!.get('vault-key')).toEqual(key);
    expect(Buffer.isBuffer(await client.secrets!.get('vault-key'))).toBe(true);
    await client.secrets!.delete('vault-key');
    expect(await client.secrets!.get('vault-key')).toBeNull();
    expect(requests.map((r) => r.op)).toEqual(['secretSet', 'secretGet', 'secretGet', 'secretDelete', 'secretGet']);
    // The bytes cross as bytes, not as text in a message.
    expect(requests[0]!.args[1]).toBeInstanceOf(Uint8Array);
  });

  it('offers the core only what main has: the node host offers nothing', async () => {
    expect(offerOf({})).toEqual(NO_SHELL);
    const bare = shellPortClient(NO_SHELL, () => {
      throw new Error('nothing may be sent');
    });
    expect(bare.printReceipt).toBeUndefined();
    expect(bare.printReport).toBeUndefined();
    expect(bare.openExternal).toBeUndefined();
    expect(bare.secrets).toBeUndefined();
    // Asked anyway (a core that ignores the offer), main refuses.
    expect(await serveShellPort({}, { type: 'shell', id: 1, op: 'printReceipt', args: ['abc'] })).toEqual({
      type: 'shell-answer',
      id: 1,
      ok: false,
      message: SHELL_PORT_ERRORS.notOffered.replace('{op}', 'printReceipt'),
    });
  });

  it("runs the printers and the browser with the core's arguments, and answers with what they return", async () => {
    const port: ShellPort = {
      printReceipt: vi.fn(async () => '/tmp/receipt.pdf'),
      printReport: vi.fn(async () => null),
      openExternal: vi.fn(async () => undefined),
    };
    const { client } = wired(port);
    expect(await client.printReceipt!('abcdef12-x')).toBe('/tmp/receipt.pdf');
    expect(await client.printReport!('z-report-3', 'a4')).toBeNull();
    await client.openExternal!('http://127.0.0.1:4567/oauth/authorize?client_id=x');
    expect(port.printReceipt).toHaveBeenCalledWith('abcdef12-x');
    expect(port.printReport).toHaveBeenCalledWith('z-report-3', 'a4');
    expect(port.openExternal).toHaveBeenCalledWith('http://127.0.0.1:4567/oauth/authorize?client_id=x');
  });

  it("refuses what is not one of its calls on checked arguments, and passes main's failures back as the core's errors", async () => {
    const store = memoryStore();
    const port: ShellPort = { secrets: store, openExternal: vi.fn(async () => undefined), printReport: vi.fn(async () => Promise.reject(new Error('Printing failed: no printer'))) };
    const bad: unknown[] = [
      { type: 'shell', id: 1, op: 'openExternal', args: ['file:///etc/passwd'] },
      { type: 'shell', id: 2, op: 'openExternal', args: ['javascript:alert(1)'] },
      { type: 'shell', id: 3, op: 'secretGet', args: ['../keys'] },
      { type: 'shell', id: 4, op: 'secretSet', args: ['vault-key', 'not bytes'] },
      { type: 'shell', id: 5, op: 'secretSet', args: ['vault-key', new Uint8Array(70_000)] },
      { type: 'shell', id: 6, op: 'printReport', args: ['z', 'A3'] },
      { type: 'shell', id: 7, op: 'spawn', args: ['/bin/sh'] },
      { type: 'shell', id: 8, op: 'secretDelete', args: 'vault-key' },
    ];
    for (const req of bad) {
      const answer = await serveShellPort(port, req as ShellRequest);
      expect(answer, JSON.stringify(req)).toMatchObject({ ok: false, message: expect.stringMatching(/^The shell refused a malformed/) });
    }
    expect(port.openExternal).not.toHaveBeenCalled();
    expect(store.map.size).toBe(0);

    const { client } = wired(port);
    await expect(client.printReport!('x-report', '80mm')).rejects.toThrow('Printing failed: no printer');
    // The core's own store refuses a bad name before anything is sent.
    await expect(client.secrets!.get('../keys')).rejects.toThrow(/Invalid secret name/);
  });

  it('fails what waits when main is gone, and sends nothing after', async () => {
    const sent: ShellRequest[] = [];
    const client = shellPortClient(offerOf({ printReceipt: async () => null }), (r) => sent.push(r));
    const waiting = client.printReceipt!('abc');
    client.close();
    await expect(waiting).rejects.toThrow(SHELL_PORT_ERRORS.closed);
    await expect(client.printReceipt!('def')).rejects.toThrow(SHELL_PORT_ERRORS.closed);
    expect(sent).toHaveLength(1);
  });
});
