/**
 * A change of gateway account while money of the one in use is still open (issue 11,
 * point 4): sales approved offline and waiting to be sent, or an open sale holding a card
 * payment, belong to the account in use; after a change they could not be sent or given
 * back. Save on the Gateway screen, an OAuth sign-in and Sign out of the gateway are refused
 * with a sentence until they are done; the same account (a new key) is not a change.
 */
import { describe, expect, it } from 'vitest';
import { ACCOUNT_CHANGE_MESSAGES } from '../../electron/core/gateway/account-change-guard';
import { CONNECTION_MESSAGES } from '../../electron/core/gateway/gateway-connection';
import type { QueueStatus } from '../../shared/ipc/contract';
import { DEFAULT_STORE_SETTINGS } from '../../shared/ipc/settings';
import { useCoreHarness, useGatedEngine, value } from '../helpers/core-harness';
import { startTcpProxy } from '../helpers/tcp-proxy';

const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
const elsewhere = { baseUrl: 'http://127.0.0.1:9/v2', developerId: '6f0c2a47-3b51-4f7e-9d2a-5c8e1b7a9d10', userId: '0b9d8c7e-6a5f-4e3d-8c2b-1a0f9e8d7c6b' };

describe('an open sale with a card payment', () => {
  const h = useCoreHarness('ringup-guard-cart-');

  it('holds back a change of gateway until it is finished or cancelled', async () => {
    await h.signInAs('Morgan', '1234');
    value(await h.call('cart:add-open', { amountCents: 5_000 }));
    expect(value(await h.call('cart:pay-card', { card, amountCents: 2_000, clientRef: 'guard-cart-1' })).status).toBe('open');

    const save = await h.call('gateway:save', { kind: 'remote', ...elsewhere, userApiKey: 'a-key-of-another-account' });
    expect(save).toEqual({ ok: false, error: { code: 'invalid', message: ACCOUNT_CHANGE_MESSAGES.openCardSales(1) } });
    const oauth = await h.call('gateway:oauth-start', { kind: 'remote', baseUrl: elsewhere.baseUrl, developerId: elsewhere.developerId, clientId: 'another-client', clientSecret: 'another-secret' });
    expect(oauth).toEqual({ ok: false, error: { code: 'invalid', message: ACCOUNT_CHANGE_MESSAGES.openCardSales(1) } });
    // The gateway in use again is no change.
    expect((await h.call('gateway:save', { kind: 'embedded' })).ok).toBe(true);

    // Cancelling the sale gives its card payment back (a void).
    expect(value(await h.call('cart:cancel', { confirmed: true })).status).toBe('cancelled');
    // Now the change goes on to its own checks (this address answers nothing).
    expect(await h.call('gateway:save', { kind: 'remote', ...elsewhere, userApiKey: 'a-key-of-another-account' })).toMatchObject({ ok: false, error: { message: CONNECTION_MESSAGES.unreachable } });
  });
});

describe('sales waiting in the offline queue', () => {
  const g = useGatedEngine('ringup-guard-engine-');

  it('hold back Save, an OAuth sign-in and Sign out of the gateway until they are sent', async () => {
    const { core, call, signInAs } = await g.openCounter(g.tempDir('ringup-guard-counter-'), { settings: () => ({ ...DEFAULT_STORE_SETTINGS, offlineAllowKeyed: true }) });
    const events: QueueStatus[] = [];
    core.events.subscribe((e, payload) => {
      if (e === 'queue:status') events.push(payload as QueueStatus);
    });
    try {
      await signInAs('Morgan', '1234');
      await g.gate.down();
      // The first request after the cut may meet a dead kept-alive connection; the next is taken offline.
      for (let i = 0; i < 3 && value(await call('queue:status')).pendingCount === 0; i++) {
        const r = await call('sale:charge', { subtotalCents: 1_200, taxCents: 0, tipCents: 0, card, clientRef: `guard-offline-${i}` });
        // The sale screen showed "Approved offline" and acknowledges it (issue 20, point 3).
        if (r.ok) value(await call('queue:acknowledge', { id: r.value.transaction.id }));
      }
      expect(value(await call('queue:status')).pendingCount).toBe(1);

      const refused = { ok: false, error: { code: 'invalid', message: ACCOUNT_CHANGE_MESSAGES.pendingOffline(1) } };
      expect(await call('gateway:save', { kind: 'embedded' })).toEqual(refused);
      expect(await call('gateway:oauth-start', { kind: 'embedded' })).toEqual(refused);
      expect(await call('gateway:sign-out')).toEqual(refused);
      // The same account with a new key is no change of account.
      expect(await call('gateway:save', { kind: 'remote', baseUrl: `http://127.0.0.1:${g.gate.port}/v2`, developerId: g.creds.developer_id, userId: g.creds.user_id, userApiKey: g.creds.user_api_key })).toMatchObject({
        ok: false,
        error: { message: CONNECTION_MESSAGES.unreachable },
      });

      await g.gate.up();
      value(await call('queue:forward-now'));
      for (let i = 0; i < 100 && !(events.at(-1)?.pendingCount === 0 && !events.at(-1)?.forwarding); i++) await new Promise((r) => setTimeout(r, 50));
      expect(value(await call('queue:status')).pendingCount).toBe(0);
      expect((await call('gateway:save', { kind: 'embedded' })).ok).toBe(true);
    } finally {
      await core.close();
    }
  }, 45_000);
});

describe('a payment whose answer was lost', () => {
  const g = useGatedEngine('ringup-guard-lost-');

  it('holds back a change of gateway until the gateway in use has said what became of it (issue 20, point 3)', async () => {
    // A proxy between the counter and the gateway that can swallow an answer; the sweep's timer is off (an hour).
    const proxy = await startTcpProxy(g.gate.port);
    const { core, call, signInAs } = await g.openCounter(g.tempDir('ringup-guard-lost-counter-'), {
      gatewayTimeoutMs: 700,
      lostSweepMs: 3_600_000,
      remote: { baseUrl: `${proxy.origin}/v2`, auth: { developerId: g.creds.developer_id, userId: g.creds.user_id, userApiKey: g.creds.user_api_key }, locationId: g.creds.location_id },
    });
    try {
      await signInAs('Morgan', '1234');
      proxy.mode = 'swallow';
      const r = await call('sale:charge', { subtotalCents: 1_999, taxCents: 0, tipCents: 0, card, clientRef: 'guard-lost-1' });
      expect(!r.ok && r.error.code).toBe('outcome_unknown');
      proxy.mode = 'pass';
      const refused = { ok: false, error: { code: 'invalid', message: ACCOUNT_CHANGE_MESSAGES.unknownPayments(1) } };
      expect(await call('gateway:save', { kind: 'embedded' })).toEqual(refused);
      expect(await call('gateway:sign-out')).toEqual(refused);
      // The next sign-in asks the gateway in use: found, approved; then the change may go on.
      await signInAs('Morgan', '1234');
      for (let i = 0; i < 100 && value(await call('sale:lost-list')).some((l) => l.state === 'checking'); i++) await new Promise((res) => setTimeout(res, 50));
      expect(value(await call('sale:lost-list'))).toMatchObject([{ state: 'approved', amountCents: 1_999 }]);
      expect((await call('gateway:save', { kind: 'embedded' })).ok).toBe(true);
    } finally {
      await core.close();
      await proxy.close();
    }
  }, 45_000);
});
