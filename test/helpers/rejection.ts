/**
 * The error a promise rejects with, for tests that read its fields (code, status, message)
 * after checking its class; `expect(p).rejects` checks the class but does not hand it over.
 */
import { expect } from 'vitest';

/** Awaits `p`, which must reject with a `kind`; answers that error (the test fails when `p` resolves). */
export async function rejectionOf<E extends Error>(p: Promise<unknown>, kind: abstract new (...args: never[]) => E): Promise<E> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(kind);
    return e as E;
  }
  throw new Error(`expected a ${kind.name}`);
}
