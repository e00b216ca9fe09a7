/**
 * A passphrase-protected backup of the keys in the SecretStore (the saved-card vault key,
 * the engine's cashier user), so a replacement register opens the saved cards of the one
 * it replaces: copy the data folder's `gateway/` and the backup file, restore, restart.
 *
 * File format (JSON, version 1): `{ format, version, created, kdf: { name: "scrypt", N, r,
 * p, salt }, cipher: { name: "aes-256-gcm", iv, tag }, data }`, binary fields in base64.
 * The key is scrypt(passphrase, salt); `data` is AES-256-GCM of the JSON of every secret,
 * with the header as additional data, so a changed header, ciphertext or tag fails the
 * authentication exactly like a wrong passphrase: nothing is restored then.
 * Backups are written to and read from `<data>/backups/`; their contents never go to the
 * renderer (only file names and dates do).
 * A restore overwrites each secret, except those given a `merge`: the PIN pepper ring
 * (pin-hash.ts) is joined with this register's own, so the restoring register's PINs keep
 * checking while the old register's PINs (its `ringup.db` moved over) check too.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { KEY_BACKUP_PASSPHRASE_SHORT, MIN_BACKUP_PASSPHRASE } from '../../../shared/ipc/contract';
import type { SecretStore } from '../../secrets/secret-store';

export const BACKUP_FORMAT = 'ringup-key-backup' as const;
export const BACKUP_VERSION = 1;
/** scrypt cost: 2^15 × 8 × 1 (≈ 32 MiB, ~0.1 s here): slow enough against guessing, quick for a person. */
const SCRYPT = { N: 32768, r: 8, p: 1 } as const;
/** The GCM tag is always 16 bytes: pinned on restore, where GCM would otherwise accept a tag cut short (4 bytes are easy to forge). */
const GCM_TAG_BYTES = 16;

export const KEY_BACKUP_MESSAGES = {
  passphraseShort: KEY_BACKUP_PASSPHRASE_SHORT,
  notABackup: 'This file is not a Ringup key backup.',
  wrongPassphraseOrChanged: 'The passphrase is wrong, or the file was changed after it was made. Nothing was restored.',
  notFound: 'That backup file is not in the backups folder any more.',
  nothingToBackUp: 'There are no keys to back up yet.',
} as const;

interface BackupFile {
  format: typeof BACKUP_FORMAT;
  version: number;
  created: string;
  kdf: { name: 'scrypt'; N: number; r: number; p: number; salt: string };
  cipher: { name: 'aes-256-gcm'; iv: string; tag: string };
  data: string;
}

export class KeyBackupError extends Error {}

/** Per secret name: how a restored value joins the one already held (instead of replacing it). */
export type RestoreMerge = Readonly<Record<string, (current: Buffer | null, restored: Buffer) => Buffer>>;

const header = (f: Omit<BackupFile, 'data' | 'cipher'> & { cipher: { name: string; iv: string } }) =>
  Buffer.from(JSON.stringify([f.format, f.version, f.created, f.kdf, f.cipher.name, f.cipher.iv]));

function deriveKey(passphrase: string, salt: Buffer, kdf: { N: number; r: number; p: number }): Buffer {
  return scryptSync(passphrase.normalize('NFC'), salt, 32, { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: 128 * kdf.N * kdf.r * 2 });
}

export function backupsDir(dataDir: string): string {
  return join(dataDir, 'backups');
}

