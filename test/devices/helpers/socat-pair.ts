/** A pair of connected pseudo-terminals from socat: a real serial line for device tests. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface PtyPair {
  a: string;
  b: string;
  close(): Promise<void>;
}

/**
 * `linkA`: also make this path a symbolic link to end a (socat's `link=`), as /dev/serial/by-id/…
 * links a USB adapter: a pair made again with the same linkA is the device plugged back in at the
 * same path (the link goes when socat ends: the device unplugged).
 */
export function socatPair(opts: { linkA?: string } = {}): Promise<PtyPair> {
  return new Promise((resolve, reject) => {
    const a = opts.linkA ? `pty,raw,echo=0,link=${opts.linkA}` : 'pty,raw,echo=0';
    const proc: ChildProcess = spawn('socat', ['-d', '-d', a, 'pty,raw,echo=0'], { stdio: ['ignore', 'ignore', 'pipe'] });
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
