/**
 * The digests the checks compute, swappable: WebCrypto by default (Node, workerd and browsers
 * alike), or synchronous ones where the platform has them (the command line passes node:crypto's,
 * which spares tens of thousands of asynchronous WebCrypto calls on a full day).
 */
import { bytesToHex, sha256Hex } from "../../engine/commitments";

export interface Hashing {
  /** hex(SHA-256(utf8(text))). */
  sha256Hex(text: string): string | Promise<string>;
  /** A function computing hex(HMAC-SHA256(key, utf8(text))). */
  hmacSha256Hex(key: Uint8Array): Promise<(text: string) => string | Promise<string>>;
}

const utf8 = new TextEncoder();

export const webCryptoHashing: Hashing = {
  sha256Hex: (text) => sha256Hex(text),
  async hmacSha256Hex(keyBytes) {
    const raw = new Uint8Array(keyBytes.byteLength);
    raw.set(keyBytes);
    const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return async (text) => bytesToHex(await crypto.subtle.sign("HMAC", key, utf8.encode(text)));
  },
};
