/**
 * A keyboard-style card reader types a swipe as keystrokes: track 1 (`%…?`), track 2 (`;…?`),
 * often an Enter after. This follows those keystrokes in the card form so the swipe is read as
 * one card instead of landing digit by digit in whichever field has the focus.
 *
 * Simplification: a swipe is known by its start sentinels (`%`, `;`), never by how fast keys
 * come, so a reader set to type bare digits is not told apart from a person (the card form
 * treats a digit typed into a full number field as a new card instead).
 */
export interface SwipeKeys {
  /** The track typed so far, null when no swipe is under way. */
  buffer: string | null;
  /** A track just ended: the reader's own Enter after it is not the cashier's. */
  justEnded: boolean;
}

export interface SwipeStep {
  next: SwipeKeys;
  /** The key belongs to the swipe: it must not reach the field (nor submit the form). */
  swallow: boolean;
  /** A whole track (or what came before an Enter) to read now. */
  track: string | null;
}

export const NO_SWIPE: SwipeKeys = { buffer: null, justEnded: false };

/** The track data field holds at most this much (transaction-fields track_data). */
const MAX_TRACK = 256;

export function swipeKey(s: SwipeKeys, key: string): SwipeStep {
  if (s.buffer === null) {
    if (key === '%' || key === ';') return { next: { buffer: key, justEnded: false }, swallow: true, track: null };
    if (key === 'Enter' && s.justEnded) return { next: NO_SWIPE, swallow: true, track: null };
    // Modifier keys (the reader's Shift) between two tracks keep the swipe's end in mind.
    return { next: key.length === 1 || key === 'Enter' ? NO_SWIPE : s, swallow: false, track: null };
  }
  if (key === 'Escape') return { next: NO_SWIPE, swallow: true, track: null };
  if (key === 'Enter') return { next: NO_SWIPE, swallow: true, track: s.buffer };
  if (key.length !== 1) return { next: s, swallow: true, track: null };
  const buffer = s.buffer + key;
  if (key === '?' || buffer.length >= MAX_TRACK) return { next: { buffer: null, justEnded: true }, swallow: true, track: buffer };
  return { next: { buffer, justEnded: false }, swallow: true, track: null };
}
