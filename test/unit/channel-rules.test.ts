/**
 * Issue 22, points 1 and 2: every channel declares who may call it and what it audits, and
 * one wrapper enforces both (electron/ipc/channel-rules.ts). Generated from the declarations:
 *   - every channel × every role (manager, cashier, installer, signed out) goes through the real
 *     wrapper over a map of stubs and is answered as its declaration says — the stub reached, or
 *     `unauthenticated` / `forbidden` without it — through the dispatcher too, before the
 *     argument is looked at;
 *   - a hand-written table of the sensitive ones, so a wrong declaration fails as well;
 *   - a channel that moves money or changes settings, users, devices, the catalogue, keys, saved
 *     cards or recurrings without an audit kind fails, as does an audit kind without a recorder,
 *     and a channel whose name says it acts (charge, refund, save …) declared as a read.
 * A new channel cannot forget its rule or its audit: this file fails until it declares them.
 */
import { describe, expect, it } from 'vitest';
import { createRecorders, type AuditLine, type AuditRecorders } from '../../electron/core/audit/recorders';
import type { AuditRecord } from '../../electron/core/audit/audit-log';
import { AUTH_ERRORS } from '../../electron/core/auth/users';
import { REGISTER_COPY_MESSAGE } from '../../electron/core/queue/register-binding';
import { LOCAL_CALLER, runAsCaller } from '../../electron/ipc/caller-context';
import { admissionOf, enforceChannelRules, INSTALLER_CHANNELS, noteMoney, REGISTER_COPY_CHANNELS } from '../../electron/ipc/channel-rules';
import { createDispatcher } from '../../electron/ipc/dispatcher';
import { AUDIT_KINDS, AUDITED_EFFECTS, channelAccess, channelAudit, channelDeclarations, channels, type Channel, type HandlerMap, type Role, type Session } from '../../shared/ipc/contract';
import { DEFAULT_STORE_SETTINGS } from '../../shared/ipc/settings';
import { DEFAULT_CART_RULES } from '../../shared/ipc/catalogue';
import { fail, ok, type Result } from '../../shared/result';

type Who = Role | 'signed out';
const WHO: readonly Who[] = ['manager', 'cashier', 'installer', 'signed out'];

const sessionOf = (role: Role): Session => ({ user: { id: `u-${role}`, name: role === 'manager' ? 'Morgan' : role === 'cashier' ? 'Casey' : 'Jordan', role }, signedInAt: 0 });

/** A stub for every channel that says it was reached; `answer` overrides what one answers. */
function stubs(answer: Partial<Record<Channel, (arg: unknown) => Promise<Result<unknown>>>> = {}) {
  const reached: Channel[] = [];
  const map = Object.fromEntries(
    channels.map((c) => [
      c,
      async (arg: unknown) => {
        reached.push(c);
        return answer[c] ? answer[c]!(arg) : ok(null);
      },
    ]),
  ) as unknown as HandlerMap;
  return { map, reached };
}

/** Recorders that write one line of the channel's first declared kind per successful call (the real ones read real answers). */
const echoRecorders: AuditRecorders = {
  channels: new Proxy({} as AuditRecorders['channels'], {
    get: (_t, c: string) => ({ record: () => [{ kind: (channelAudit[c as Channel] as { kinds: readonly string[] }).kinds[0], detail: c } as AuditLine] }),
  }),
  moves: (moves) => moves.map((m) => ({ kind: 'sale', detail: `moved by ${m.service}` })),
};

function rig(who: Who, opts: { copiedFolder?: boolean; answer?: Parameters<typeof stubs>[0] } = {}) {
  const session = who === 'signed out' ? null : sessionOf(who);
  const written: AuditRecord[] = [];
  const s = stubs(opts.answer);
  const handlers = enforceChannelRules(s.map, {
    users: { require: () => (session ? ok(session) : fail('unauthenticated', AUTH_ERRORS.signedOut)), peek: () => session },
    audit: { record: (r) => written.push(r) },
    recorders: echoRecorders,
    copiedFolder: opts.copiedFolder ?? false,
  });
  return { handlers, reached: s.reached, written };
}

