import { describe, expect, it, vi } from 'vitest';
import type { HandlerMap } from '../../shared/ipc/contract';
import { ok } from '../../shared/result';
import { assertUniqueMethods, createDispatcher, IPC_ERRORS, originOf } from '../../electron/ipc/dispatcher';

const ORIGIN = 'app://ringup';
const main = { url: `${ORIGIN}/index.html`, isMainFrame: true };

function handlers(overrides: Partial<HandlerMap> = {}): HandlerMap {
  const status = {
    appName: 'Ringup',
    version: '1.0.0',
    dataDir: '/tmp/x',
    shell: 'electron' as const,
    gateway: { mode: 'embedded' as const, baseUrl: 'http://127.0.0.1:1/v2', health: 'ok' as const, latencyMs: 1, checkedAt: 0, auth: 'engine-keys' as const, signedOut: false },
  };
  return {
    'core:status': async () => ok(status),
    'gateway:check': async () => ok(status.gateway),
    ...overrides,
  } as HandlerMap;
}

describe('IPC dispatcher', () => {
  const dispatch = createDispatcher(handlers(), { allowedOrigins: [ORIGIN] });

  it('answers a valid call from the allowlisted main frame', async () => {
    const r = await dispatch('core:status', main, undefined);
    expect(r.ok).toBe(true);
  });

  it('refuses channels outside the contract, including prototype keys', async () => {
    for (const ch of ['fs:read', 'toString', '__proto__', 'constructor', '']) {
      const r = await dispatch(ch, main, undefined);
      expect(r).toEqual({ ok: false, error: { code: 'unknown_channel', message: IPC_ERRORS.unknownChannel } });
    }
  });

  it('refuses sub-frames even from the right origin', async () => {
    const r = await dispatch('core:status', { url: `${ORIGIN}/index.html`, isMainFrame: false }, undefined);
    expect(r).toEqual({ ok: false, error: { code: 'forbidden', message: IPC_ERRORS.subFrame } });
  });

  it.each([
    ['another origin', 'https://evil.example/index.html'],
    ['file URL', 'file:///tmp/index.html'],
    ['look-alike host', 'app://ringup.evil/index.html'],
    ['http on loopback', 'http://127.0.0.1:9999/'],
    ['unparsable URL', 'not a url'],
    ['missing URL', undefined],
    ['empty URL', ''],
  ])('refuses a sender from %s', async (_name, url) => {
    const r = await dispatch('core:status', { url, isMainFrame: true }, undefined);
    expect(r).toEqual({ ok: false, error: { code: 'forbidden', message: IPC_ERRORS.badSender } });
  });

  it('refuses an argument that fails the schema, naming the problem', async () => {
    const r = await dispatch('core:status', main, { sneaky: true });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('bad_request');
      expect(r.error.message).toBe(IPC_ERRORS.badArgument);
      expect(r.error.fields).toBeDefined();
    }
  });

  it('turns a throwing handler into an internal error without leaking the exception', async () => {
    const logError = vi.fn();
    const d = createDispatcher(
      handlers({
        'core:status': async () => {
          throw new Error('secret path /home/x and card 4111111111111111');
        },
      }),
      { allowedOrigins: [ORIGIN], logError },
    );
    const r = await d('core:status', main, undefined);
    expect(r).toEqual({ ok: false, error: { code: 'internal', message: IPC_ERRORS.internal } });
    expect(JSON.stringify(r)).not.toContain('4111');
    expect(logError).toHaveBeenCalledOnce();
  });

  it('rejects a contract in which two channels map to the same method name', () => {
    expect(() => assertUniqueMethods(['sale:charge', 'sale:charge'])).toThrow(/both map to method "saleCharge"/);
    expect(() => assertUniqueMethods(['core:status', 'gateway:check'])).not.toThrow();
  });

  it('computes origins for custom standard schemes and http', () => {
    expect(originOf('app://ringup/index.html')).toBe('app://ringup');
    expect(originOf('http://127.0.0.1:5000/x?y#z')).toBe('http://127.0.0.1:5000');
    expect(originOf('javascript:alert(1)')).toBe('javascript://');
  });
});
