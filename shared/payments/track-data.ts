/**
 * A card's magnetic stripe as a reader reports it (GATEWAY-FACTS, track_data): track 1
 * `%B<pan>^<SURNAME/GIVEN>^<YYMM><service code>...?`, track 2 `;<pan>=<YYMM><service code>...?`;
 * a swipe may carry both (track 1 first). One reader for the engine (a sale's track_data) and
 * the counter's card field (a keyboard-style reader types the same text). Nothing here keeps it.
 */
export interface TrackCard {
  number: string;
  /** MMYY, as exp_date is sent. */
  expDate: string;
  /** Track 1's name field as read (surname first), null from track 2 alone. */
  rawName: string | null;
}

const TRACK1 = /%B(\d{12,19})\^([^^]{0,26})\^(\d{2})(\d{2})[^?]*\?/;
const TRACK2 = /;(\d{12,19})=(\d{2})(\d{2})[^?]*\?/;

/** The card on the tracks, or null when none is readable or the two tracks disagree. */
export function readTracks(text: string): TrackCard | null {
  const t1 = TRACK1.exec(text);
  const t2 = TRACK2.exec(text);
  if (!t1 && !t2) return null;
  if (t1 && t2 && (t1[1] !== t2[1] || t1[3] !== t2[2] || t1[4] !== t2[3])) return null;
  if (t1) return { number: t1[1] as string, expDate: `${t1[4]}${t1[3]}`, rawName: t1[2] as string };
  const m = t2 as RegExpExecArray;
  return { number: m[1] as string, expDate: `${m[3]}${m[2]}`, rawName: null };
}
