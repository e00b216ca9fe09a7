/** The files of an engine data folder, named once: the engine writes them, its CLI tools and the app read them (through engine.ts). */
export const DATABASE_FILE = 'gateway.sqlite';
export const CREDENTIALS_FILE = 'credentials.json';
/** The embedded engine's credentials without their secrets (see withoutSecrets in engine.ts). */
export const PUBLIC_INFO_FILE = 'engine.json';
