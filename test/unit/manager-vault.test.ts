/**
 * Saved cards and bank accounts through the core against the real engine: only masked
 * numbers come back, fields are checked by the shared schemas before anything is sent,
 * managers manage while any signed-in user may charge, a refused delete carries the
 * gateway's own sentence, and charging a saved card records an approved sale.
 */
import { describe, expect, it } from 'vitest';
import { VAULT_MESSAGES } from '../../electron/core/vault/vault-handlers';
import { AUTH_ERRORS } from '../../electron/core/auth/users';
import { useCoreHarness, value } from '../helpers/core-harness';
import { VAULT_FIELD_ERRORS } from '../../shared/ipc/contract';

const h = useCoreHarness('ringup-vault-');
const { call, signInAs } = h;

describe('vault', () => {
  it('saves a card and a bank account for a customer, masked; charges, updates and deletes them', async () => {
    await signInAs('Morgan', '1234');
    const pat = value(await call('vault:add-contact', { firstName: 'Pat', lastName: 'Doe', email: 'pat@example.com' }));
    expect(pat.name).toBe('Pat Doe');

    const badLuhn = await call('vault:add-card', { contactId: pat.id, holderName: '', number: '4111111111111112', expiry: '1230' });
    expect(badLuhn.ok).toBe(false);
    if (!badLuhn.ok) expect(badLuhn.error.fields?.number).toEqual([VAULT_FIELD_ERRORS.luhn]);
    const badRouting = await call('vault:add-bank', { contactId: pat.id, holderName: 'Pat Doe', routing: '123456789', account: '6789012', accountType: 'checking', isCompany: false });
    expect(badRouting.ok).toBe(false);
    if (!badRouting.ok) expect(badRouting.error.fields?.routing).toEqual([VAULT_FIELD_ERRORS.routingCheck]);

    const card = value(await call('vault:add-card', { contactId: pat.id, holderName: 'Pat Doe', number: '4111111111111111', expiry: '1230' }));
    expect(card).toMatchObject({ kind: 'card', label: 'Visa •••• 1111', expiry: '12/30', contactId: pat.id });
    const bank = value(await call('vault:add-bank', { contactId: pat.id, holderName: 'Pat Doe', routing: '072000326', account: '123456789', accountType: 'savings', isCompany: false }));
    expect(bank).toMatchObject({ kind: 'bank', label: 'Savings •••• 6789', expiry: null });

    const list = value(await call('vault:contacts', { text: '' }));
    const json = JSON.stringify(list);
    expect(json).not.toMatch(/4111111111111111|411111|123456789/);
    expect(list.find((c) => c.id === pat.id)!.methods.map((m) => m.label).sort()).toEqual(['Savings •••• 6789', 'Visa •••• 1111']);
    expect(value(await call('vault:contacts', { text: 'nobody' }))).toEqual([]);
    expect(value(await call('vault:contacts', { text: '1111' }))).toHaveLength(1);

    expect(value(await call('vault:update-expiry', { id: card.id, expiry: '0131' })).expiry).toBe('01/31');

    await signInAs('Casey', '0000');
    expect(await call('vault:delete', { id: card.id })).toEqual({ ok: false, error: { code: 'forbidden', message: AUTH_ERRORS.managerOnly } });
    const sale = value(await call('vault:charge', { id: card.id, subtotalCents: 1234, taxCents: 0, tipCents: 100, clientRef: 'vault-charge-1' }));
    expect(sale).toMatchObject({ approved: true, transaction: { amountCents: 1334, lastFour: '1111', state: 'approved' } });
    // The same clientRef (an attempt id) again after its approval charges nothing new, and is refused in words rather than
    // answered with that sale as if it were new money (issue 20, point 2).
    const again = await call('vault:charge', { id: card.id, subtotalCents: 1234, taxCents: 0, tipCents: 100, clientRef: 'vault-charge-1' });
    expect(!again.ok && again.error).toMatchObject({ code: 'already_answered', message: expect.stringContaining(`(Ref ${sale.transaction.ref})`) as unknown });
    expect(sale.transaction.apiId).not.toBe('vault-charge-1');
    const debit = value(await call('vault:charge', { id: bank.id, subtotalCents: 500, taxCents: 0, tipCents: 0, clientRef: 'vault-charge-2' }));
    expect(debit).toMatchObject({ approved: true, message: VAULT_MESSAGES.bankAccepted });

    await signInAs('Morgan', '1234');
    // A recurring payment that uses the card.
    const start = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    value(await call('recurring:create', { methodId: card.id, amountCents: 500, interval: 1, intervalType: 'm', startDate: start, installments: null, notificationDays: 0, description: '' }));
    const refused = await call('vault:delete', { id: card.id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'gateway_rejected', message: 'The account vault is used by a recurring payment and cannot be deleted.' } });
    expect(value(await call('vault:delete', { id: bank.id }))).toBeNull();
    expect(value(await call('vault:contacts', { text: 'Pat' }))[0]!.methods.map((m) => m.label)).toEqual(['Visa •••• 1111']);
  });
});
