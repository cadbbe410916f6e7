// Bearer tokens: `msc_<16 hex of the machine id>_<43 base64url chars of randomness>`.
// The machine id inside the token routes a lookup to that machine's identity object; only the
// SHA-256 of the whole token is ever stored, so storage alone cannot reproduce a token.
import { sha256Hex, toBase64Url } from "../text/encoding";

const TOKEN_RE = /^msc_([0-9a-f]{16})_[A-Za-z0-9_-]{43}$/;

export function newToken(machineId: string): string {
  const random = new Uint8Array(32);
  crypto.getRandomValues(random);
  return `msc_${machineId.slice(2)}_${toBase64Url(random)}`;
}

/** The machine id a well-formed token names, or null when it cannot be one of ours. */
export function tokenMachineId(token: string): string | null {
  const m = TOKEN_RE.exec(token);
  return m ? `m-${m[1]}` : null;
}

export function tokenHash(token: string): Promise<string> {
  return sha256Hex(token);
}
