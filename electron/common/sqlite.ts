/**
 * Opens a better-sqlite3 database. Under Electron, `npm start` points
 * RINGUP_SQLITE_BINDING at a copy of better-sqlite3 rebuilt for Electron's ABI
 * (build/electron-native); plain Node (tests, node host, standalone engine) uses the
 * copy in node_modules. Every SQLite file of the app goes through here: the core's and
 * the engine's, which is why it lives in electron/common/ (both import it; it imports
 * neither).
 */
import Database from 'better-sqlite3';

export const SQLITE_BINDING_ENV = 'RINGUP_SQLITE_BINDING';

export function openDatabase(file: string, options: Database.Options = {}): Database.Database {
  const nativeBinding = process.env[SQLITE_BINDING_ENV];
  return new Database(file, nativeBinding ? { ...options, nativeBinding } : options);
}
