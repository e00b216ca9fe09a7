/** A pair of connected pseudo-terminals from socat: a real serial line for device tests. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface PtyPair {
  a: string;
  b: string;
  close(): Promise<void>;
}

export function socatPair(): Promise<PtyPair> {
  return new Promise((resolve, reject) => {
    const proc: ChildProcess = spawn('socat', ['-d', '-d', 'pty,raw,echo=0', 'pty,raw,echo=0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    const paths: string[] = [];
    let err = '';
    proc.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      for (const m of d.toString().matchAll(/PTY is (\S+)/g)) paths.push(m[1] as string);
      if (paths.length === 2 && err.includes('starting data transfer loop')) {
        resolve({
          a: paths[0] as string,
          b: paths[1] as string,
          close: () =>
            new Promise<void>((r) => {
              if (proc.exitCode !== null) return r();
              proc.once('exit', () => r());
              proc.kill('SIGTERM');
            }),
        });
      }
    });
    proc.once('exit', (code) => reject(new Error(`socat exited (${code}): ${err}`)));
  });
}
