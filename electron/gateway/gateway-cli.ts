/**
 * `npm run gateway -- --port P --data DIR [--host 127.0.0.1]`
 * Runs the embedded gateway engine on its own and prints its credentials.
 * E-mail: `--smtp-host H --smtp-port P [--smtp-secure] [--smtp-user U] [--smtp-from F]`
 * (password from RINGUP_SMTP_PASSWORD), or RINGUP_SMTP_URL; see notifications/smtp-settings.ts.
 * `npm run gateway -- register-client --data DIR --name N --redirect-uri URL …` registers
 * an OAuth client application instead (see oauth/register-client-command.ts).
 */
import { resolve } from 'node:path';
import { argPort, argValue, closeOnSignals } from '../common/cli-args';
import { startEngine } from './engine';
import { registerClientCommand } from './oauth/register-client-command';
import { smtpFromCli } from './notifications/smtp-settings';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const dataDir = resolve(argValue(argv, 'data') ?? '.ringup-data/gateway');
  if (argv[0] === 'register-client') {
    console.log(JSON.stringify(registerClientCommand(argv.slice(1), dataDir), null, 2));
    return;
  }
  const host = argValue(argv, 'host') ?? '127.0.0.1';
  const smtp = smtpFromCli(argv, process.env);
  const engine = await startEngine({ dataDir, host, port: argPort(argv) ?? 0, log: (line) => console.error(line), ...(smtp ? { smtp } : {}) });
  closeOnSignals(() => engine.close());
  console.log(JSON.stringify(engine.credentials, null, 2));
  console.error(`Gateway engine listening at ${engine.baseUrl} (data: ${dataDir}); credentials in ${resolve(dataDir, 'credentials.json')}`);
}

main().catch((err: unknown) => {
  console.error(`The gateway engine could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
