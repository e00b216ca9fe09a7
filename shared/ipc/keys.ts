/**
 * The `keys:*` channels: a passphrase-protected backup of the keys in the secret store
 * (managers). Only file names and dates cross to the renderer, never a key or the file.
 */
import { z } from 'zod';
import { MANAGER, audits, type ChannelDeclarations } from './channel-declaration';

export const MIN_BACKUP_PASSPHRASE = 12;
export const KEY_BACKUP_PASSPHRASE_SHORT = `Use a passphrase of at least ${MIN_BACKUP_PASSPHRASE} characters.`;
const passphraseSchema = z.string().min(MIN_BACKUP_PASSPHRASE, KEY_BACKUP_PASSPHRASE_SHORT).max(256);
const backupFileSchema = z.string().regex(/^[A-Za-z0-9._-]{1,128}\.json$/, 'Pick a backup file from the list.');

export interface KeyBackupInfo {
  fileName: string;
  /** Unix milliseconds. */
  modified: number;
}

export interface KeyBackupState {
  /** Where backups are written and looked for (`<data>/backups`). */
  folder: string;
  backups: KeyBackupInfo[];
  /** Set when gateway data copied from another register waits for that register's keys: what to do, in a sentence. */
  awaitingKeys: string | null;
}

export const keysHandlers = {
  'keys:backups': { args: z.void(), access: MANAGER, effect: 'read', audit: 'none', copiedFolder: 'answers' },
  'keys:export': { args: z.strictObject({ passphrase: passphraseSchema }), access: MANAGER, effect: 'keys', audit: audits(['keys-backup'], ['detail']), copiedFolder: 'answers' },
  'keys:restore': { args: z.strictObject({ fileName: backupFileSchema, passphrase: z.string().min(1, 'Enter the passphrase of this backup.').max(256) }), access: MANAGER, effect: 'keys', audit: audits(['keys-backup'], ['detail']) },
} as const satisfies ChannelDeclarations;

export interface KeysResults {
  'keys:backups': KeyBackupState;
  /** The new file's name. */
  'keys:export': { fileName: string; folder: string };
  /** What happens next (a restart), in a sentence. */
  'keys:restore': { restored: number; message: string };
}
