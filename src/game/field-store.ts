import { shapeCellIds } from "../engine/geometry";
import type { Field, Rect, SolutionCount, Tile } from "../engine/types";
import type { WriteInput } from "../referee/types";
import { concatBytes } from "../text/bytes";

/**
 * The field's SQLite storage (SPEC §13). Every method is synchronous: SQLite calls in a Durable
 * Object are, so a sequence of them with no `await` between is one atomic transaction, and the
 * output gate holds the answer until it is durable.
 *
 * Tables:
 * - `meta`    key → JSON value: game id, params, rules, seed, status, timestamps, head.
 * - `tiles`   one row per tile: shape, m, givens (cell ids are recomputed from the shape), and its
 *             published hash (HMAC of its mosaic-tile-v1 encoding under the field's key).
 * - `solution` the hidden solution, one byte per cell, in blobs of at most 1 MB (rows < 2 MB).
 * - `events`  the hash-chained log: the referee input that produced each event (replayed on
 *             wake), the event itself with `prev`/`hash`, and its revision.
 * - `agents`  seated agents and the SHA-256 of the `agent_secret` a proof join handed out.
 * - `snapshots` the newest referee snapshot (its JSON as UTF-8, in parts of at most 1 MB) and the
 *             revision it was taken at; on wake only the writes after it are replayed.
 *
 * The tables are created by `create` (`migrate`), never by a read: an object asked about a
 * game_id that was never created stores nothing (no phantom objects, SPEC §12). Until then the
 * reads answer as for an empty field (no meta, no events, no agents).
 */

/** A stored write: what the referee is fed on replay. `close` is the end-of-day write. */
export type StoredInput = WriteInput | { type: "close" } | { type: "grow"; ring: number; first: number; count: number };

export interface StoredEvent {
  seq: number;
  rev: number;
  at: number;
  input: StoredInput;
  /** The public event, chained: includes `prev` and `hash`. */
  event: Record<string, unknown>;
  hash: string;
}

const SOLUTION_CHUNK = 1 << 20;
/** Rows stay well under the 2 MB row limit of Durable Object SQLite. */
const SNAPSHOT_PART = 1 << 20;

export class FieldStore {
  /** Whether this object's tables exist (it was created and not deleted since); null: not looked yet. */
  private ready: boolean | null = null;

  constructor(private readonly sql: SqlStorage) {}

  /**
   * Opens what is stored, writing nothing for an object that never stored anything: true when
   * the tables exist (tables a newer version added are then created too), false otherwise.
   */
  open(): boolean {
    this.ready = null;
    const exists = this.hasTables();
    if (exists) this.migrate();
    return exists;
  }

  /** Looks once (a read of `sqlite_master`, which stores nothing). */
  private hasTables(): boolean {
    this.ready ??= this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").toArray().length > 0;
    return this.ready;
  }

  /** The storage was deleted (`deleteAll`): no tables until the next `migrate`. */
  forget(): void {
    this.ready = false;
  }

  /** Creates the tables (the field is being created). */
  migrate(): void {
    this.sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS tiles (
      id INTEGER PRIMARY KEY, x0 INTEGER NOT NULL, y0 INTEGER NOT NULL, w INTEGER NOT NULL, h INTEGER NOT NULL,
      rects TEXT NOT NULL, m INTEGER NOT NULL, givens TEXT NOT NULL, hash TEXT)`);
    // Fields stored before tile hashes existed gain the column (their tiles keep no hash).
    const columns = this.sql.exec<{ name: string }>("PRAGMA table_info(tiles)").toArray();
    if (!columns.some((c) => c.name === "hash")) this.sql.exec("ALTER TABLE tiles ADD COLUMN hash TEXT");
    this.sql.exec(`CREATE TABLE IF NOT EXISTS solution (chunk INTEGER PRIMARY KEY, data BLOB NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS events (
      seq INTEGER PRIMARY KEY, rev INTEGER NOT NULL, at INTEGER NOT NULL,
      input TEXT NOT NULL, event TEXT NOT NULL, hash TEXT NOT NULL)`);
    this.sql.exec(`CREATE INDEX IF NOT EXISTS events_rev ON events (rev)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS snapshots (
      rev INTEGER NOT NULL, part INTEGER NOT NULL, parts INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (rev, part))`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS agents (
      agent TEXT PRIMARY KEY, machine TEXT NOT NULL, secret_hash TEXT, joined_at INTEGER NOT NULL)`);
    this.ready = true;
  }

