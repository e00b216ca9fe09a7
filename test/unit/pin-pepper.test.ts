/**
 * Issue 20, point 7: a copied `ringup.db` alone gives up no PIN.
 *
 * PIN hashes are keyed with a secret from the secret store (the PIN pepper), so the stored
 * value is useless without it: an offline brute force over all 10,000 4-digit PINs using
 * only the database file finds nothing, while the same search holding the pepper does
 * (the search itself is sound), and the real register still signs in. Hashes written
 * before the pepper are converted at the first start without knowing any PIN. The key
 * backup carries the pepper, and restoring it keeps this register's own PINs working.
 * The unit tests hash at a low scrypt cost (test/helpers/test-pins.ts) so the full search
 * over 10,000 PINs takes seconds; the key, not the cost, is what is shown here.
 */
import { copyFileSync, cpSync } from 'node:fs';
import { createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openPosDatabase } from '../../electron/core/platform/pos-database';
import { UserDirectory } from '../../electron/core/auth/users';
import { openNodeHostSecretStore } from '../../electron/core/keys/node-host-keys';
import { PIN_PEPPER_SECRET } from '../../electron/core/auth/pin-hash';
import { runAsCaller } from '../../electron/ipc/caller-context';
import { openCore, value } from '../helpers/core-harness';
import { tempDirs } from '../helpers/temp-dirs';
import { TEST_PIN_COST, testPins } from '../helpers/test-pins';

const { newDir } = tempDirs();

/**
 * What an attacker holding the file can do: for each PIN 0000..9999, recompute the scrypt
 * the value names (cost and salt are in it) and compare — with the pepper too when given
 * one (to show the search finds a PIN when the key is known). Answers the PINs that match.
 */
function bruteForce(stored: string, pepper?: Buffer): string[] {
  const [n, r, p, saltB64, hashB64] = stored.split('$').slice(-5) as [string, string, string, string, string];
  const expected = Buffer.from(hashB64, 'base64');
  const found: string[] = [];
  for (let i = 0; i < 10_000; i++) {
    const pin = String(i).padStart(4, '0');
    let h = scryptSync(pin, Buffer.from(saltB64, 'base64'), 32, { N: Number(n), r: Number(r), p: Number(p) });
    if (pepper) h = createHmac('sha256', pepper).update(h).digest();
    if (h.length === expected.length && timingSafeEqual(h, expected)) {
      found.push(pin);
      break; // one is enough to show the file gave a PIN up
    }
  }
  return found;
}

const pinHashOf = (file: string, name: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT pin_hash FROM pos_users WHERE name = ?').get(name) as { pin_hash: string }).pin_hash;
  } finally {
    db.close();
  }
};

describe('a copied ringup.db', () => {
  it('gives up no PIN to a brute force over all 10,000; the register still signs in', async () => {
    const dir = newDir('ringup-pepper-');
    const pepper = randomBytes(32);
    const db = openPosDatabase(dir);
    let users = new UserDirectory(db, { pins: testPins(pepper) });
    const morgan = users.list().find((u) => u.name === 'Morgan')!.id;
    expect((await users.signIn(morgan, '1234', 'w1')).ok).toBe(true);
    expect((await runAsCaller('w1', () => users.changePin('1234', '0042'))).ok).toBe(true);
    users.close();
    db.pragma('wal_checkpoint(TRUNCATE)');

    // The file alone, elsewhere.
    const stolen = join(newDir('ringup-stolen-db-'), 'ringup.db');
    copyFileSync(join(dir, 'ringup.db'), stolen);
    const stored = pinHashOf(stolen, 'Morgan');
    expect(bruteForce(stored)).toEqual([]);
    // The same search holding the pepper finds it: the search is sound, the pepper is what stops it.
    expect(bruteForce(stored, pepper)).toEqual(['0042']);

    // The real register, with its pepper, signs in.
    users = new UserDirectory(db, { pins: testPins(pepper) });
    expect((await users.signIn(morgan, '0042', 'w2')).ok).toBe(true);
    users.close();
    db.close();
  }, 120_000);

  it('hashes from before the pepper are converted at the first start, without the PINs', async () => {
    const dir = newDir('ringup-legacy-');
    const db = openPosDatabase(dir);
    // A user as the old code stored them: scrypt$N$r$p$salt$hash, unkeyed.
    const salt = randomBytes(16);
    const legacy = `scrypt$${TEST_PIN_COST.N}$${TEST_PIN_COST.r}$${TEST_PIN_COST.p}$${salt.toString('base64')}$${scryptSync('0077', salt, 32, TEST_PIN_COST).toString('base64')}`;
    db.prepare("INSERT INTO pos_users (id, name, role, pin_hash, sort, created_ts) VALUES ('u-old', 'Olive', 'manager', ?, 0, 0)").run(legacy);
    expect(bruteForce(legacy)).toEqual(['0077']); // what a copied file gave up before

    const pepper = randomBytes(32);
    const users = new UserDirectory(db, { pins: testPins(pepper) });
    const converted = (db.prepare("SELECT pin_hash FROM pos_users WHERE id = 'u-old'").get() as { pin_hash: string }).pin_hash;
    expect(converted).not.toBe(legacy);
    expect(converted.startsWith('scrypt-hmac$')).toBe(true);
    expect(bruteForce(converted)).toEqual([]);
    expect((await users.signIn('u-old', '0077', 'w1')).ok).toBe(true);
    // A second start leaves a converted value alone.
    users.close();
    new UserDirectory(db, { pins: testPins(pepper) }).close();
    expect((db.prepare("SELECT pin_hash FROM pos_users WHERE id = 'u-old'").get() as { pin_hash: string }).pin_hash).toBe(converted);
    db.close();
  }, 60_000);
});

describe('the key backup', () => {
  it('carries the PIN pepper: a moved register keeps its PINs, and the restoring register keeps its own', async () => {
    const oldDir = newDir('ringup-pin-old-');
    const old = await openCore(oldDir);
    await old.signInAs('Morgan', '1234');
    value(await old.call('users:add', { name: 'Riley', role: 'manager', pin: '5555' }));
    const backup = value(await old.call('keys:export', { passphrase: 'the old register 2026' }));
    await old.core.close();
    const oldPepper = await openNodeHostSecretStore(oldDir).get(PIN_PEPPER_SECRET);
    expect(oldPepper).not.toBeNull();

    // The replacement register: its own users and secret store; the backup copied in and restored.
    const newDirPath = newDir('ringup-pin-new-');
    cpSync(join(oldDir, 'backups'), join(newDirPath, 'backups'), { recursive: true });
    const fresh = await openCore(newDirPath);
    await fresh.signInAs('Morgan', '1234');
    value(await fresh.call('keys:restore', { fileName: backup.fileName, passphrase: 'the old register 2026' }));
    await fresh.core.close();

    // Its own PINs still hold after the restore (the pepper is added, not swapped).
    const again = await openCore(newDirPath);
    await again.signInAs('Morgan', '1234');
    await again.core.close();

    // The old register's app database moved in: its users sign in with their PINs.
    copyFileSync(join(oldDir, 'ringup.db'), join(newDirPath, 'ringup.db'));
    const moved = await openCore(newDirPath);
    await moved.signInAs('Riley', '5555');
    await moved.core.close();
  }, 120_000);
});