/** Encrypts the named secrets into a new file in `<data>/backups/`; answers its file name. */
export async function exportKeys(opts: { dataDir: string; secrets: SecretStore; names: readonly string[]; passphrase: string; now?: Date }): Promise<string> {
  if (opts.passphrase.length < MIN_BACKUP_PASSPHRASE) throw new KeyBackupError(KEY_BACKUP_MESSAGES.passphraseShort);
  const values: Record<string, string> = {};
  for (const name of opts.names) {
    const v = await opts.secrets.get(name);
    if (v) values[name] = v.toString('base64');
  }
  if (Object.keys(values).length === 0) throw new KeyBackupError(KEY_BACKUP_MESSAGES.nothingToBackUp);
  const created = (opts.now ?? new Date()).toISOString();
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const kdf = { name: 'scrypt' as const, ...SCRYPT, salt: salt.toString('base64') };
  const head = { format: BACKUP_FORMAT, version: BACKUP_VERSION, created, kdf, cipher: { name: 'aes-256-gcm' as const, iv: iv.toString('base64') } };
  const cipher = createCipheriv('aes-256-gcm', deriveKey(opts.passphrase, salt, SCRYPT), iv, { authTagLength: GCM_TAG_BYTES });
  cipher.setAAD(header(head));
  const data = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()]);
  const file: BackupFile = { ...head, cipher: { ...head.cipher, tag: cipher.getAuthTag().toString('base64') }, data: data.toString('base64') };
  const dir = backupsDir(opts.dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = `ringup-keys-${created.replace(/[:.]/g, '-')}.json`;
  writeFileSync(join(dir, name), JSON.stringify(file, null, 2) + '\n', { mode: 0o600 });
  return name;
}

/** The backup files in `<data>/backups/`, newest first. */
export function listBackups(dataDir: string): Array<{ fileName: string; modified: number }> {
  const dir = backupsDir(dataDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.map((fileName) => ({ fileName, modified: statSync(join(dir, fileName)).mtimeMs })).sort((a, b) => b.modified - a.modified);
}

/** Decrypts a backup and writes its secrets; on any failure nothing is written. Answers the names restored. */
export async function restoreKeys(opts: { dataDir: string; secrets: SecretStore; fileName: string; passphrase: string; merge?: RestoreMerge }): Promise<string[]> {
  const fileName = basename(opts.fileName);
  let text: string;
  try {
    text = readFileSync(join(backupsDir(opts.dataDir), fileName), 'utf8');
  } catch {
    throw new KeyBackupError(KEY_BACKUP_MESSAGES.notFound);
  }
  let f: BackupFile;
  try {
    f = JSON.parse(text) as BackupFile;
  } catch {
    throw new KeyBackupError(KEY_BACKUP_MESSAGES.notABackup);
  }
  if (f?.format !== BACKUP_FORMAT || f.version !== BACKUP_VERSION || f.kdf?.name !== 'scrypt' || f.cipher?.name !== 'aes-256-gcm') throw new KeyBackupError(KEY_BACKUP_MESSAGES.notABackup);
  // Bounded cost: a file cannot make the restore allocate or spin without limit.
  if (!(f.kdf.N >= 1024 && f.kdf.N <= 1 << 20 && f.kdf.r >= 1 && f.kdf.r <= 32 && f.kdf.p >= 1 && f.kdf.p <= 4)) throw new KeyBackupError(KEY_BACKUP_MESSAGES.notABackup);
  let values: Record<string, string>;
  try {
    const key = deriveKey(opts.passphrase, Buffer.from(f.kdf.salt, 'base64'), f.kdf);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(f.cipher.iv, 'base64'), { authTagLength: GCM_TAG_BYTES });
    decipher.setAAD(header(f));
    decipher.setAuthTag(Buffer.from(f.cipher.tag, 'base64'));
    values = JSON.parse(Buffer.concat([decipher.update(Buffer.from(f.data, 'base64')), decipher.final()]).toString('utf8')) as Record<string, string>;
  } catch {
    throw new KeyBackupError(KEY_BACKUP_MESSAGES.wrongPassphraseOrChanged);
  }
  for (const [name, value] of Object.entries(values)) {
    const restored = Buffer.from(value, 'base64');
    const merge = opts.merge?.[name];
    await opts.secrets.set(name, merge ? merge(await opts.secrets.get(name), restored) : restored);
  }
  return Object.keys(values);
}
