/**
 * Decoding an SSO link's payload: `data` is the hex of the JSON text; `e_data` is the hex
 * of a 16-byte IV followed by AES-256-CBC ciphertext (PKCS7 padding) of the JSON under
 * the developer encryption key (32 bytes, given as 64 hex characters). Every failure is a
 * message for the error page, never an exception: odd or non-hex text, a ciphertext that
 * is not whole blocks, bad padding (a wrong key or a tampered byte shows up here), text
 * that is not UTF-8 JSON, or JSON that is not an object.
 *
 * The encryption is unauthenticated: the interface defines `e_data` as IV + AES-256-CBC with
 * no MAC, and partners build it that way, so the engine cannot tell a tampered link from a
 * genuine one and does not pretend to. A changed byte of the ciphertext garbles a whole block
 * and almost always breaks the padding or the JSON; a changed byte of the IV rewrites only the
 * first 16 characters of the JSON, exactly, and may well still parse. Decision: keep the
 * interface's format (adding a MAC would refuse every partner's links) and make what matters
 * not depend on the bytes: the fields are checked (user api key, location, timestamp), so a
 * forged link still needs the user's key, and the replay guard keys on what the link signs in
 * (sso-replay.ts), so a used link rewritten this way is still a used link.
 */
import { createDecipheriv } from 'node:crypto';
import { OAUTH_MSG } from './oauth-messages';

export const SSO_MAX_HEX = 64 * 1024;

export type Decoded = { ok: true; json: Record<string, unknown> } | { ok: false; message: string };

const HEX_RE = /^(?:[0-9a-fA-F]{2})+$/;

export function decodeSsoPayload(data: string | undefined, eData: string | undefined, keyHex: string | undefined): Decoded {
  let plain: Buffer;
  if (eData !== undefined && eData !== '') {
    if (eData.length > SSO_MAX_HEX || !HEX_RE.test(eData)) return { ok: false, message: OAUTH_MSG.SSO_BAD_HEX };
    if (!keyHex) return { ok: false, message: OAUTH_MSG.SSO_NO_KEY };
    const raw = Buffer.from(eData, 'hex');
    if (raw.length < 32 || raw.length % 16 !== 0) return { ok: false, message: OAUTH_MSG.SSO_BAD_CIPHER };
    try {
      const d = createDecipheriv('aes-256-cbc', Buffer.from(keyHex, 'hex'), raw.subarray(0, 16));
      plain = Buffer.concat([d.update(raw.subarray(16)), d.final()]);
    } catch {
      return { ok: false, message: OAUTH_MSG.SSO_BAD_CIPHER };
    }
  } else if (data !== undefined && data !== '') {
    if (data.length > SSO_MAX_HEX || !HEX_RE.test(data)) return { ok: false, message: OAUTH_MSG.SSO_BAD_HEX };
    plain = Buffer.from(data, 'hex');
  } else {
    return { ok: false, message: OAUTH_MSG.SSO_NO_DATA };
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plain));
  } catch {
    return { ok: false, message: eData ? OAUTH_MSG.SSO_BAD_CIPHER : OAUTH_MSG.SSO_BAD_JSON };
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return { ok: false, message: OAUTH_MSG.SSO_BAD_JSON };
  return { ok: true, json: json as Record<string, unknown> };
}
