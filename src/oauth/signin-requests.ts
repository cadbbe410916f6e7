// Pending sign-in requests (SPEC §8.1): each in its own identity object instance, named by its id,
// so that the consent page, the key-file CLI and a pasted token all meet at one serialised place.
import type { Env } from "../env";
import { toBase64Url } from "../text/encoding";

/** Crockford's base32 without I, L, O, U: a code a person can read aloud and type on a phone. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** Ten characters, 50 random bits: shown as `XXXXX-XXXXX`. */
export const REQUEST_ID_RE = /^[0-9A-HJKMNP-TV-Z]{10}$/;
/** How long a consent waits for its approval. */
export const SIGNIN_TTL_MS = 10 * 60_000;

export function newRequestId(): string {
  const bytes = new Uint8Array(10);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => ALPHABET[b & 31]).join("");
}

/** A code as a person may type it: any case, with or without the dash or spaces. */
export function normaliseRequestId(text: string): string | null {
  const id = text.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  return REQUEST_ID_RE.test(id) ? id : null;
}

export function showRequestId(id: string): string {
  return `${id.slice(0, 5)}-${id.slice(5)}`;
}

export function signInStub(env: Env, id: string) {
  return env.IDENTITY.getByName(`oauth-request:${id}`);
}

/** A grant's secret: 256 random bits, held only inside the tokens' encrypted props. */
export function newGrantSecret(): { ref: string; secret: string } {
  const ref = new Uint8Array(12);
  const secret = new Uint8Array(32);
  crypto.getRandomValues(ref);
  crypto.getRandomValues(secret);
  return { ref: toBase64Url(ref), secret: toBase64Url(secret) };
}

/** The header the consent page sends its secret in when it asks how its sign-in went. */
export const PAGE_SECRET_HEADER = "Mosaic-Signin-Secret";

/** The consent page's secret (256 random bits): handed to the page it is served with, kept only as a hash. */
export function newPageSecret(): string {
  const secret = new Uint8Array(32);
  crypto.getRandomValues(secret);
  return toBase64Url(secret);
}
