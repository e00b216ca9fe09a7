/**
 * `npm run gateway -- register-client --data DIR --name NAME --redirect-uri URL
 *    [--redirect-uri URL…] [--description TEXT] [--homepage URL]`
 * Registers a client application in the engine's database without starting a server
 * (so a running engine's credentials.json is left alone; SQLite's WAL lets both work on
 * the file at once) and prints `{client_id, client_secret, …}`. The secret is shown
 * only here; the database keeps its SHA-256.
 */
import { join } from 'node:path';
import { MovableClock } from '../framework/clock';
import { openDatabase } from '../framework/database';
import { ApiError } from '../framework/errors';
import { migrate } from '../framework/migrations';
import { defaultModules } from '../engine-modules';
import { DATABASE_FILE } from '../engine-files';
import { OAuthClients, readClientInput } from './oauth-clients';

export const NOT_STARTED = 'This data folder has no engine yet: start the engine once with --data first.';

function values(argv: readonly string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === `--${name}` && argv[i + 1] !== undefined) out.push(argv[++i] as string);
    else if (a.startsWith(`--${name}=`)) out.push(a.slice(name.length + 3));
  }
  return out;
}

export function registerClientCommand(argv: readonly string[], dataDir: string): Record<string, unknown> {
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  try {
    migrate(db, defaultModules().flatMap((m) => m.migrations ?? []));
    // The seed's developer company (the only one; read from its table, as the seed in
    // engine_meta is sealed when the folder belongs to the app).
    const company = db.prepare('SELECT id FROM developer_companies ORDER BY created_ts LIMIT 1').get() as { id: string } | undefined;
    if (!company) throw new Error(NOT_STARTED);
    const developerId = company.id;
    let input;
    try {
      input = readClientInput({
        name: values(argv, 'name')[0],
        description: values(argv, 'description')[0],
        homepage_url: values(argv, 'homepage')[0],
        redirect_uris: values(argv, 'redirect-uri'),
      });
    } catch (err) {
      if (err instanceof ApiError) throw new Error(Object.values(err.errors).flat().join(' '), { cause: err });
      throw err;
    }
    const clients = new OAuthClients({ stmt: (sql) => db.prepare(sql), clock: new MovableClock() });
    const made = clients.register(developerId, input);
    return { ...made, name: input.name, redirect_uris: input.redirect_uris };
  } finally {
    db.close();
  }
}
