import { bytesToHex } from "../engine/commitments";

/** Agent secrets handed out by proof joins (SPEC §6): random, shown once, stored only as SHA-256. */
export function randomSecret(): string {
  return "as_" + bytesToHex(crypto.getRandomValues(new Uint8Array(24)));
}
