// The state of a field as anyone can read it (SPEC §10: GET /api/games/:id/tiles?rect=…), and the
// state its public log implies (SPEC §9: every state change is an event). The fault suites compare
// the two: a write that changed state without being logged, or was logged without changing it,
// shows up as a difference.
import type { Field } from "../../src/engine/types";
import type { LoggedEvent } from "./event-log";
import { knownCells } from "./oracle-agent";

type TileStatus = "hidden" | "revealed" | "solved";

export interface FieldState {
  revision: number;
  /** Known cells and their values. */
  known: Map<number, number>;
  /** Tiles that are not hidden: their status and (solved) their solver. */
  tiles: Map<number, { status: TileStatus; agent: string | null }>;
}

interface PublicTilesAnswer {
  revision: number;
  tiles: Array<{ id: number; status: TileStatus; agent: string | null }>;
  known: { gaps: number[]; values: string };
}

/** The whole field's public state (one rectangle: fields up to 256 × 256). */
export async function readPublicState(baseUrl: string, gameId: string, G: number): Promise<FieldState> {
  const url = `${baseUrl}/api/games/${encodeURIComponent(gameId)}/tiles?rect=0,0,${G},${G}`;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  const answer = (await res.json()) as PublicTilesAnswer;
  const ids = [...knownCells(answer.known)];
  const known = new Map(ids.map((id, i) => [id, Number(answer.known.values[i])]));
  const tiles = new Map(answer.tiles.filter((t) => t.status !== "hidden").map((t) => [t.id, { status: t.status, agent: t.status === "solved" ? t.agent : null }]));
  return { revision: answer.revision, known, tiles };
}

/**
 * The state the log implies, computed from the oracle field (geometry, givens, solution) and the
 * events alone: a reveal makes its tile's givens known, a commit its accepted cells, a retract
 * forgets its retracted cells; a tile named in an event's `solved` is solved by that event's agent.
 */
export function stateFromLog(field: Field, events: LoggedEvent[]): FieldState {
  const known = new Map<number, number>();
  const tiles = new Map<number, { status: TileStatus; agent: string | null }>();
  const ids = (list: unknown): number[] => ((list as Array<number | { id: number }> | undefined) ?? []).map((x) => (typeof x === "number" ? x : x.id));
  for (const e of events) {
    if (e.type === "reveal") {
      const tile = Number(e.tile);
      for (const c of field.tiles[tile].givens) known.set(c, field.solution[c]);
      if (!tiles.has(tile)) tiles.set(tile, { status: "revealed", agent: null });
    }
    for (const c of (e.type === "commit" ? (e.accepted as Array<{ id: number; v: number }> | undefined) : undefined) ?? []) known.set(c.id, c.v);
    if (e.type === "retract") for (const c of ids(e.retracted)) known.delete(c);
    for (const t of ids(e.solved)) tiles.set(t, { status: "solved", agent: e.agent ?? null });
  }
  return { revision: events.length, known, tiles };
}

/** Every difference between two states, in words (empty: the same). */
export function stateDifferences(expected: FieldState, actual: FieldState): string[] {
  const out: string[] = [];
  if (expected.revision !== actual.revision) out.push(`revision ${actual.revision}, the log has ${expected.revision} events`);
  for (const [c, v] of expected.known) if (actual.known.get(c) !== v) out.push(`cell ${c}: ${String(actual.known.get(c) ?? "unknown")}, the log says ${v}`);
  for (const [c, v] of actual.known) if (!expected.known.has(c)) out.push(`cell ${c} is known (${v}) but no logged event made it so`);
  for (const [t, s] of expected.tiles) {
    const a = actual.tiles.get(t);
    if (a?.status !== s.status || a.agent !== s.agent) out.push(`tile ${t}: ${a ? `${a.status} by ${String(a.agent)}` : "hidden"}, the log says ${s.status} by ${String(s.agent)}`);
  }
  for (const [t, a] of actual.tiles) if (!expected.tiles.has(t)) out.push(`tile ${t} is ${a.status} but no logged event made it so`);
  return out.slice(0, 20);
}
