/**
 * The installer sets devices up and moves no money (issue 11, point 3): the core refuses
 * every channel outside the installer's (declared in shared/ipc, enforced by electron/ipc/channel-rules.ts) — the day's transactions and
 * the void of a cashier's partial approval among them — and the installer's requests go to
 * the engine as its device-installer user (user_type_id 50), which sets up terminals but
 * whose sale the engine itself refuses (403).
 */
import { describe, expect, it } from 'vitest';
import { INSTALLER_CHANNELS } from '../../electron/ipc/channel-rules';
import { openNodeHostSecretStore } from '../../electron/core/keys/node-host-keys';
import { INSTALLER_CREDENTIALS_SECRET } from '../../electron/core/gateway/role-credentials';
import { AUTH_ERRORS } from '../../electron/core/auth/users';
import { INSTALLER_USER_TYPE } from '../../electron/gateway/framework/permissions';
import { LOCAL_CALLER, runAsCaller } from '../../electron/ipc/caller-context';
import { channels } from '../../shared/ipc/contract';
import type { Result } from '../../shared/result';
import { useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-installer-');
const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };

describe('the installer', () => {
  it("may not list the day's transactions nor void a cashier's partial approval", async () => {
    await h.signInAs('Casey', '0000');
    const partial = value(await h.call('sale:charge', { subtotalCents: 201, taxCents: 0, tipCents: 0, card, clientRef: 'inst-partial' })).transaction;
    expect(partial).toMatchObject({ partial: true, amountCents: 100 });

    await h.signInAs('Jordan', '2468');
    expect(await h.call('transactions:today', { page: 1 })).toMatchObject({ ok: false, error: { code: 'forbidden', message: AUTH_ERRORS.installerScope } });
    expect(await h.call('sale:void-partial', { id: partial.id })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await h.call('receipt:email', { id: partial.id, email: 'pat@example.com' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await h.call('links:transaction', { id: partial.id })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    // The partial approval stands.
    expect(h.engineRow('SELECT status_id FROM transactions WHERE id = ?', partial.id)).toEqual({ status_id: 101 });
  });

  it('is refused every channel outside its own, whatever the argument', async () => {
    await h.signInAs('Jordan', '2468');
    const allowed: string[] = [];
    for (const channel of channels.filter((c) => !INSTALLER_CHANNELS.has(c))) {
      const handler = h.core.handlers[channel] as (arg: unknown) => Promise<Result<unknown>>;
      let r: Result<unknown> | string;
      try {
        r = await runAsCaller(LOCAL_CALLER, () => handler(undefined));
      } catch (err) {
        r = `threw ${String(err)}`;
      }
      if (typeof r === 'string' || r.ok || r.error.code !== 'forbidden') allowed.push(channel);
    }
    expect(allowed, 'channels an installer reached').toEqual([]);
    // Its own channels are neither money nor a manager's.
    expect([...INSTALLER_CHANNELS].filter((c) => /^(sale|transactions|receipt|links|cart|vault|batches|reports|recurring|paylinks|level3|outbox|keys|users|audit|catalogue):/.test(c))).toEqual([]);
  });

  it("sets a terminal up as the engine's device-installer user, whose sale the engine refuses", async () => {
    await h.signInAs('Jordan', '2468');
    const data = value(await h.call('devices:installer-data'));
    const { lastRegistrationTs: _ts, id: _id, ...demo } = data.terminals[0]!;
    const saved = value(await h.call('devices:terminal-save', { ...demo, title: 'Back counter', serialNumber: 'SN-BACK-1', address: { kind: 'tcp', host: '127.0.0.1', port: 10009 } }));
    const maker = h.engineRow('SELECT u.user_type_id, u.username FROM terminals t JOIN users u ON u.id = t.created_user_id WHERE t.id = ?', saved.id);
    expect(maker).toMatchObject({ user_type_id: INSTALLER_USER_TYPE });
    expect(String(maker?.username)).toMatch(/^ringup-installer-/);

    const stored = await openNodeHostSecretStore(h.dir).get(INSTALLER_CREDENTIALS_SECRET);
    const installer = JSON.parse(String(stored)) as { userId: string; userApiKey: string };
    const base = value(await h.call('core:status')).gateway.baseUrl;
    const developerId = String(h.engineRow('SELECT id FROM developer_companies LIMIT 1')?.id ?? '');
    const res = await fetch(`${base}/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'developer-id': developerId, 'user-id': installer.userId, 'user-api-key': installer.userApiKey },
      body: JSON.stringify({ transaction: { action: 'sale', payment_method: 'cc', account_number: card.number, exp_date: card.expiry, transaction_amount: '1.00' } }),
    });
    expect(res.status).toBe(403);
  });
});
