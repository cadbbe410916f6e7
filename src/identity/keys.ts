// Ed25519 public keys: parsing (raw, SPKI PEM, SPKI DER), machine ids and signature checks (SPEC §8).
// Pure: only WebCrypto, so it runs unchanged in Node, workerd and browsers.
import { type Bytes, fromBase64Any, sha256Hex, toBase64 } from "../text/encoding";

/** DER prefix of an Ed25519 SubjectPublicKeyInfo: SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING (33 bytes) }. */
const SPKI_ED25519_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);

export type KeyParse = { ok: true; raw: Bytes; rawBase64: string } | { ok: false; message: string };

/**
 * Accepts the raw 32-byte key in base64 (or base64url), an SPKI PEM block, or SPKI DER in base64,
 * and returns the raw key with its canonical base64 (the form every signed message uses).
 */
export function parsePublicKey(input: string): KeyParse {
  const text = input.trim();
  if (text.length === 0) return { ok: false, message: "malformed public key: it is empty" };
  if (text.length > 4096) return { ok: false, message: "malformed public key: it is far too long for an ed25519 key" };
  if (text.includes("-----BEGIN")) return parsePem(text);
  const bytes = fromBase64Any(text);
  if (!bytes) return { ok: false, message: "malformed public key: it is neither base64 nor a PEM block" };
  if (bytes.length === 32) return done(bytes);
  if (bytes.length === SPKI_ED25519_PREFIX.length + 32) return fromSpki(bytes);
  return {
    ok: false,
    message: `malformed public key: decodes to ${bytes.length} bytes; expected the raw 32-byte ed25519 key in base64 (or SPKI PEM/DER for proof joins)`,
  };
}

function parsePem(text: string): KeyParse {
  // JSON clients sometimes send PEM with literal "\n" sequences; treat them as newlines.
  const pem = text.replace(/\\n/g, "\n");
  const match = /-----BEGIN PUBLIC KEY-----([\s\S]*?)-----END PUBLIC KEY-----/.exec(pem);
  if (!match) return { ok: false, message: "malformed public key: a PEM key must be a 'BEGIN PUBLIC KEY' (SPKI) block" };
  const bytes = fromBase64Any(match[1].replace(/\s+/g, ""));
  if (!bytes) return { ok: false, message: "malformed public key: the PEM body is not base64" };
  return fromSpki(bytes);
}

function fromSpki(der: Bytes): KeyParse {
  if (der.length !== SPKI_ED25519_PREFIX.length + 32 || !SPKI_ED25519_PREFIX.every((b, i) => der[i] === b)) {
    return { ok: false, message: "malformed public key: the SPKI structure is not an ed25519 public key" };
  }
  return done(der.slice(SPKI_ED25519_PREFIX.length));
}

function done(raw: Bytes): KeyParse {
  return { ok: true, raw, rawBase64: toBase64(raw) };
}

/** `m-` + the first 16 hex digits of SHA-256 of the raw key. */
export async function machineIdOf(raw: Bytes): Promise<string> {
  return "m-" + (await sha256Hex(raw)).slice(0, 16);
}

/** Decodes a base64/base64url ed25519 signature; null unless it is exactly 64 bytes. */
export function parseSignature(text: string): Bytes | null {
  if (text.length > 200) return null;
  const bytes = fromBase64Any(text);
  return bytes && bytes.length === 64 ? bytes : null;
}

/** True when `sig` is a valid ed25519 signature of `message` by `raw`; false for any failure, including a key that is not a curve point. */
export async function verifyEd25519(raw: Bytes, sig: Bytes, message: string): Promise<boolean> {
  try {
    const key = await crypto.subtle.importKey("raw", raw, { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, sig, new TextEncoder().encode(message));
  } catch {
    return false;
  }
}
