import type { Env } from "../env";
import type { RegistryEntry } from "./registry-object";
import type { FieldRules } from "../referee/types";

/** At most this many agent ids per row of `list_games`; `agents_total` counts them all (SPEC §6.1). */
export const LISTED_AGENTS = 100;

/** One row of `list_games` (SPEC §6.1). */
export interface GameSummary {
  game_id: string;
  status: "generating" | "failed" | "playing" | "solved" | "closed";
  revision: number;
  G: number;
  tiles: number;
  grown: number;
  fog: boolean;
  /** The field's rules (SPEC §6.1): whether guesses are accepted, the propagation depth, fog. */
  rules: FieldRules;
  /** Seated agent ids in join order, the first LISTED_AGENTS of them. */
  agents: string[];
  agents_total: number;
  /** Why a `failed` field failed. */
  error?: string;
}

/** The registry is one object: listing all fields is a single query there. */
export const REGISTRY_NAME = "games";

export function registryStub(env: Env): DurableObjectStub<import("./registry-object").RegistryObject> {
  return env.REGISTRY.getByName(REGISTRY_NAME);
}

/** Fields known to this server, newest first. */
export async function listGames(env: Env): Promise<GameSummary[]> {
  return registryStub(env).list();
}

export async function recordGame(env: Env, entry: RegistryEntry): Promise<void> {
  await registryStub(env).upsert(entry);
}

export async function forgetGame(env: Env, gameId: string): Promise<void> {
  await registryStub(env).remove(gameId);
}

/** Whether the field exists; asked before a read touches its object (which would create storage). */
export async function gameExists(env: Env, gameId: string): Promise<boolean> {
  return registryStub(env).has(gameId);
}
