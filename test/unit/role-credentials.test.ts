/**
 * Counter roles map onto the engine's (issue 11, point 3): a signed-in cashier's requests
 * go with the engine user of the cashier role (user_type_id 100), so the engine itself
 * refuses a cashier's refund; managers' requests go with the admin. The cashier's key is
 * kept only in the SecretStore, and a restart reuses the same engine user.
 */
import { describe, expect, it } from 'vitest';
import { CASHIER_CREDENTIALS_SECRET } from '../../electron/core/gateway/role-credentials';
import { openNodeHostSecretStore } from '../../electron/core/keys/node-host-keys';
import { useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-roles-');
const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };

describe('role credentials', () => {
  it("a cashier's sale is made by the engine's cashier user; the manager's refund by the admin", async () => {
    await h.signInAs('Casey', '0000');
    const sale = value(await h.call('sale:charge', { subtotalCents: 1500, taxCents: 0, tipCents: 0, card, clientRef: 'roles-1' })).transaction;
    const seller = h.engineRow("SELECT u.user_type_id, u.username FROM transactions t JOIN users u ON u.id = json_extract(t.doc, '$.created_user_id') WHERE t.id = ?", sale.id);
    expect(seller).toMatchObject({ user_type_id: 100 });
    expect(String(seller?.username)).toMatch(/^ringup-cashier-/);
    // The core refuses the cashier first…
    expect((await h.call('transactions:refund', { id: sale.id, amountCents: 100 })).ok).toBe(false);

    await h.signInAs('Morgan', '1234');
    const refund = value(await h.call('transactions:refund', { id: sale.id, amountCents: 500 }));
    expect(refund).toBeTruthy();
    const refunder = h.engineRow("SELECT u.user_type_id FROM transactions t JOIN users u ON u.id = json_extract(t.doc, '$.created_user_id') WHERE json_extract(t.doc, '$.previous_transaction_id') = ? AND t.type_id = 30", sale.id);
    expect(refunder).toMatchObject({ user_type_id: 250 });
  });

  it('…and the engine refuses the cashier key itself (403), which lives only in the secret store', async () => {
    const stored = await openNodeHostSecretStore(h.dir).get(CASHIER_CREDENTIALS_SECRET);
    const cashier = JSON.parse(String(stored)) as { userId: string; userApiKey: string };
    const base = (value(await h.call('core:status'))).gateway.baseUrl;
    const developerId = String(h.engineRow('SELECT id FROM developer_companies LIMIT 1')?.id ?? '');
    const sale = h.engineRow('SELECT id FROM transactions WHERE type_id = 20 AND status_id = 101 LIMIT 1');
    const res = await fetch(`${base}/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'developer-id': developerId, 'user-id': cashier.userId, 'user-api-key': cashier.userApiKey },
      body: JSON.stringify({ transaction: { action: 'refund', previous_transaction_id: sale?.id, transaction_amount: '1.00' } }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { errors: { general: string[] } }).errors.general[0]).toMatch(/may not refund/);
  });
});
