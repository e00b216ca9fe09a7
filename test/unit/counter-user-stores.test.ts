/**
 * One person's work never reaches the next: every renderer store either registers
 * with the reset (createUserStore) or is declared counter-wide — a new store that does
 * neither fails here. And the settings form reads what a manager types into
 * StoreSettings with the shared schema's messages.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COUNTER_WIDE_STORES, createUserStore, resetUserStores, useResetEpoch, userEpoch } from '../../renderer/src/auth/user-store';
import { bpToPercentText, fromForm, percentTextToBp, SETTINGS_FORM_MESSAGES, toForm } from '../../renderer/src/settings/settings-form';
import { DEFAULT_STORE_SETTINGS } from '../../shared/ipc/contract';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The renderer's stores live in their domain folders (renderer/src/<domain>/<name>-store.ts). */
const RENDERER = join(ROOT, 'renderer', 'src');
const storeFiles = () => (readdirSync(RENDERER, { recursive: true }) as string[]).filter((f) => f.endsWith('-store.ts'));

describe('user stores', () => {
  it('every store file registers with the reset or is declared counter-wide', () => {
    const paths = storeFiles();
    const files = paths.map((f) => basename(f));
    expect(files.length).toBeGreaterThan(4);
    const offenders = paths.filter((p) => {
      if ((COUNTER_WIDE_STORES as readonly string[]).includes(basename(p))) return false;
      const src = readFileSync(join(RENDERER, p), 'utf8');
      return !/createUserStore</.test(src) || /from 'zustand'/.test(src);
    });
    expect(offenders).toEqual([]);
    // The user stores this work is about are not declared counter-wide.
    for (const f of ['sale-store.ts', 'transactions-store.ts', 'nav-store.ts', 'audit-store.ts']) expect(files).toContain(f);
  });

  it('resetUserStores re-runs every registered store\'s init, so each fresh state is new (ids too), and bumps the epoch', () => {
    let made = 0;
    // A store whose fresh state carries an id made at init, as the sale's clientRef (transaction_api_id) is.
    const a = createUserStore<{ n: number; text: string; ref: string; bump(): void }>((set) => ({ n: 0, text: '', ref: `ref-${++made}`, bump: () => set((s) => ({ n: s.n + 1 })) }));
    const b = createUserStore<{ open: boolean }>(() => ({ open: false }));
    const firstRef = a.getState().ref;
    a.getState().bump();
    a.setState({ text: 'half-typed' });
    b.setState({ open: true });
    const before = userEpoch();
    resetUserStores();
    expect(a.getState()).toMatchObject({ n: 0, text: '' });
    // Not the first snapshot: the next person's sale must never re-send the last person's transaction_api_id.
    expect(a.getState().ref).not.toBe(firstRef);
    expect(b.getState().open).toBe(false);
    expect(useResetEpoch.getState().epoch).toBe(before + 1);
    a.getState().bump(); // actions still work after a reset
    expect(a.getState().n).toBe(1);
    const secondRef = a.getState().ref;
    resetUserStores();
    expect(a.getState().ref).not.toBe(secondRef);
  });
});

describe('settings form', () => {
  it('round-trips the defaults', () => {
    expect(fromForm(toForm(DEFAULT_STORE_SETTINGS))).toEqual({ settings: DEFAULT_STORE_SETTINGS, errors: {} });
  });

  it('reads percents and dollars textually', () => {
    expect(percentTextToBp('8.25')).toBe(825);
    expect(percentTextToBp('8.5')).toBe(850);
    expect(percentTextToBp('8')).toBe(800);
    expect(percentTextToBp('8.255')).toBeNull();
    expect(percentTextToBp('-1')).toBeNull();
    expect(bpToPercentText(825)).toBe('8.25');
    expect(bpToPercentText(850)).toBe('8.5');
    expect(bpToPercentText(0)).toBe('0');
    const r = fromForm({ ...toForm(DEFAULT_STORE_SETTINGS), taxRatePercent: '7.125', confirmAbove: '500.10', hardCap: '9999.99' });
    expect(r.errors).toEqual({ taxRatePercent: SETTINGS_FORM_MESSAGES.taxRate });
    const ok = fromForm({ ...toForm(DEFAULT_STORE_SETTINGS), confirmAbove: '500.10', hardCap: '9,999.99' });
    expect(ok.settings).toMatchObject({ confirmAboveCents: 50_010, hardCapCents: 999_999 });
  });

  it('gives one plain message per field, from the shared schema', () => {
    const r = fromForm({
      ...toForm(DEFAULT_STORE_SETTINGS),
      storeName: '   ',
      tip2: '150',
      tip3: 'x',
      idleLockMinutes: '0',
      taxRatePercent: '45',
      storePhone: 'call me',
    });
    expect(r.settings).toBeNull();
    expect(r.errors).toEqual({
      storeName: 'Enter the store name.',
      tip2: 'A tip percent is at most 100.',
      tip3: SETTINGS_FORM_MESSAGES.wholeNumber,
      idleLockMinutes: 'The idle lock is at least 1 minute.',
      taxRatePercent: 'A sales tax rate is at most 30 %.',
      storePhone: 'A phone number has digits, spaces and + ( ) . - only.',
    });
    const cap = fromForm({ ...toForm(DEFAULT_STORE_SETTINGS), confirmAbove: '500.00', hardCap: '100.00' });
    expect(cap.errors).toEqual({ confirmAbove: 'The confirmation threshold must not be above the hard cap.' });
  });
});
