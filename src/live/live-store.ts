/**
 * The live duties' own tables in the field object's SQLite (docs/spectator.md): checkpoints of
 * the spectator model, how far the live feed has broadcast, and per-machine usage counters.
 * Created on first use, only for a field that exists, so a read of an unknown id stores nothing.
 *
 * - `spectator_checkpoint` the newest spectator model (a full-scope snapshot as UTF-8 JSON) in
 *   parts of at most 1 MiB, at revision `rev`; replaced as a whole.
 * - `live_meta`           key → JSON value: `sent_rev` (the feed's broadcast position).
 * - `machine_usage`       machine → tool calls answered and bytes served on this field.
 * - `live_blobs`          named byte arrays with a JSON header (the field's optimum per cell),
 *   in parts of at most 1 MiB.
 */
import { concatBytes } from "../text/bytes";

const PART_BYTES = 1 << 20;

export interface UsageRow {
  machine: string;
  calls: number;
  bytes: number;
}

export class LiveStore {
  constructor(private readonly sql: SqlStorage) {}

  /** Before every write: cheap, and right even after the field's storage was deleted (expiry). */
  private migrate(): void {
    this.sql.exec("CREATE TABLE IF NOT EXISTS spectator_checkpoint (part INTEGER PRIMARY KEY, parts INTEGER NOT NULL, rev INTEGER NOT NULL, data BLOB NOT NULL)");
    this.sql.exec("CREATE TABLE IF NOT EXISTS live_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    this.sql.exec("CREATE TABLE IF NOT EXISTS machine_usage (machine TEXT PRIMARY KEY, calls INTEGER NOT NULL, bytes INTEGER NOT NULL)");
    this.sql.exec("CREATE TABLE IF NOT EXISTS live_blobs (name TEXT NOT NULL, part INTEGER NOT NULL, parts INTEGER NOT NULL, meta TEXT NOT NULL, data BLOB NOT NULL, PRIMARY KEY (name, part))");
  }

  /** Revision of the stored checkpoint, 0 when there is none (no table is created to answer). */
  checkpointRev(): number {
    if (!this.hasTable("spectator_checkpoint")) return 0;
    return this.sql.exec<{ rev: number | null }>("SELECT max(rev) AS rev FROM spectator_checkpoint").one().rev ?? 0;
  }

  saveCheckpoint(rev: number, json: string): void {
    this.migrate();
    const bytes = new TextEncoder().encode(json);
    const parts = Math.max(1, Math.ceil(bytes.length / PART_BYTES));
    this.sql.exec("DELETE FROM spectator_checkpoint");
    for (let p = 0; p < parts; p++) {
      this.sql.exec("INSERT INTO spectator_checkpoint (part, parts, rev, data) VALUES (?, ?, ?, ?)", p, parts, rev, bytes.subarray(p * PART_BYTES, (p + 1) * PART_BYTES));
    }
  }

  /** The checkpoint's JSON text, or null when there is none or it is incomplete. */
  loadCheckpoint(): { rev: number; json: string } | null {
    if (!this.hasTable("spectator_checkpoint")) return null;
    const rows = this.sql.exec<{ part: number; parts: number; rev: number; data: ArrayBuffer }>("SELECT part, parts, rev, data FROM spectator_checkpoint ORDER BY part").toArray();
    if (rows.length === 0 || rows.length !== rows[0].parts || rows.some((r, i) => r.part !== i || r.rev !== rows[0].rev)) return null;
    return { rev: rows[0].rev, json: new TextDecoder().decode(concatBytes(rows.map((r) => r.data))) };
  }

  saveBlob(name: string, meta: unknown, bytes: Uint8Array): void {
    this.migrate();
    const parts = Math.max(1, Math.ceil(bytes.length / PART_BYTES));
    this.sql.exec("DELETE FROM live_blobs WHERE name = ?", name);
    for (let p = 0; p < parts; p++) {
      this.sql.exec("INSERT INTO live_blobs (name, part, parts, meta, data) VALUES (?, ?, ?, ?, ?)", name, p, parts, JSON.stringify(meta), bytes.subarray(p * PART_BYTES, (p + 1) * PART_BYTES));
    }
  }

  loadBlob<T>(name: string): { meta: T; bytes: Uint8Array } | null {
    if (!this.hasTable("live_blobs")) return null;
    const rows = this.sql.exec<{ part: number; parts: number; meta: string; data: ArrayBuffer }>("SELECT part, parts, meta, data FROM live_blobs WHERE name = ? ORDER BY part", name).toArray();
    if (rows.length === 0 || rows.length !== rows[0].parts || rows.some((r, i) => r.part !== i)) return null;
    return { meta: JSON.parse(rows[0].meta) as T, bytes: concatBytes(rows.map((r) => r.data)) };
  }

  getMeta<T>(key: string): T | undefined {
    if (!this.hasTable("live_meta")) return undefined;
    const row = this.sql.exec<{ value: string }>("SELECT value FROM live_meta WHERE key = ?", key).toArray()[0];
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  setMeta(key: string, value: unknown): void {
    this.migrate();
    this.sql.exec("INSERT INTO live_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, JSON.stringify(value));
  }

  /** Adds calls and bytes to machines' counters (one statement per machine). */
  addUsage(rows: readonly UsageRow[]): void {
    this.migrate();
    for (const r of rows) {
      this.sql.exec(
        "INSERT INTO machine_usage (machine, calls, bytes) VALUES (?, ?, ?) ON CONFLICT(machine) DO UPDATE SET calls = calls + excluded.calls, bytes = bytes + excluded.bytes",
        r.machine,
        r.calls,
        r.bytes,
      );
    }
  }

  usage(): Map<string, UsageRow> {
    const out = new Map<string, UsageRow>();
    if (!this.hasTable("machine_usage")) return out;
    for (const r of this.sql.exec<{ machine: string; calls: number; bytes: number }>("SELECT machine, calls, bytes FROM machine_usage")) out.set(r.machine, { ...r });
    return out;
  }

  private hasTable(name: string): boolean {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?", name).one().n > 0;
  }
}
