import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import type { GameSummary } from "./registry";

/** A registry row: the public summary plus when the field was created (for ordering). */
export interface RegistryEntry extends GameSummary {
  created: number;
}

/**
 * The list of fields on this server, one instance (`env.REGISTRY.getByName("games")`).
 * Field objects report to it on status changes and, for revisions, at most every few seconds,
 * so it is never on the path of a write; `list_games` reads it in one query.
 */
export class RegistryObject extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => {
      this.sql.exec(`CREATE TABLE IF NOT EXISTS games (
        game_id TEXT PRIMARY KEY, created INTEGER NOT NULL, status TEXT NOT NULL, revision INTEGER NOT NULL,
        G INTEGER NOT NULL, tiles INTEGER NOT NULL, grown INTEGER NOT NULL, fog INTEGER NOT NULL, agents INTEGER NOT NULL)`);
      this.sql.exec("CREATE INDEX IF NOT EXISTS games_created ON games (created)");
    });
  }

  /** Inserts or refreshes a field's row. The creation time of the first report is kept. */
  upsert(e: RegistryEntry): void {
    this.sql.exec(
      `INSERT INTO games (game_id, created, status, revision, G, tiles, grown, fog, agents) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(game_id) DO UPDATE SET status = excluded.status, revision = excluded.revision, G = excluded.G,
         tiles = excluded.tiles, grown = excluded.grown, fog = excluded.fog, agents = excluded.agents`,
      e.game_id, e.created, e.status, e.revision, e.G, e.tiles, e.grown, e.fog ? 1 : 0, e.agents,
    );
  }

  remove(gameId: string): void {
    this.sql.exec("DELETE FROM games WHERE game_id = ?", gameId);
  }

  /** Newest first. */
  list(limit = 200): GameSummary[] {
    return this.sql
      .exec<{ game_id: string; status: string; revision: number; G: number; tiles: number; grown: number; fog: number; agents: number }>(
        "SELECT game_id, status, revision, G, tiles, grown, fog, agents FROM games ORDER BY created DESC, game_id LIMIT ?",
        limit,
      )
      .toArray()
      .map((r) => ({ ...r, status: r.status as GameSummary["status"], fog: r.fog === 1 }));
  }

  /** Whether a field with this id exists here (routes ask before touching a field object). */
  has(gameId: string): boolean {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM games WHERE game_id = ?", gameId).one().n > 0;
  }
}
