/**
 * The store screens' words (issue 24): how long since a register last reached the store server,
 * what it still has to send, the card check of the store's report, the names of the registers a
 * store day waits for, and the status bar's store slot.
 */
import { describe, expect, it } from 'vitest';
import { syncAgeWords, waitingWords } from '../../renderer/src/store/sync-age';
import { cardCheckWords, namesInWords } from '../../renderer/src/store/store-report-words';
import { STORE_STATUS_NONE, storeStatusWords } from '../../shared/ipc/contract';

const NOW = 1_700_000_000_000;

describe('store screen words', () => {
  it('says how long ago a register last synced, in the units a person reads', () => {
    expect(syncAgeWords(null, NOW)).toBe('not yet');
    expect(syncAgeWords(NOW - 4_999, NOW)).toBe('just now');
    // Another machine's clock a little ahead: never "-2 s ago".
    expect(syncAgeWords(NOW + 2_000, NOW)).toBe('just now');
    expect(syncAgeWords(NOW - 12_400, NOW)).toBe('12 s ago');
    expect(syncAgeWords(NOW - 59_999, NOW)).toBe('59 s ago');
    expect(syncAgeWords(NOW - 60_000, NOW)).toBe('1 min ago');
    expect(syncAgeWords(NOW - 61 * 60_000, NOW)).toBe('1 h ago');
    expect(syncAgeWords(NOW - 47 * 3_600_000, NOW)).toBe('47 h ago');
    expect(syncAgeWords(NOW - 72 * 3_600_000, NOW)).toBe('3 days ago');
  });

  it('counts changes waiting, one and many', () => {
    expect(waitingWords(0)).toBe('nothing waiting');
    expect(waitingWords(1)).toBe('1 change waiting');
    expect(waitingWords(1234)).toBe('1,234 changes waiting');
  });

  it('says whether the card tenders match the gateway, by how much not, or why not checked', () => {
    expect(cardCheckWords({ tendersCents: 12_345, gatewayCents: 12_345, matches: true })).toEqual({ text: "Card tenders $123.45 — gateway's records $123.45: match.", tone: 'ok' });
    const off = cardCheckWords({ tendersCents: 12_345, gatewayCents: 12_000, matches: false });
    expect(off.tone).toBe('error');
    expect(off.text).toContain('they differ by $3.45');
    expect(cardCheckWords({ tendersCents: 500, gatewayCents: null, matches: null })).toEqual({ text: "Card tenders $5.00 — not checked: this register does not use the store's gateway.", tone: 'info' });
  });

  it('names registers as a sentence does', () => {
    expect(namesInWords([])).toBe('');
    expect(namesInWords(['Front'])).toBe('Front');
    expect(namesInWords(['Front', 'Back'])).toBe('Front and Back');
    expect(namesInWords(['Front', 'Back', 'Tablet'])).toBe('Front, Back and Tablet');
  });

  it('status bar: nothing in no store; connected, sending, away with changes waiting, removed', () => {
    const joined = { ...STORE_STATUS_NONE, joined: true, registerId: 'r1', registerName: 'Front', address: 'https://10.0.0.2:7443' };
    expect(storeStatusWords(STORE_STATUS_NONE)).toBeNull();
    expect(storeStatusWords({ ...joined, connection: 'connected' })).toBe('Store: connected');
    expect(storeStatusWords({ ...joined, connection: 'connected', waiting: 3 })).toBe('Store: connected, sending 3');
    expect(storeStatusWords({ ...joined, connection: 'away', waiting: 12 })).toBe('Store: away, 12 changes waiting');
    expect(storeStatusWords({ ...joined, connection: 'away', waiting: 1 })).toBe('Store: away, 1 change waiting');
    expect(storeStatusWords({ ...joined, connection: 'removed' })).toBe('Store: this register was removed');
  });
});
