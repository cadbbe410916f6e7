import type { Env } from "../env";

/** One row of `list_games` (SPEC §6.1). */
export interface GameSummary {
  game_id: string;
  status: "generating" | "failed" | "playing" | "solved" | "closed";
  revision: number;
  G: number;
  tiles: number;
  grown: number;
  fog: boolean;
  agents: number;
}

/** Fields known to this server, newest first. The play work backs this with real storage. */
export async function listGames(_env: Env): Promise<GameSummary[]> {
  return [];
}
