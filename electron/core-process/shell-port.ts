/**
 * The one narrow port through which Electron main offers the core process what only main can
 * do: print (the window's print dialog or a PDF), open a page in the system browser, and keep
 * the core's secrets with safeStorage (the OS keychain). Nothing else crosses it: the core asks,
 * main answers, and main never calls the core through it.
 *
 * Both ends live here so the port has one declaration: `ShellCalls` names each operation with
 * its arguments and its answer; main serves them (`serveShellPort`, over the ShellPort it
 * implements), the core turns them back into what it has always been given — CoreOptions'
 * printReceipt / printReport / openExternal and a SecretStore (`shellPortClient`). The port
 * runs over the core process's own message channel (core-protocol.ts) as `shell` / `shell-answer`
 * messages: a second MessagePort would add a transfer step and nothing a process boundary
 * does not already give. The node host offers nothing on it (no printing; its keys are files
 * the core process keeps itself).
 *
 * Main checks what the core asks before acting (types, the paper, a web address for the
 * browser, a secret's name): a core gone wrong reaches no more of main than these six calls.
 */
import { PAPER_SIZES, type PaperSize } from '../../shared/ipc/contract';
import { assertSecretName, isSecretName, type SecretStore } from '../secrets/secret-store';

/** What main implements. Each member is optional: a shell offers what it has. */
export interface ShellPort {
  printReceipt?: (transactionId: string) => Promise<string | null>;
  printReport?: (name: string, paper: PaperSize) => Promise<string | null>;
  openExternal?: (url: string) => Promise<void>;
  secrets?: SecretStore;
}

/** Each operation: [its arguments, its answer]. Secrets cross as bytes (structured clone), never as text. */
export interface ShellCalls {
  printReceipt: [[transactionId: string], string | null];
  printReport: [[name: string, paper: PaperSize], string | null];
  openExternal: [[url: string], void];
  secretGet: [[name: string], Uint8Array | null];
  secretSet: [[name: string, value: Uint8Array], void];
  secretDelete: [[name: string], void];
}
export type ShellOp = keyof ShellCalls;

/** What a shell offers, told to the core at start (the `start` message). */
export interface ShellOffer {
  printReceipt: boolean;
  printReport: boolean;
  openExternal: boolean;
  /** The secret store's backend name (diagnostics), when main keeps the secrets. */
  secretsBackend: string | null;
}

export type ShellRequest = { [K in ShellOp]: { type: 'shell'; id: number; op: K; args: ShellCalls[K][0] } }[ShellOp];
export type ShellAnswer = { type: 'shell-answer'; id: number; ok: true; value: unknown } | { type: 'shell-answer'; id: number; ok: false; message: string };

export const SHELL_PORT_ERRORS = {
  notOffered: 'The shell does not offer "{op}".',
  badRequest: 'The shell refused a malformed "{op}" request.',
  closed: 'The shell port is closed.',
} as const;

export const NO_SHELL: ShellOffer = { printReceipt: false, printReport: false, openExternal: false, secretsBackend: null };

export function offerOf(port: ShellPort): ShellOffer {
  return { printReceipt: !!port.printReceipt, printReport: !!port.printReport, openExternal: !!port.openExternal, secretsBackend: port.secrets?.backend ?? null };
}

const isText = (v: unknown, max = 4096): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;
const isBytes = (v: unknown): v is Uint8Array => v instanceof Uint8Array && v.byteLength <= 64 * 1024;

/** The request's arguments, checked; null when they are not what the operation takes. */
function checked(req: ShellRequest): ShellRequest | null {
  const a = req.args as unknown[];
  if (!Array.isArray(a)) return null;
  switch (req.op) {
    case 'printReceipt':
      return a.length === 1 && isText(a[0], 200) ? req : null;
    case 'printReport':
      return a.length === 2 && isText(a[0], 200) && (PAPER_SIZES as readonly unknown[]).includes(a[1]) ? req : null;
    case 'openExternal':
      // Only a web page (the gateway's OAuth login): never file:, a custom scheme or a program.
      return a.length === 1 && isText(a[0]) && /^https?:\/\//i.test(a[0]) ? req : null;
    case 'secretGet':
    case 'secretDelete':
      return a.length === 1 && typeof a[0] === 'string' && isSecretName(a[0]) ? req : null;
    case 'secretSet':
      return a.length === 2 && typeof a[0] === 'string' && isSecretName(a[0]) && isBytes(a[1]) ? req : null;
  }
}