/** What the declaration says `who` gets from `channel`. */
function expected(channel: Channel, who: Who): 'allowed' | 'unauthenticated' | 'forbidden' {
  const access = channelAccess[channel];
  if (access === 'before-sign-in') return 'allowed';
  if (who === 'signed out') return 'unauthenticated';
  if (access === 'signed-in') return 'allowed';
  return access.includes(who) ? 'allowed' : 'forbidden';
}

describe('every channel × every role, through the one wrapper', () => {
  for (const who of WHO) {
    it(`${who}: each channel answers as its declaration says, and a refused one never reaches its handler`, async () => {
      const { handlers, reached, written } = rig(who);
      const got: Record<string, string> = {};
      const want: Record<string, string> = {};
      for (const c of channels) {
        reached.length = 0;
        const r = await (handlers[c] as (a: unknown) => Promise<Result<unknown>>)(undefined);
        got[c] = r.ok ? (reached.includes(c) ? 'allowed' : 'answered without its handler') : reached.includes(c) ? `${r.error.code} after its handler ran` : r.error.code;
        want[c] = expected(c, who);
        if (!r.ok && r.error.code === 'forbidden') {
          // In the words the handlers used: an installer is told what an installer does; others who may.
          const access = channelAccess[c] as readonly Role[];
          const words = who === 'installer' ? AUTH_ERRORS.installerScope : access.includes('installer') ? AUTH_ERRORS.setupOnly : AUTH_ERRORS.managerOnly;
          expect(r.error.message, c).toBe(words);
        }
        if (!r.ok && r.error.code === 'unauthenticated') expect(r.error.message, c).toBe(AUTH_ERRORS.signedOut);
      }
      expect(got).toEqual(want);
      // Only the allowed, audited channels wrote, one line each, of a kind they declare.
      const audited = channels.filter((c) => want[c] === 'allowed' && channelAudit[c] !== 'none');
      expect(written.map((w) => w.detail)).toEqual(audited);
    });
  }

  it('the dispatcher asks the same rule before it parses the argument: a refused caller learns nothing of its shape', async () => {
    for (const who of WHO) {
      const { handlers, reached } = rig(who);
      expect(admissionOf(handlers)).toBeTypeOf('function');
      const dispatch = createDispatcher(handlers, { allowedOrigins: ['app://ringup'] });
      for (const c of channels) {
        const r = await dispatch(c, { url: 'app://ringup/index.html', isMainFrame: true, callerId: 'wc-1' }, { not: 'the shape of any argument', card: { number: 'x' } });
        const want = expected(c, who);
        // A wrong argument is refused by its schema only once the caller may call the channel (a void one accepts nothing but nothing).
        if (want === 'allowed') expect(r.ok ? 'ok' : r.error.code, c).toBe('bad_request');
        else expect(r.ok ? 'ok' : r.error.code, c).toBe(want);
      }
      expect(reached).toEqual([]);
    }
  });

  it('a copied data folder answers only the channels declared to, before any role check', async () => {
    const { handlers, reached } = rig('manager', { copiedFolder: true });
    for (const c of channels) {
      const r = await (handlers[c] as (a: unknown) => Promise<Result<unknown>>)(undefined);
      if (REGISTER_COPY_CHANNELS.has(c)) expect(r.ok, c).toBe(true);
      else expect(r, c).toEqual({ ok: false, error: { code: 'register_copy', message: REGISTER_COPY_MESSAGE } });
    }
    expect(new Set(reached)).toEqual(REGISTER_COPY_CHANNELS);
  });
});

