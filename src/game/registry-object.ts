import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { LISTED_AGENTS, type GameSummary } from "./registry";
import type { FieldRules } from "../referee/types";

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
      // Added later: the listed agent ids (JSON) and a failed field's reason; older tables gain them.
      const columns = new Set(this.sql.exec<{ name: string }>("PRAGMA table_info(games)").toArray().map((c) => c.name));
      if (!columns.has("agent_ids")) this.sql.exec("ALTER TABLE games ADD COLUMN agent_ids TEXT NOT NULL DEFAULT '[]'");
      if (!columns.has("error")) this.sql.exec("ALTER TABLE games ADD COLUMN error TEXT");
      if (!columns.has("rules")) this.sql.exec("ALTER TABLE games ADD COLUMN rules TEXT");
    });
  }

  /** Inserts or refreshes a field's row. The creation time of the first report is kept. */
  upsert(e: RegistryEntry): void {
    this.sql.exec(
      `INSERT INTO games (game_id, created, status, revision, G, tiles, grown, fog, agents, agent_ids, error, rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(game_id) DO UPDATE SET status = excluded.status, revision = excluded.revision, G = excluded.G,
         tiles = excluded.tiles, grown = excluded.grown, fog = excluded.fog, agents = excluded.agents,
         agent_ids = excluded.agent_ids, error = excluded.error, rules = excluded.rules`,
      e.game_id, e.created, e.status, e.revision, e.G, e.tiles, e.grown, e.fog ? 1 : 0, e.agents_total,
      JSON.stringify(e.agents.slice(0, LISTED_AGENTS)), e.error ?? null, JSON.stringify(e.rules),
    );
  }

  remove(gameId: string): void {
    this.sql.exec("DELETE FROM games WHERE game_id = ?", gameId);
  }

  /** Newest first. */
  list(limit = 200): GameSummary[] {
    type Row = { game_id: string; status: string; revision: number; G: number; tiles: number; grown: number; fog: number; agents: number; agent_ids: string; error: string | null; rules: string | null };
    return this.sql
      .exec<Row>(
        "SELECT game_id, status, revision, G, tiles, grown, fog, agents, agent_ids, error, rules FROM games ORDER BY created DESC, game_id LIMIT ?",
        limit,
      )
      .toArray()
      .map((r) => ({
        game_id: r.game_id,
        status: r.status as GameSummary["status"],
        revision: r.revision,
        G: r.G,
        tiles: r.tiles,
        grown: r.grown,
        fog: r.fog === 1,
        rules: rulesOf(r.rules, r.fog === 1),
        agents: agentIds(r.agent_ids),
        agents_total: r.agents,
        ...(r.error !== null ? { error: r.error } : {}),
      }));
  }

  /** Whether a field with this id exists here (routes ask before touching a field object). */
  has(gameId: string): boolean {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM games WHERE game_id = ?", gameId).one().n > 0;
  }
}

/**
 * A row's stored rules; a row written before rules were listed holds none until its field reports
 * again (at its next write): until then, the defaults with the row's fog.
 */
function rulesOf(json: string | null, fog: boolean): FieldRules {
  try {
    const r = JSON.parse(json ?? "null") as Partial<FieldRules> | null;
    if (r && (r.guess === "accept" || r.guess === "reject") && (r.depth === 0 || r.depth === 1 || r.depth === 2) && typeof r.fog === "boolean") {
      return { guess: r.guess, depth: r.depth, fog: r.fog };
    }
  } catch {
    // fall through to the defaults
  }
  return { guess: "accept", depth: 0, fog };
}

/** A stored JSON list of agent ids (never trusted blindly: a bad value lists none). */
function agentIds(json: string): string[] {
  try {
    const ids: unknown = JSON.parse(json);
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}
