/**
 * Key backup (issue 11, point 6): a passphrase-protected backup of the secret store
 * (scrypt + AES-256-GCM) restores on a fresh data folder, so a replacement register
 * charges the saved cards of the old one; a wrong passphrase or a changed file is
 * refused with a sentence and restores nothing; the file holds no key in the clear.
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VAULT_KEY_SECRET } from '../../electron/core/app-core';
import { exportKeys, KEY_BACKUP_MESSAGES, restoreKeys } from '../../electron/core/keys/key-backup';
import { KEYS_MESSAGES } from '../../electron/core/keys/keys-handlers';
import { AWAITING_KEYS_DIR, AWAITING_KEYS_MESSAGE } from '../../electron/core/gateway/sealed-gateway';
import { openNodeHostSecretStore } from '../../electron/core/keys/node-host-keys';
import { FileSecretStore } from '../../electron/secrets/file-secret-store';
import { openCore, value } from '../helpers/core-harness';
import { tempDirs } from '../helpers/temp-dirs';

const { newDir } = tempDirs();

async function open(dataDir: string) {
  const opened = await openCore(dataDir);
  await opened.signInAs('Morgan', '1234');
  return opened;
}

describe('the backup file', () => {
  it('round-trips the secrets; a wrong passphrase or a changed byte restores nothing', async () => {
    const a = newDir('ringup-keys-a-');
    const store = new FileSecretStore(a);
    await store.set('vault-key', Buffer.alloc(32, 7));
    await store.set('engine-cashier-user', Buffer.from('{"userId":"u","userApiKey":"abcdef0123456789"}'));
    await expect(exportKeys({ dataDir: a, secrets: store, names: ['vault-key'], passphrase: 'short' })).rejects.toThrow(KEY_BACKUP_MESSAGES.passphraseShort);
    const file = await exportKeys({ dataDir: a, secrets: store, names: ['vault-key', 'engine-cashier-user'], passphrase: 'correct horse battery' });
    const text = readFileSync(join(a, 'backups', file), 'utf8');
    expect(text).not.toContain(Buffer.alloc(32, 7).toString('base64'));
    expect(text).not.toContain('abcdef0123456789');

    const b = newDir('ringup-keys-b-');
    cpSync(join(a, 'backups'), join(b, 'backups'), { recursive: true });
    const fresh = new FileSecretStore(b);
    await expect(restoreKeys({ dataDir: b, secrets: fresh, fileName: file, passphrase: 'wrong horse battery' })).rejects.toThrow(KEY_BACKUP_MESSAGES.wrongPassphraseOrChanged);
    const parsed = JSON.parse(text) as { data: string; created: string };
    const flipped = Buffer.from(parsed.data, 'base64');
    flipped[3] = (flipped[3] ?? 0) ^ 1;
    writeFileSync(join(b, 'backups', 'changed.json'), JSON.stringify({ ...parsed, data: flipped.toString('base64') }));
    await expect(restoreKeys({ dataDir: b, secrets: fresh, fileName: 'changed.json', passphrase: 'correct horse battery' })).rejects.toThrow(KEY_BACKUP_MESSAGES.wrongPassphraseOrChanged);
    writeFileSync(join(b, 'backups', 'dated.json'), JSON.stringify({ ...parsed, created: '2020-01-01T00:00:00.000Z' }));
    await expect(restoreKeys({ dataDir: b, secrets: fresh, fileName: 'dated.json', passphrase: 'correct horse battery' })).rejects.toThrow(KEY_BACKUP_MESSAGES.wrongPassphraseOrChanged);
    // A tag cut to its first 4 bytes still authenticates in GCM unless its length is pinned.
    const shortTag = Buffer.from((JSON.parse(text) as { cipher: { tag: string } }).cipher.tag, 'base64').subarray(0, 4).toString('base64');
    writeFileSync(join(b, 'backups', 'short-tag.json'), JSON.stringify({ ...parsed, cipher: { ...(parsed as unknown as { cipher: object }).cipher, tag: shortTag } }));
    await expect(restoreKeys({ dataDir: b, secrets: fresh, fileName: 'short-tag.json', passphrase: 'correct horse battery' })).rejects.toThrow(KEY_BACKUP_MESSAGES.wrongPassphraseOrChanged);
    expect(await fresh.get('vault-key')).toBeNull();

    expect(await restoreKeys({ dataDir: b, secrets: fresh, fileName: file, passphrase: 'correct horse battery' })).toEqual(['vault-key', 'engine-cashier-user']);
    expect(await fresh.get('vault-key')).toEqual(Buffer.alloc(32, 7));
  });
});

describe('a replacement register', () => {
  it('charges the old register’s saved card after the keys are restored (and not before)', async () => {
    const oldDir = newDir('ringup-old-');
    const old = await open(oldDir);
    const pat = value(await old.call('vault:add-contact', { firstName: 'Pat', lastName: 'Doe', email: '' }));
    const card = value(await old.call('vault:add-card', { contactId: pat.id, holderName: 'Pat Doe', number: '4111111111111111', expiry: '1230' }));
    const backup = value(await old.call('keys:export', { passphrase: 'the old register 2026' }));
    await old.core.close();

    // The new register: the engine's data folder and the backup file copied over; its own, new secret store.
    const newDirPath = newDir('ringup-new-');
    cpSync(join(oldDir, 'gateway'), join(newDirPath, 'gateway'), { recursive: true });
    cpSync(join(oldDir, 'backups'), join(newDirPath, 'backups'), { recursive: true });
    // The copied engine folder is sealed under the old register's key: it waits aside, the counter starts on a fresh engine and says why.
    const before = await open(newDirPath);
    expect(existsSync(join(newDirPath, AWAITING_KEYS_DIR))).toBe(true);
    expect(value(await before.call('keys:backups')).awaitingKeys).toBe(AWAITING_KEYS_MESSAGE);
    const refused = await before.call('vault:charge', { id: card.id, subtotalCents: 700, taxCents: 0, tipCents: 0, clientRef: 'new-1' });
    expect(refused.ok).toBe(false);
    const wrong = await before.call('keys:restore', { fileName: backup.fileName, passphrase: 'not the passphrase' });
    expect(!wrong.ok && wrong.error.message).toBe(KEY_BACKUP_MESSAGES.wrongPassphraseOrChanged);
    expect(value(await before.call('keys:backups')).backups.map((b) => b.fileName)).toContain(backup.fileName);
    const restored = value(await before.call('keys:restore', { fileName: backup.fileName, passphrase: 'the old register 2026' }));
    expect(restored.message).toBe(KEYS_MESSAGES.restored);
    await before.core.close();

    // Started again with the old register's keys: its engine folder is back in place (the fresh one kept aside), its saved card charges.
    const after = await open(newDirPath);
    expect(existsSync(join(newDirPath, AWAITING_KEYS_DIR))).toBe(false);
    expect(readdirSync(newDirPath).some((n) => n.startsWith('gateway-replaced-'))).toBe(true);
    expect(value(await after.call('keys:backups')).awaitingKeys).toBeNull();
    const sale = value(await after.call('vault:charge', { id: card.id, subtotalCents: 700, taxCents: 0, tipCents: 0, clientRef: 'new-2' }));
    expect(sale.approved).toBe(true);
    expect(await openNodeHostSecretStore(newDirPath).get(VAULT_KEY_SECRET)).toEqual(await openNodeHostSecretStore(oldDir).get(VAULT_KEY_SECRET));
    await after.core.close();
  });
});
