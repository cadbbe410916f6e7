// Base64 / base64url / hex helpers (pure; runs in Node, workerd, browsers): identity, sign-in, the site.

/** Byte arrays over plain ArrayBuffers (what WebCrypto accepts). */
export type Bytes = Uint8Array<ArrayBuffer>;

const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL_RE = /^[A-Za-z0-9_-]*={0,2}$/;

/** Standard base64 with padding. */
export function toBase64(bytes: Bytes): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Unpadded base64url (RFC 4648 §5). */
export function toBase64Url(bytes: Bytes): string {
  return toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Decodes base64 or base64url, padded or not; null when the text is neither.
 * Accepting both alphabets spares clients a whole class of "wrong flavour" mistakes.
 */
export function fromBase64Any(text: string): Bytes | null {
  const s = text.trim();
  if (!BASE64_RE.test(s) && !BASE64URL_RE.test(s)) return null;
  const std = s.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (std.length % 4 === 1) return null;
  const padded = std + "=".repeat((4 - (std.length % 4)) % 4);
  let binary: string;
  try {
    binary = atob(padded);
  } catch {
    return null;
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

// Hashing is the engine's (one WebCrypto SHA-256 for the whole project).
export { sha256Hex } from "../engine/commitments";