describe('the sensitive ones, by hand (a wrong declaration fails here too)', () => {
  const table: Array<[Channel, Who, 'allowed' | 'unauthenticated' | 'forbidden']> = [
    ['batches:settle', 'cashier', 'forbidden'],
    ['batches:settle', 'manager', 'allowed'],
    ['reports:z', 'cashier', 'forbidden'],
    ['reports:x', 'cashier', 'forbidden'],
    ['sale:charge', 'installer', 'forbidden'],
    ['cart:pay-cash', 'installer', 'forbidden'],
    ['vault:charge', 'installer', 'forbidden'],
    ['devices:terminal-sale', 'installer', 'forbidden'],
    ['devices:check-pay', 'installer', 'forbidden'],
    ['sale:charge', 'cashier', 'allowed'],
    ['cart:pay-cash', 'cashier', 'allowed'],
    // A cashier's refund and void reach the handler: there a manager's PIN may approve them.
    ['transactions:refund', 'cashier', 'allowed'],
    ['transactions:void', 'cashier', 'allowed'],
    ['cart:refund-lines', 'cashier', 'forbidden'],
    ['transactions:today', 'signed out', 'unauthenticated'],
    ['transactions:search', 'signed out', 'unauthenticated'],
    ['cart:sales', 'signed out', 'unauthenticated'],
    ['catalogue:list', 'signed out', 'unauthenticated'],
    ['audit:list', 'cashier', 'forbidden'],
    ['audit:list', 'installer', 'forbidden'],
    ['users:add', 'cashier', 'forbidden'],
    ['users:list', 'cashier', 'forbidden'],
    ['settings:update', 'cashier', 'forbidden'],
    ['settings:get', 'installer', 'allowed'],
    ['settings:get', 'signed out', 'unauthenticated'],
    ['keys:export', 'cashier', 'forbidden'],
    ['keys:restore', 'installer', 'forbidden'],
    ['gateway:save', 'cashier', 'forbidden'],
    ['catalogue:import-csv', 'cashier', 'forbidden'],
    ['vault:add-card', 'cashier', 'forbidden'],
    ['vault:delete', 'cashier', 'forbidden'],
    ['recurring:create', 'cashier', 'forbidden'],
    ['devices:terminal-save', 'installer', 'allowed'],
    ['devices:terminal-save', 'cashier', 'forbidden'],
    ['devices:scanner-save', 'manager', 'allowed'],
    ['devices:installer-data', 'cashier', 'forbidden'],
    ['auth:sign-in', 'signed out', 'allowed'],
    ['auth:users', 'signed out', 'allowed'],
    ['core:status', 'signed out', 'allowed'],
    ['gateway:first-run-choose', 'signed out', 'allowed'],
    ['auth:change-pin', 'signed out', 'unauthenticated'],
    ['queue:status', 'installer', 'allowed'],
    ['queue:forward-now', 'cashier', 'forbidden'],
    // The customer display's page never signs in (issue 23, point 4): it reads the display and picks a tip offered, nothing else.
    ['display:current', 'signed out', 'allowed'],
    ['display:pick-tip', 'signed out', 'allowed'],
  ];
  it.each(table)('%s for %s: %s', async (channel, who, want) => {
    expect(expected(channel, who), 'the declaration').toBe(want);
    const { handlers, reached } = rig(who);
    const r = await (handlers[channel] as (a: unknown) => Promise<Result<unknown>>)(undefined);
    expect(r.ok ? 'allowed' : r.error.code).toBe(want);
    expect(reached.includes(channel)).toBe(want === 'allowed');
  });

  it("an installer's channels are the sign-in, the shell's and the device set-up, as before; a copied folder's, the shell's and the key backup", () => {
    expect([...INSTALLER_CHANNELS].sort()).toEqual(
      [
        'core:status',
        'gateway:check',
        'auth:users',
        'auth:session',
        'auth:sign-in',
        'auth:sign-out',
        'auth:change-pin',
        'auth:activity',
        'settings:get',
        'queue:status',
        'gateway:first-run',
        'gateway:first-run-choose',
        'devices:terminal-status',
        'devices:installer-data',
        'devices:terminal-save',
        'devices:terminal-test',
        'devices:terminal-terms',
        'devices:terminal-certificate',
        'devices:scanner-save',
        'devices:scanner-test',
        'devices:serial-ports',
        // Open to any caller, signed in or not: the customer display.
        'display:current',
        'display:pick-tip',
        // Serial barcode scanners (issue 23, point 5): set up on Devices like the check scanner.
        'barcode:scanners',
        'barcode:save',
        'barcode:remove',
        'barcode:test',
        'printers:list',
        'printers:save',
        'printers:remove',
        'printers:test-print',
        'printers:status',
        // The store's part of the status bar (issue 24): every signed-in user sees whether the store server is there.
        'store:status',
      ].sort(),
    );
    expect([...REGISTER_COPY_CHANNELS].sort()).toEqual(
      ['core:status', 'gateway:check', 'auth:users', 'auth:session', 'auth:sign-in', 'auth:sign-out', 'auth:change-pin', 'auth:activity', 'settings:get', 'queue:status', 'keys:backups', 'keys:export'].sort(),
    );
  });
});

