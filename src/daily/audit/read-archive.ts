/**
 * Reading an archive: gzip or plain bytes → a structurally checked `Archive`. Web APIs only
 * (DecompressionStream, TextDecoder), so the same code runs in Node and in a browser.
 */
import { ARCHIVE_FORMAT, HEADER_KEYS, type Archive, type ArchiveEvent } from "../archive/format";
import { TextEventLog, type AuditedArchive } from "./event-log";
import { isRecord } from "../../referee/validate";

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
export async function readArchive(bytes: Uint8Array): Promise<AuditedArchive> {
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
  return parseArchiveText(text);
}

/**
 * The archive in a JSON text: every member parsed but the events, which stay text behind a
 * `TextEventLog` (each is parsed and shape-checked once here, then again whenever a check asks).
 */
export function parseArchiveText(text: string): AuditedArchive {
  let members: Map<string, [number, number]>;
  let spans: Float64Array;
  try {
    ({ members, spans } = scanDocument(text));
  } catch (err) {
    throw new ArchiveFormatError(`the archive is not JSON (truncated?): ${err instanceof Error ? err.message : String(err)}`);
  }
  const repeated = repeatedMemberName(text);
  if (repeated) {
    const event = eventAt(spans, repeated.offset);
    const where = event === null ? `at offset ${repeated.offset}` : `in events[${event}]`;
    throw new ArchiveFormatError(`the archive is malformed: the member name ${JSON.stringify(repeated.name)} appears twice in one object ${where} (readers disagree on which value counts)`);
  }
  const doc: Record<string, unknown> = {};
  for (const [key, [start, end]] of members) {
    if (key === "events") continue;
    try {
      doc[key] = JSON.parse(text.slice(start, end));
    } catch (err) {
      throw new ArchiveFormatError(`the archive is not JSON (truncated?): in ${key}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const eventsAt = members.get("events");
  if (!eventsAt) throw new ArchiveFormatError("the archive is malformed: events is missing");
  if (text.charCodeAt(eventsAt[0]) !== 91) throw new ArchiveFormatError("the archive is malformed: events is not a list");
  const grows: ArchiveEvent[] = [];
  for (let i = 0; i < spans.length / 2; i++) {
    let e: unknown;
    try {
      e = JSON.parse(text.slice(spans[2 * i], spans[2 * i + 1]));
    } catch (err) {
      throw new ArchiveFormatError(`the archive is not JSON: events[${i}]: ${err instanceof Error ? err.message : String(err)}`);
    }
    checkEventShape(e, i);
    if ((e as ArchiveEvent).type === "grow") grows.push(e as ArchiveEvent);
  }
  const checked = checkArchiveShape({ ...doc, events: [] });
  return { ...checked, events: new TextEventLog(text, spans, grows) };
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
  doc.events.forEach((e: unknown, i: number) => checkEventShape(e, i));

  const head = doc.log_head;
  if (!isRecord(head) || typeof head.hash !== "string" || !isInt(head.rev)) fail("log_head", "is not {hash, rev}");
  if (!Array.isArray(doc.scores)) fail("scores", "is not a list");
  if (!Array.isArray(doc.health)) fail("health", "is not a list");
  // Display names (newer archives): informational, but a reader must be able to show them as text.
  if (doc.names !== undefined && (!Array.isArray(doc.names) || !doc.names.every((n) => isRecord(n) && typeof n.machine === "string" && typeof n.name === "string"))) {
    fail("names", "is not a list of {machine, name} strings");
  }
  return doc as unknown as Archive;
}

/** An event has the fields every check relies on: `rev, type, at, prev, hash`. */
function checkEventShape(e: unknown, i: number): void {
  const at = `events[${i}]`;
  const fail = (path: string, what: string): never => {
    throw new ArchiveFormatError(`the archive is malformed: ${path} ${what}`);
  };
  if (!isRecord(e)) return fail(at, "is not an object");
  if (!isInt(e.rev)) fail(`${at}.rev`, "is not an integer");
  if (typeof e.type !== "string") fail(`${at}.type`, "is not a string");
  if (!isInt(e.at)) fail(`${at}.at`, "is not an integer");
  if (typeof e.prev !== "string") fail(`${at}.prev`, "is not a string");
  if (typeof e.hash !== "string") fail(`${at}.hash`, "is not a string");
}

// ---- a scanner for the document's top level and the events' boundaries ----------------------

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;
const COLON = 58;

/**
 * Where each top-level member's value lies in the text, and where each element of `events` lies.
 * Only the structure is scanned (strings, nesting, separators); the values themselves are checked
 * by JSON.parse when they are parsed. Throws on a structure that is not one JSON object.
 */
function scanDocument(text: string): { members: Map<string, [number, number]>; spans: Float64Array } {
  let pos = 0;
  const n = text.length;
  const ws = (): void => {
    while (pos < n) {
      const c = text.charCodeAt(pos);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
      pos++;
    }
  };
  const expect = (code: number, what: string): void => {
    ws();
    if (text.charCodeAt(pos) !== code) throw new Error(`expected ${what} at offset ${pos}`);
    pos++;
  };
  const skipString = (): void => {
    pos++; // the opening quote
    for (;;) {
      if (pos >= n) throw new Error("unterminated string");
      const c = text.charCodeAt(pos++);
      if (c === QUOTE) return;
      if (c === BACKSLASH) pos++;
    }
  };
  const skipValue = (): void => {
    ws();
    if (pos >= n) throw new Error("unexpected end of the text");
    const first = text.charCodeAt(pos);
    if (first === QUOTE) return skipString();
    if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
      while (pos < n) {
        const c = text.charCodeAt(pos);
        if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === 32 || c === 10 || c === 13 || c === 9) break;
        pos++;
      }
      return;
    }
    let depth = 0;
    while (pos < n) {
      const c = text.charCodeAt(pos);
      if (c === QUOTE) {
        skipString();
        continue;
      }
      pos++;
      if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (--depth === 0) return;
      }
    }
    throw new Error("unexpected end of the text");
  };

  const members = new Map<string, [number, number]>();
  let spans: number[] = [];
  expect(OPEN_BRACE, "{");
  ws();
  if (text.charCodeAt(pos) === CLOSE_BRACE) pos++;
  else {
    for (;;) {
      ws();
      if (text.charCodeAt(pos) !== QUOTE) throw new Error(`expected a member name at offset ${pos}`);
      const keyStart = pos;
      skipString();
      const key = JSON.parse(text.slice(keyStart, pos)) as string;
      expect(COLON, ":");
      ws();
      const start = pos;
      if (key === "events" && text.charCodeAt(pos) === OPEN_BRACKET) {
        spans = [];
        pos++;
        ws();
        if (text.charCodeAt(pos) === CLOSE_BRACKET) pos++;
        else {
          for (;;) {
            ws();
            const s0 = pos;
            skipValue();
            spans.push(s0, pos);
            ws();
            const c = text.charCodeAt(pos++);
            if (c === CLOSE_BRACKET) break;
            if (c !== COMMA) throw new Error(`expected , or ] in events at offset ${pos - 1}`);
          }
        }
      } else skipValue();
      members.set(key, [start, pos]);
      ws();
      const c = text.charCodeAt(pos++);
      if (c === CLOSE_BRACE) break;
      if (c !== COMMA) throw new Error(`expected , or } at offset ${pos - 1}`);
    }
  }
  ws();
  if (pos < n) throw new Error(`text after the document at offset ${pos}`);
  return { members, spans: Float64Array.from(spans) };
}

/**
 * The first member name that appears twice in one object, and where. JSON.parse keeps the last of
 * two equal names, other readers the first: such a file says two things, and the hash chain covers
 * only what one reader sees. One pass over the text, a reused list of names per nesting level.
 */
export function repeatedMemberName(text: string): { name: string; offset: number } | null {
  const names: string[][] = [];
  const isObject: boolean[] = [];
  let depth = -1;
  let expectName = false;
  const n = text.length;
  for (let pos = 0; pos < n; ) {
    const c = text.charCodeAt(pos);
    if (c === QUOTE) {
      // The closing quote is the next one not escaped (an even run of backslashes before it);
      // indexOf skips long strings (solutions, hashes) far faster than a loop over their characters.
      const start = pos;
      let end = start;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return null; // unterminated: the structural scan reports it
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      pos = end + 1;
      if (expectName) {
        const raw = text.slice(start + 1, end);
        const name = raw.includes("\\") ? (JSON.parse(text.slice(start, pos)) as string) : raw;
        const seen = names[depth];
        if (seen.includes(name)) return { name, offset: start };
        seen.push(name);
        expectName = false;
      }
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      isObject[depth] = c === OPEN_BRACE;
      if (names[depth] === undefined) names[depth] = [];
      names[depth].length = 0;
      expectName = c === OPEN_BRACE;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      expectName = false;
    } else if (c === COMMA) expectName = depth >= 0 && isObject[depth];
    pos++;
  }
  return null;
}

/** The index of the event whose text holds `offset`, or null outside the events. */
function eventAt(spans: Float64Array, offset: number): number | null {
  let lo = 0;
  let hi = spans.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (offset < spans[2 * mid]) hi = mid - 1;
    else if (offset >= spans[2 * mid + 1]) lo = mid + 1;
    else return mid;
  }
  return null;
}

/** The archive with its events as a plain array (tests, small archives, a page that wants them all). */
export function materialize(archive: AuditedArchive): Archive {
  const events: ArchiveEvent[] = [];
  for (let i = 0; i < archive.events.length; i++) events.push(archive.events.at(i)!);
  return { ...archive, events };
}

function isInt(v: unknown): boolean {
  return typeof v === "number" && Number.isSafeInteger(v);
}
