import { canonicalDay, type AgentDay, type HistoryDay, type MachineDay } from "../history/types";

/**
 * The history's SQLite rows (docs/history.md "Store"): one row per day, one per day and machine
 * with SPEC §11.1's columns (the machine's agents as JSON beside them, for the per-model
 * figures). A day is written in one transaction, and only if it is not on record yet.
 */
export class HistoryRows {
  private readonly sql: SqlStorage;
  private cached: { revision: string; days: HistoryDay[] } | null = null;

  constructor(private readonly storage: DurableObjectStorage) {
    this.sql = storage.sql;
    this.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    this.sql.exec(`CREATE TABLE IF NOT EXISTS days (
      day TEXT PRIMARY KEY, game_id TEXT NOT NULL, archive TEXT NOT NULL, log_head_hash TEXT NOT NULL, log_head_rev INTEGER NOT NULL,
      tiles_total INTEGER NOT NULL, tiles_solved INTEGER NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS machine_days (
      day TEXT NOT NULL, seq INTEGER NOT NULL, machine TEXT NOT NULL, name TEXT NOT NULL, account TEXT,
      models TEXT NOT NULL, harnesses TEXT NOT NULL, tags TEXT NOT NULL, sessions INTEGER NOT NULL,
      reward INTEGER NOT NULL, tiles INTEGER NOT NULL, cells INTEGER NOT NULL, forced INTEGER NOT NULL, guesses INTEGER NOT NULL,
      wrong INTEGER NOT NULL, retractions INTEGER NOT NULL, writes INTEGER NOT NULL,
      health TEXT NOT NULL, rate_bp INTEGER NOT NULL, died_at INTEGER, died_rev INTEGER, agents TEXT NOT NULL,
      PRIMARY KEY (day, machine))`);
    this.sql.exec("CREATE INDEX IF NOT EXISTS machine_days_machine ON machine_days (machine)");
  }

  has(day: string): boolean {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM days WHERE day = ?", day).one().n > 0;
  }

  /** Whether the store has been filled from R2 since it was created (a wiped store has not). */
  synced(): boolean {
    return this.sql.exec("SELECT 1 FROM meta WHERE key = 'synced'").toArray().length > 0;
  }

  markSynced(): void {
    this.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('synced', '1')");
  }

  /**
   * Names the rows' current content: the store's epoch (set when it is first filled, so a store
   * lost and refilled never reuses a name) and how many days were written since.
   */
  revision(): string {
    const rows = this.sql.exec<{ key: string; value: string }>("SELECT key, value FROM meta WHERE key IN ('epoch', 'written')").toArray();
    const get = (k: string): string => rows.find((r) => r.key === k)?.value ?? "0";
    return `${get("epoch")}.${get("written")}`;
  }

  /** Starts a new epoch (an empty store about to be filled). */
  newEpoch(epoch: string): void {
    this.sql.exec("INSERT OR IGNORE INTO meta (key, value) VALUES ('epoch', ?)", epoch);
  }

  /** Writes the day unless it is on record; true when written. */
  insert(day: HistoryDay): boolean {
    const written = this.storage.transactionSync(() => {
      if (this.has(day.day)) return false;
      this.sql.exec(
        "INSERT INTO days (day, game_id, archive, log_head_hash, log_head_rev, tiles_total, tiles_solved) VALUES (?, ?, ?, ?, ?, ?, ?)",
        day.day, day.game_id, day.archive, day.log_head.hash, day.log_head.rev, day.tiles_total, day.tiles_solved,
      );
      day.machines.forEach((m, seq) => {
        this.sql.exec(
          `INSERT INTO machine_days (day, seq, machine, name, account, models, harnesses, tags, sessions, reward, tiles, cells, forced, guesses,
             wrong, retractions, writes, health, rate_bp, died_at, died_rev, agents) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          day.day, seq, m.machine, m.name, m.account, JSON.stringify(m.models), JSON.stringify(m.harnesses), JSON.stringify(m.tags), m.sessions,
          m.reward, m.tiles, m.cells, m.forced, m.guesses, m.wrong, m.retractions, m.writes, m.health, m.rate_bp, m.died_at, m.died_rev,
          JSON.stringify(m.agents),
        );
      });
      this.sql.exec("INSERT INTO meta (key, value) VALUES ('written', '1') ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)");
      return true;
    });
    return written;
  }

  /** Every day on record, oldest first, machines in join order. */
  days(): HistoryDay[] {
    const revision = this.revision();
    if (this.cached?.revision === revision) return this.cached.days;
    type DayRow = { day: string; game_id: string; archive: string; log_head_hash: string; log_head_rev: number; tiles_total: number; tiles_solved: number };
    type Row = Omit<MachineDay, "models" | "harnesses" | "tags" | "agents"> & { day: string; models: string; harnesses: string; tags: string; agents: string };
    const byDay = new Map<string, MachineDay[]>();
    for (const r of this.sql.exec<Row>("SELECT * FROM machine_days ORDER BY day, seq").toArray()) {
      let list = byDay.get(r.day);
      if (!list) byDay.set(r.day, (list = []));
      list.push({
        ...r,
        models: JSON.parse(r.models) as string[],
        harnesses: JSON.parse(r.harnesses) as string[],
        tags: JSON.parse(r.tags) as string[],
        agents: JSON.parse(r.agents) as AgentDay[],
      });
    }
    const days = this.sql
      .exec<DayRow>("SELECT * FROM days ORDER BY day")
      .toArray()
      .map((d) =>
        canonicalDay({
          day: d.day,
          game_id: d.game_id,
          archive: d.archive,
          log_head: { hash: d.log_head_hash, rev: d.log_head_rev },
          tiles_total: d.tiles_total,
          tiles_solved: d.tiles_solved,
          machines: byDay.get(d.day) ?? [],
        }),
      );
    this.cached = { revision, days };
    return days;
  }
}
