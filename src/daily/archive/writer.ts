/**
 * The archive writer: a pure, streaming, deterministic serialiser of `mosaic-archive-v1`.
 *
 * ```ts
 * const source: ArchiveSource = {
 *   header,                          // ArchiveHeader (format, game_id, day, G, params, rings, commitments, secrets)
 *   tiles: () => tileRows(),         // Iterable<ArchiveTile>, ids 0, 1, 2, … in order
 *   events: () => eventRows(),       // Iterable<ArchiveEvent>, revisions 1, 2, 3, … in order, as chained
 *   log_head: { hash, rev },         // the last event's
 *   scores: archiveScores(referee),  // format.ts
 *   health: archiveHealth(referee),
 *   names,                           // optional: display names at the close
 * };
 * for (const piece of archiveChunks(source)) gzip.write(piece);   // JSON text, about 64 KiB a piece
 * ```
 *
 * - **Streaming.** `tiles()` and `events()` are pulled lazily, one row at a time, and text is
 *   handed out in pieces of about `pieceChars` characters, so a caller that pages rows from
 *   storage never holds the whole document (a G = 1000 day is tens of MB of JSON).
 * - **Deterministic.** The same source gives the same text, byte for byte: the header and tiles
 *   in the fixed key order of format.ts (`HEADER_KEYS`, `TILE_KEYS`), and every nested object
 *   (params, events, scores, health) with its keys sorted and no whitespace (canonical JSON; the
 *   parameters alone may hold fractions), one tile or event per line. Events written canonically are also exactly the text their hash covers.
 * - **Checked.** A source that would make a broken archive throws before its text is handed out:
 *   tile ids out of order, revisions not rising by one from 1, a `prev` that is not the previous
 *   hash (the first chains from `seed_commit`), a `log_head` other than the last event, a `rings`
 *   other than the number of `grow` events, floats or non-JSON values in events. (The chain's
 *   hashes themselves are the auditor's to recompute: the writer stays synchronous.)
 */
import { canonicalJson } from "../../engine/canonical-json";
import { ARCHIVE_FORMAT, HEADER_KEYS, TILE_KEYS, type ArchiveEvent, type ArchiveHeader, type ArchiveHealth, type ArchiveLogHead, type ArchiveName, type ArchiveScore, type ArchiveTile } from "./format";

export interface ArchiveSource {
  header: ArchiveHeader;
  tiles(): Iterable<ArchiveTile>;
  events(): Iterable<ArchiveEvent>;
  log_head: ArchiveLogHead;
  scores: readonly ArchiveScore[];
  health: readonly ArchiveHealth[];
  /** Display names at the close (written after `health`; omitted: none written). */
  names?: readonly ArchiveName[];
}

export interface WriterOptions {
  /** Text is handed out in pieces of at least this many characters (the last may be shorter). */
  pieceChars?: number;
}

const DEFAULT_PIECE = 64 * 1024;

/** The archive's JSON text, in pieces; concatenated they form one JSON document ending in a newline. */
export function* archiveChunks(source: ArchiveSource, options: WriterOptions = {}): Generator<string, void, undefined> {
  const pieceChars = options.pieceChars ?? DEFAULT_PIECE;
  const header = checkHeader(source.header);
  let buffer = "";
  const take = (): string => {
    const out = buffer;
    buffer = "";
    return out;
  };

  buffer += "{";
  for (const key of HEADER_KEYS) buffer += `${JSON.stringify(key)}:${sortedJson(header[key])},`;

  buffer += '"tiles":[';
  let expectedId = 0;
  for (const tile of source.tiles()) {
    if (tile.id !== expectedId) throw new Error(`archive writer: tile ${String(tile.id)} where tile ${expectedId} was due (tiles go in id order)`);
    buffer += `${expectedId === 0 ? "" : ","}\n${tileJson(tile)}`;
    expectedId++;
    if (buffer.length >= pieceChars) yield take();
  }
  buffer += "\n],";

  buffer += '"events":[';
  let expectedRev = 1;
  let prev = header.seed_commit;
  let grows = 0;
  let closed = false;
  for (const event of source.events()) {
    if (event.rev !== expectedRev) throw new Error(`archive writer: event revision ${String(event.rev)} where ${expectedRev} was due`);
    if (closed) throw new Error(`archive writer: event ${event.rev} comes after the close event`);
    if (event.prev !== prev) throw new Error(`archive writer: event ${event.rev} does not chain from the previous hash`);
    if (event.type === "grow") grows++;
    if (event.type === "close") closed = true;
    buffer += `${expectedRev === 1 ? "" : ","}\n${canonicalJson(event)}`;
    prev = event.hash;
    expectedRev++;
    if (buffer.length >= pieceChars) yield take();
  }
  buffer += "\n],";
  const lastRev = expectedRev - 1;
  if (source.log_head.rev !== lastRev || source.log_head.hash !== prev) {
    throw new Error(`archive writer: log_head ${source.log_head.hash}@${source.log_head.rev} is not the last event (${prev}@${lastRev})`);
  }
  if (grows !== header.rings) throw new Error(`archive writer: rings is ${header.rings} but the log has ${grows} grow events`);

  buffer += `"log_head":${canonicalJson({ hash: source.log_head.hash, rev: source.log_head.rev })},`;
  buffer += `"scores":${rowsJson(source.scores)},`;
  buffer += `"health":${rowsJson(source.health)}`;
  if (source.names) buffer += `,"names":${rowsJson(source.names)}`;
  buffer += "}\n";
  yield take();
}

/** The whole archive as one string (tests and small fields; a large day should stream). */
export function archiveText(source: ArchiveSource, options?: WriterOptions): string {
  let text = "";
  for (const piece of archiveChunks(source, options)) text += piece;
  return text;
}

function checkHeader(header: ArchiveHeader): ArchiveHeader {
  if (header.format !== ARCHIVE_FORMAT) throw new Error(`archive writer: format must be ${ARCHIVE_FORMAT}`);
  if (!/^[0-9a-f]{64}$/.test(header.seed_commit) || !/^[0-9a-f]{64}$/.test(header.hash_key_commit)) {
    throw new Error("archive writer: seed_commit and hash_key_commit must be 64 lower-case hex digits");
  }
  if (!Number.isSafeInteger(header.rings) || header.rings < 0) throw new Error("archive writer: rings must be a non-negative integer");
  return header;
}

/** A tile in TILE_KEYS order; every value is an integer, a string, null or an array of integers. */
function tileJson(tile: ArchiveTile): string {
  const parts: string[] = [];
  for (const key of TILE_KEYS) parts.push(`${JSON.stringify(key)}:${canonicalJson(tile[key])}`);
  return `{${parts.join(",")}}`;
}

/**
 * Keys sorted, no whitespace, like canonical JSON, but finite fractions allowed: the parameters
 * may hold a growth timer of 0.1 minutes. (JavaScript prints a number the same way on every
 * runtime, so the text stays deterministic; events, which are hashed, stay integer-only.)
 */
function sortedJson(value: unknown): string {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`archive writer: ${value} is not a finite number`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(record[k])}`).join(",")}}`;
  }
  return canonicalJson(value);
}

function rowsJson(rows: readonly object[]): string {
  return rows.length === 0 ? "[]" : `[\n${rows.map((r) => canonicalJson(r)).join(",\n")}\n]`;
}
