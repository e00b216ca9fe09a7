/**
 * `outbox:list` through the real dispatcher, a real core and its real engine: a manager
 * reads the store's e-mail and SMS with links, a page at a time and by channel; cashiers
 * and signed-out windows are refused; a bad argument is refused before the core.
 */
import { describe, expect, it } from 'vitest';
import { OUTBOX_PAGE_SIZE } from '../../shared/ipc/contract';
import { AUTH_ERRORS } from '../../electron/core/auth/users';
import { NO_MAIL_SERVER } from '../../electron/gateway/notifications/notifications-module';
import { useCoreHarness, value } from '../helpers/core-harness';
import { engineCredentials, engineHeaders } from '../e2e/helpers/engine-api';

const h = useCoreHarness('ringup-outbox-');

describe('outbox:list', () => {
  it('managers read every e-mail and SMS with its link, newest first, filtered by channel; others are refused', async () => {
    const c = engineCredentials(h.dir);
    for (const [i, email] of ['a@example.com', 'b@example.com'].entries()) {
      const r = await fetch(`${c.base_url}/transactions`, {
        method: 'POST',
        headers: engineHeaders(c),
        body: JSON.stringify({ transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: `${i + 1}.00`, location_id: c.location_id, notification_email_address: email } }),
      });
      expect(r.status).toBe(201);
    }
    expect(await h.call('outbox:list', { page: 1 })).toMatchObject({ ok: false, error: { code: 'unauthenticated' } });
    await h.signInAs('Casey', '0000');
    expect(await h.call('outbox:list', { page: 1 })).toMatchObject({ ok: false, error: { code: 'forbidden', message: AUTH_ERRORS.managerOnly } });
    await h.signInAs('Morgan', '1234');
    const page = value(await h.call('outbox:list', { page: 1 }));
    expect(page).toMatchObject({ total: 2, page: 1, pageCount: 1 });
    expect(page.rows.map((m) => m.to).sort()).toEqual(['a@example.com', 'b@example.com']);
    // No mail server is set up here: the outbox says why each e-mail waits from the moment it is queued.
    expect(page.rows[0]).toMatchObject({ channel: 'email', kind: 'receipt', link: null, sentTs: null, error: NO_MAIL_SERVER });
    expect(JSON.stringify(page)).not.toContain('4111111111111111');
    expect(value(await h.call('outbox:list', { page: 1, channel: 'sms' })).rows).toEqual([]);
    expect(OUTBOX_PAGE_SIZE).toBe(50);
    expect(await h.call('outbox:list', { page: 0 })).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await h.call('outbox:list', { page: 1, channel: 'fax' })).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });
});
