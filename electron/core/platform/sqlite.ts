/**
 * The core's SQLite opener is the engine's (`electron/gateway/framework/sqlite.ts`): one
 * opener for every SQLite file of the app, declared where the engine (which imports
 * nothing from the core) can reach it.
 */
export { openDatabase, SQLITE_BINDING_ENV } from '../../gateway/framework/sqlite';