  // ---- meta ---------------------------------------------------------------------------------

  getMeta<T>(key: string): T | undefined {
    if (!this.hasTables()) return undefined;
    const row = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0];
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  setMeta(key: string, value: unknown): void {
    this.sql.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, JSON.stringify(value));
  }

  // ---- the generated field ------------------------------------------------------------------

  /** Replaces any stored field with `field` (so a retried generation stays idempotent). */
  saveField(field: Field, hashes: readonly string[] | null): void {
    this.sql.exec("DELETE FROM tiles");
    this.appendTiles(field.tiles, hashes);
    this.saveSolution(field.solution);
  }

  /** Adds tiles (a grown ring) with their hashes (same order); ids continue after the stored ones. */
  appendTiles(tiles: readonly Tile[], hashes: readonly string[] | null): void {
    if (hashes && hashes.length !== tiles.length) throw new Error(`${hashes.length} hashes for ${tiles.length} tiles`);
    tiles.forEach((t, i) => {
      this.sql.exec(
        "INSERT INTO tiles (id, x0, y0, w, h, rects, m, givens, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        t.id, t.x0, t.y0, t.w, t.h, JSON.stringify(t.rects), t.m, JSON.stringify(t.givens), hashes ? hashes[i] : null,
      );
    });
  }

  /** Every tile's published hash in id order ("" for a tile stored without one). */
  tileHashes(): string[] {
    if (!this.hasTables()) return [];
    return this.sql.exec<{ hash: string | null }>("SELECT hash FROM tiles ORDER BY id").toArray().map((r) => r.hash ?? "");
  }

  /** Replaces the stored solution (growth only adds cells; existing ones never change). */
  saveSolution(solution: Uint8Array): void {
    this.sql.exec("DELETE FROM solution");
    for (let i = 0, chunk = 0; i < solution.length; i += SOLUTION_CHUNK, chunk++) {
      const part = solution.slice(i, Math.min(i + SOLUTION_CHUNK, solution.length));
      this.sql.exec("INSERT INTO solution (chunk, data) VALUES (?, ?)", chunk, part.buffer);
    }
  }

  loadField(G: number): Field {
    const tiles: Tile[] = [];
    for (const r of this.sql.exec<{ id: number; x0: number; y0: number; w: number; h: number; rects: string; m: number; givens: string }>(
      "SELECT id, x0, y0, w, h, rects, m, givens FROM tiles ORDER BY id",
    )) {
      const shape = { id: r.id, x0: r.x0, y0: r.y0, w: r.w, h: r.h, rects: JSON.parse(r.rects) as Rect[] };
      tiles.push({ ...shape, cellIds: shapeCellIds(shape, G), m: r.m as SolutionCount, givens: JSON.parse(r.givens) as number[] });
    }
    const solution = new Uint8Array(G * G);
    for (const r of this.sql.exec<{ chunk: number; data: ArrayBuffer }>("SELECT chunk, data FROM solution ORDER BY chunk")) {
      solution.set(new Uint8Array(r.data), r.chunk * SOLUTION_CHUNK);
    }
    return { G, tiles, solution };
  }

  // ---- the event log ------------------------------------------------------------------------

  appendEvent(e: Omit<StoredEvent, "seq">): void {
    this.sql.exec(
      "INSERT INTO events (rev, at, input, event, hash) VALUES (?, ?, ?, ?, ?)",
      e.rev, e.at, JSON.stringify(e.input), JSON.stringify(e.event), e.hash,
    );
  }

  /** The stored writes after revision `afterRev`, in order, for replay. */
  *inputs(afterRev = 0): Generator<{ at: number; rev: number; input: StoredInput }> {
    for (const r of this.sql.exec<{ at: number; rev: number; input: string }>("SELECT at, rev, input FROM events WHERE rev > ? ORDER BY seq", afterRev)) {
      yield { at: r.at, rev: r.rev, input: JSON.parse(r.input) as StoredInput };
    }
  }

  /** Public events with `rev > afterRev`, oldest first: at most `limit`, and about `maxBytes` of JSON (at least one). */
  events(afterRev: number, limit: number, maxBytes = 4 << 20): Array<Record<string, unknown>> {
    if (!this.hasTables()) return [];
    const out: Array<Record<string, unknown>> = [];
    let bytes = 0;
    for (const r of this.sql.exec<{ event: string }>("SELECT event FROM events WHERE rev > ? ORDER BY seq LIMIT ?", afterRev, limit)) {
      if (out.length > 0 && bytes + r.event.length > maxBytes) break;
      bytes += r.event.length;
      out.push(JSON.parse(r.event) as Record<string, unknown>);
    }
    return out;
  }

  /** The stored JSON text of public events with `rev > afterRev`, oldest first (as `events`, without parsing). */
  eventTexts(afterRev: number, limit: number, maxBytes = 4 << 20): Array<{ rev: number; text: string }> {
    if (!this.hasTables()) return [];
    const out: Array<{ rev: number; text: string }> = [];
    let bytes = 0;
    for (const r of this.sql.exec<{ rev: number; event: string }>("SELECT rev, event FROM events WHERE rev > ? ORDER BY seq LIMIT ?", afterRev, limit)) {
      if (out.length > 0 && bytes + r.event.length > maxBytes) break;
      bytes += r.event.length;
      out.push({ rev: r.rev, text: r.event });
    }
    return out;
  }

  head(): { hash: string; rev: number } | undefined {
    if (!this.hasTables()) return undefined;
    return this.sql.exec<{ hash: string; rev: number }>("SELECT hash, rev FROM events ORDER BY seq DESC LIMIT 1").toArray()[0];
  }

  eventCount(): number {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM events").one().n;
  }

  // ---- the referee snapshot -----------------------------------------------------------------

  /** Replaces the stored snapshot with `data` taken at revision `rev`. */
  saveSnapshot(rev: number, data: Uint8Array): void {
    this.sql.exec("DELETE FROM snapshots");
    const parts = Math.max(1, Math.ceil(data.length / SNAPSHOT_PART));
    for (let part = 0; part < parts; part++) {
      const bytes = data.slice(part * SNAPSHOT_PART, Math.min((part + 1) * SNAPSHOT_PART, data.length));
      this.sql.exec("INSERT INTO snapshots (rev, part, parts, data) VALUES (?, ?, ?, ?)", rev, part, parts, bytes.buffer);
    }
  }

  /** The newest snapshot's bytes and revision; undefined when there is none or its parts are incomplete. */
  latestSnapshot(): { rev: number; data: Uint8Array } | undefined {
    const newest = this.sql.exec<{ rev: number | null }>("SELECT max(rev) AS rev FROM snapshots").one().rev;
    if (newest === null) return undefined;
    const rows = this.sql.exec<{ part: number; parts: number; data: ArrayBuffer }>("SELECT part, parts, data FROM snapshots WHERE rev = ? ORDER BY part", newest).toArray();
    if (rows.length === 0 || rows.length !== rows[0].parts || rows.some((r, i) => r.part !== i)) return undefined;
    const data = concatBytes(rows.map((r) => r.data));
    return { rev: newest, data };
  }

  // ---- agents -------------------------------------------------------------------------------

  upsertAgent(agent: string, machine: string, secretHash: string | null, at: number): void {
    this.sql.exec(
      `INSERT INTO agents (agent, machine, secret_hash, joined_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(agent) DO UPDATE SET secret_hash = COALESCE(excluded.secret_hash, agents.secret_hash)`,
      agent, machine, secretHash, at,
    );
  }

  /** undefined: no such agent; null: seated without a secret (bearer join). */
  secretHash(agent: string): string | null | undefined {
    if (!this.hasTables()) return undefined;
    const r = this.sql.exec<{ secret_hash: string | null }>("SELECT secret_hash FROM agents WHERE agent = ?", agent).toArray()[0];
    return r ? r.secret_hash : undefined;
  }

  /** Seated agent ids in join order (insertion order), at most `limit`. */
  agentIds(limit: number): string[] {
    return this.sql.exec<{ agent: string }>("SELECT agent FROM agents ORDER BY rowid LIMIT ?", limit).toArray().map((r) => r.agent);
  }

  agentCount(): number {
    if (!this.hasTables()) return 0;
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM agents").one().n;
  }
}