describe('what each channel audits', () => {
  const recorders = createRecorders({ users: { list: () => [], isLockedOut: () => false }, settings: () => DEFAULT_STORE_SETTINGS, cartRules: () => DEFAULT_CART_RULES, queueItem: () => null });

  it('every channel that moves money or changes settings, users, devices, the catalogue, keys, saved cards or recurrings declares an audit kind', () => {
    const missing = channels.filter((c) => AUDITED_EFFECTS.includes(channelDeclarations[c].effect) && channelAudit[c] === 'none');
    expect(missing).toEqual([]);
  });

  it('every audit kind declared is a kind of the log, and every audited channel has a recorder (only the sign-in channels leave the writing to their service)', () => {
    for (const c of channels) {
      const audit = channelAudit[c];
      if (audit === 'none') continue;
      expect(audit.kinds.length, c).toBeGreaterThan(0);
      for (const k of audit.kinds) expect(AUDIT_KINDS, c).toContain(k);
      const recorder = (recorders.channels as Record<string, { record?: unknown; writtenBy?: string } | undefined>)[c];
      expect(recorder?.record, `${c} has no recorder`).toBeTypeOf('function');
      if (recorder?.writtenBy) expect(['auth:sign-in', 'auth:sign-out', 'auth:change-pin'], c).toContain(c);
    }
    // And no recorder for a channel that declares none.
    for (const c of Object.keys(recorders.channels)) expect(channelAudit[c as Channel], c).not.toBe('none');
  });

  it('a channel whose name says it acts is not declared a read', () => {
    const ACTS = /^(charge|refund|void|save|import|delete|add|remove|settle|close|pay|set|update|create|act|choose|restore|export|sign|forward|resolve|collect|cancel|approve|comp|clear|adjust|resend|finish|put|adopt)$/;
    const reads = channels.filter((c) => channelDeclarations[c].effect === 'read' && (c.split(':')[1] ?? '').split('-').some((w) => ACTS.test(w)));
    expect(reads).toEqual([]);
  });

  it('a refused call and a failed call write nothing; money a service moved during a failed call is written all the same', async () => {
    const refused = rig('cashier');
    expect((await refused.handlers['batches:settle']({ batchId: 'b1' })).ok).toBe(false);
    expect(refused.written).toEqual([]);

    const failing = rig('cashier', {
      answer: {
        'transactions:refund': async () => fail('gateway', 'The gateway refused it.'),
        // A cancel that gave one card back and then failed on the next.
        'cart:cancel': async () => {
          await noteMoney('transactions:void', { id: 't1' }, async () => ok({ id: 't1' } as never));
          return fail('gateway', 'Some card payments could not be given back yet.');
        },
      },
    });
    expect((await failing.handlers['transactions:refund']({ id: 't1', amountCents: 100 })).ok).toBe(false);
    expect(failing.written).toEqual([]);
    expect((await failing.handlers['cart:cancel']({ confirmed: true })).ok).toBe(false);
    expect(failing.written.map((w) => w.detail)).toEqual(['moved by transactions:void']);
  });

  it('who: the caller as admitted, even if the session ends while the handler runs', async () => {
    let session: Session | null = sessionOf('cashier');
    const written: AuditRecord[] = [];
    const s = stubs({
      'sale:charge': async () => {
        session = null; // an idle lock during a slow charge
        return ok(null);
      },
    });
    const handlers = enforceChannelRules(s.map, {
      users: { require: () => (session ? ok(session) : fail('unauthenticated', AUTH_ERRORS.signedOut)), peek: () => session },
      audit: { record: (r) => written.push(r) },
      recorders: echoRecorders,
      copiedFolder: false,
    });
    await runAsCaller(LOCAL_CALLER, () => handlers['sale:charge']({} as never));
    expect(written).toMatchObject([{ kind: 'sale', user: { id: 'u-cashier', name: 'Casey' } }]);
  });
});