/** Main's end: runs one request against what main offers and answers it (errors are answers too). */
export async function serveShellPort(port: ShellPort, req: ShellRequest): Promise<ShellAnswer> {
  const id = req.id;
  const refuse = (template: string): ShellAnswer => ({ type: 'shell-answer', id, ok: false, message: template.replace('{op}', String(req.op)) });
  const r = checked(req);
  if (!r) return refuse(SHELL_PORT_ERRORS.badRequest);
  try {
    let value: unknown;
    switch (r.op) {
      case 'printReceipt':
        if (!port.printReceipt) return refuse(SHELL_PORT_ERRORS.notOffered);
        value = await port.printReceipt(...r.args);
        break;
      case 'printReport':
        if (!port.printReport) return refuse(SHELL_PORT_ERRORS.notOffered);
        value = await port.printReport(...r.args);
        break;
      case 'openExternal':
        if (!port.openExternal) return refuse(SHELL_PORT_ERRORS.notOffered);
        await port.openExternal(...r.args);
        value = undefined;
        break;
      case 'secretGet': {
        if (!port.secrets) return refuse(SHELL_PORT_ERRORS.notOffered);
        const b = await port.secrets.get(r.args[0]);
        value = b ? new Uint8Array(b) : null;
        break;
      }
      case 'secretSet':
        if (!port.secrets) return refuse(SHELL_PORT_ERRORS.notOffered);
        await port.secrets.set(r.args[0], Buffer.from(r.args[1]));
        value = undefined;
        break;
      case 'secretDelete':
        if (!port.secrets) return refuse(SHELL_PORT_ERRORS.notOffered);
        await port.secrets.delete(r.args[0]);
        value = undefined;
        break;
    }
    return { type: 'shell-answer', id, ok: true, value };
  } catch (err) {
    // The reason, never the secret: no argument is echoed back.
    return { type: 'shell-answer', id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

/** What the core is given from the port: today's CoreOptions callbacks and secret store, for what main offers. */
export interface ShellPortClient {
  printReceipt?: (transactionId: string) => Promise<string | null>;
  printReport?: (name: string, paper: PaperSize) => Promise<string | null>;
  openExternal?: (url: string) => Promise<void>;
  secrets?: SecretStore;
  /** Hand every `shell-answer` from main here. */
  answer(msg: ShellAnswer): void;
  /** Main is gone: whatever waits fails. */
  close(): void;
}

/** The core's end: calls over `send`, answered through `answer()`. */
export function shellPortClient(offer: ShellOffer, send: (req: ShellRequest) => void): ShellPortClient {
  let nextId = 1;
  let closed = false;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  function call<K extends ShellOp>(op: K, ...args: ShellCalls[K][0]): Promise<ShellCalls[K][1]> {
    if (closed) return Promise.reject(new Error(SHELL_PORT_ERRORS.closed));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      send({ type: 'shell', id, op, args } as ShellRequest);
    });
  }
  const backend = offer.secretsBackend;
  const secrets: SecretStore | undefined = backend
    ? {
        backend,
        get: async (name) => {
          assertSecretName(name);
          const v = await call('secretGet', name);
          return v ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : null;
        },
        set: async (name, value) => {
          assertSecretName(name);
          await call('secretSet', name, new Uint8Array(value));
        },
        delete: async (name) => {
          assertSecretName(name);
          await call('secretDelete', name);
        },
      }
    : undefined;
  return {
    ...(offer.printReceipt ? { printReceipt: (id: string) => call('printReceipt', id) } : {}),
    ...(offer.printReport ? { printReport: (name: string, paper: PaperSize) => call('printReport', name, paper) } : {}),
    ...(offer.openExternal ? { openExternal: (url: string) => call('openExternal', url) } : {}),
    ...(secrets ? { secrets } : {}),
    answer(msg) {
      const p = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (!p) return;
      if (msg.ok) p.resolve(msg.value);
      else p.reject(new Error(msg.message));
    },
    close() {
      closed = true;
      for (const p of waiting.values()) p.reject(new Error(SHELL_PORT_ERRORS.closed));
      waiting.clear();
    },
  };
}
