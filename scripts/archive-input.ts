/**
 * Archives as the command-line tools take them (`npm run audit`, `npm run ratings`): the bytes
 * from a file or a URL, read by the auditor's reader, and node:crypto's digests for the checks.
 */
import { createHash, createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { AuditedArchive } from "../src/daily/audit/event-log";
import type { Hashing } from "../src/daily/audit/hashing";
import { ArchiveFormatError, isGzip, readArchive } from "../src/daily/audit/read-archive";

/** No archive bytes to judge (no file, no answer, an HTTP error): exit 2, unlike bytes that are not an archive. */
export class UnreadableSource extends Error {}

/** The archive's bytes from a file or over HTTP(S) (fetch undoes a Content-Encoding: gzip itself). */
export async function fetchBytes(source: string): Promise<Uint8Array> {
  if (/^https?:\/\//i.test(source)) {
    let res: Response;
    try {
      res = await fetch(source);
    } catch (err) {
      const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : err instanceof Error ? err.message : String(err);
      throw new UnreadableSource(`GET ${source}: ${cause}`);
    }
    if (!res.ok) throw new UnreadableSource(`GET ${source}: HTTP ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  }
  try {
    return readFileSync(source);
  } catch (err) {
    // The listing's and the manifest's archive urls are relative to the server they came from.
    const hint = source.startsWith("/api/archives/") ? ` (an archive url from the server is relative to it: give http(s)://<server>${source})` : "";
    throw new UnreadableSource(`cannot read ${source}: ${err instanceof Error ? err.message : String(err)}${hint}`);
  }
}

/**
 * The archive in the bytes: as `readArchive` (read-archive.ts), but gunzipped by node:zlib in one
 * buffer, which keeps the read's transient memory lower than the web streams a browser uses.
 */
export async function readBytes(bytes: Uint8Array): Promise<AuditedArchive> {
  if (!isGzip(bytes)) return readArchive(bytes);
  let raw: Uint8Array;
  try {
    raw = gunzipSync(bytes);
  } catch (err) {
    throw new ArchiveFormatError(`the archive is gzip but does not decompress: ${err instanceof Error ? err.message : String(err)}`);
  }
  return readArchive(raw);
}

/** node:crypto's digests: synchronous, far cheaper than one WebCrypto promise per event or tile. */
export const nodeHashing: Hashing = {
  sha256Hex: (text) => createHash("sha256").update(text, "utf8").digest("hex"),
  hmacSha256Hex: async (key) => (text) => createHmac("sha256", key).update(text, "utf8").digest("hex"),
};
