/** Tiny argv reader shared by the command-line entry points (node host, standalone engine): in electron/common/, which both may import. */
export function argValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === `--${name}`) return argv[i + 1];
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return undefined;
}

export function argFlag(argv: readonly string[], name: string): boolean {
  return argv.includes(`--${name}`);
}

export function argPort(argv: readonly string[], name = 'port'): number | undefined {
  const raw = argValue(argv, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`--${name} must be a port number from 0 to 65535 (got "${raw}")`);
  return n;
}

/** Runs `close` once on SIGINT/SIGTERM, then exits. */
export function closeOnSignals(close: () => Promise<void>): void {
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
