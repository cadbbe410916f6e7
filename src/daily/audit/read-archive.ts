/**
 * Reading an archive: gzip or plain bytes → a structurally checked `Archive`. Web APIs only
 * (DecompressionStream, TextDecoder), so the same code runs in Node and in a browser.
 */
import { ARCHIVE_FORMAT, HEADER_KEYS, type Archive } from "../archive/format";

/** Thrown when the bytes are not a readable mosaic-archive-v1 document. */
export class ArchiveFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArchiveFormatError";
  }
}

/** gzip's magic number. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

export async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  const stream = new Blob([copy]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The archive in `bytes` (gzip-compressed or not), parsed and checked for shape. */
export async function readArchive(bytes: Uint8Array): Promise<Archive> {
  let raw = bytes;
  if (isGzip(bytes)) {
    try {
      raw = await gunzip(bytes);
    } catch (err) {
      throw new ArchiveFormatError(`the archive is gzip but does not decompress: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    throw new ArchiveFormatError("the archive is not UTF-8 text");
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ArchiveFormatError(`the archive is not JSON (truncated?): ${err instanceof Error ? err.message : String(err)}`);
  }
  return checkArchiveShape(doc);
}

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * The document has every field of SPEC §9 with the right types. Only the shape: whether the
 * values are true is for the checks. Event details beyond `rev, type, at, prev, hash` are left
 * to the replay, which compares every event as a whole.
 */
export function checkArchiveShape(doc: unknown): Archive {
  const fail = (path: string, what: string): never => {
    throw new ArchiveFormatError(`the archive is malformed: ${path} ${what}`);
  };
  if (!isRecord(doc)) return fail("the document", "is not a JSON object");
  if (doc.format !== ARCHIVE_FORMAT) fail("format", `is ${JSON.stringify(doc.format)}, not "${ARCHIVE_FORMAT}"`);
  for (const key of HEADER_KEYS) if (!(key in doc)) fail(key, "is missing");
  for (const key of ["game_id", "day", "day_seed", "day_key"] as const) if (typeof doc[key] !== "string") fail(key, "is not a string");
  for (const key of ["seed_commit", "hash_key_commit"] as const) if (typeof doc[key] !== "string" || !HEX64.test(doc[key] as string)) fail(key, "is not 64 hex digits");
  if (!isInt(doc.G) || (doc.G as number) < 1) fail("G", "is not a positive integer");
  if (!isInt(doc.rings)) fail("rings", "is not an integer");
  const params = doc.params;
  if (!isRecord(params)) return fail("params", "is not an object");
  if (typeof params.kind !== "string") fail("params.kind", "is not a string");
  const rules = params.rules;
  if (!isRecord(rules) || (rules.guess !== "accept" && rules.guess !== "reject") || ![0, 1, 2].includes(rules.depth as number) || typeof rules.fog !== "boolean") {
    fail("params.rules", "is not {guess: accept|reject, depth: 0..2, fog: boolean}");
  }

  if (!Array.isArray(doc.tiles)) return fail("tiles", "is not a list");
  doc.tiles.forEach((t: unknown, i: number) => {
    const at = `tiles[${i}]`;
    if (!isRecord(t)) return fail(at, "is not an object");
    for (const key of ["id", "x0", "y0", "w", "h", "cells", "m"]) if (!isInt(t[key])) fail(`${at}.${key}`, "is not an integer");
    if (!Array.isArray(t.rects) || t.rects.length === 0 || t.rects.some((r) => !Array.isArray(r) || r.length !== 4 || !r.every(isInt))) {
      fail(`${at}.rects`, "is not a list of [lx, ly, w, h]");
    }
    for (const key of ["solution", "givens", "hash", "status"]) if (typeof t[key] !== "string") fail(`${at}.${key}`, "is not a string");
    if (t.agent !== null && typeof t.agent !== "string") fail(`${at}.agent`, "is neither an agent id nor null");
    return undefined;
  });

  if (!Array.isArray(doc.events)) return fail("events", "is not a list");
  doc.events.forEach((e: unknown, i: number) => {
    const at = `events[${i}]`;
    if (!isRecord(e)) return fail(at, "is not an object");
    if (!isInt(e.rev)) fail(`${at}.rev`, "is not an integer");
    if (typeof e.type !== "string") fail(`${at}.type`, "is not a string");
    if (!isInt(e.at)) fail(`${at}.at`, "is not an integer");
    if (typeof e.prev !== "string") fail(`${at}.prev`, "is not a string");
    if (typeof e.hash !== "string") fail(`${at}.hash`, "is not a string");
    return undefined;
  });

  const head = doc.log_head;
  if (!isRecord(head) || typeof head.hash !== "string" || !isInt(head.rev)) fail("log_head", "is not {hash, rev}");
  if (!Array.isArray(doc.scores)) fail("scores", "is not a list");
  if (!Array.isArray(doc.health)) fail("health", "is not a list");
  return doc as unknown as Archive;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isInt(v: unknown): boolean {
  return typeof v === "number" && Number.isSafeInteger(v);
}
