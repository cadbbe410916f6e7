/**
 * What the agent knows about a field: tile geometry and status from observations, the cells
 * the server holds as known, and every true value the agent has learned (known cells, givens,
 * accepted commits, and the other value of a cell judged wrong). Accepted values are always the
 * solution's, so a learned value stays true even if its owner later retracts it: `truth` only
 * grows, while `serverKnown` follows the server and decides what still needs committing.
 */
import { shapeCellIds, type TileShape } from "../src/engine";
import { decodeKnown } from "../src/referee/delta";

export type TileStatus = "hidden" | "revealed" | "solved";

export interface BoardTile extends TileShape {
  cells: number;
  m: number;
  status: TileStatus;
  /** The agent that solved it, if any. */
  agent: string | null;
  neighbours: number[];
  cellIds: number[];
}

/** A listed tile as `observe` (and `reveal`) describe it (SPEC §6.1). */
export interface TileView extends TileShape {
  cells?: number;
  m?: number;
  status?: string;
  agent?: string | null;
  neighbours?: number[];
}

export interface AgentView {
  id: string;
  group?: string;
  seed_tile?: number | null;
}

export interface Observation {
  game_id?: string;
  status: string;
  revision: number;
  G?: number;
  tiles?: TileView[];
  frontier?: number[];
  known?: { gaps: number[]; values: string };
  agents?: AgentView[];
  grown?: number;
  health?: Health;
  note?: string;
  seconds?: number;
  error?: string;
}

export interface Health {
  state: string;
  rate?: number;
  committed?: number;
  wrong?: number;
}

export class Board {
  G = 0;
  revision = 0;
  status = "playing";
  readonly tiles = new Map<number, BoardTile>();
  readonly truth = new Map<number, 0 | 1>();
  readonly serverKnown = new Set<number>();
  frontier: number[] = [];
  agents: AgentView[] = [];
  /** Cell → tiles covering it, over the tiles seen so far. */
  private readonly cover = new Map<number, number[]>();

  constructor(readonly myAgent: string) {}

  tile(id: number): BoardTile | undefined {
    return this.tiles.get(id);
  }

  tilesOf(cell: number): readonly number[] {
    return this.cover.get(cell) ?? [];
  }

  /** Adds or refreshes a tile from a view (geometry never changes; status and solver do). */
  upsertTile(view: TileView): BoardTile {
    const known = this.tiles.get(view.id);
    if (known) {
      if (view.status === "hidden" || view.status === "revealed" || view.status === "solved") {
        // A status never goes back (hidden → revealed → solved) except through retractions of
        // unsolved cells, which do not change a tile's status.
        known.status = view.status;
      }
      if (view.agent !== undefined) known.agent = view.agent;
      if (view.neighbours) known.neighbours = view.neighbours;
      return known;
    }
    const shape: TileShape = { id: view.id, x0: view.x0, y0: view.y0, w: view.w, h: view.h, rects: view.rects };
    const cellIds = shapeCellIds(shape, this.G);
    const tile: BoardTile = {
      ...shape,
      cells: view.cells ?? cellIds.length,
      m: view.m ?? 0,
      status: (view.status as TileStatus | undefined) ?? "hidden",
      agent: view.agent ?? null,
      neighbours: view.neighbours ?? [],
      cellIds,
    };
    this.tiles.set(view.id, tile);
    for (const c of cellIds) {
      const list = this.cover.get(c);
      if (list) list.push(view.id);
      else this.cover.set(c, [view.id]);
    }
    return tile;
  }

  setKnown(cell: number, value: 0 | 1): void {
    this.truth.set(cell, value);
    this.serverKnown.add(cell);
  }

  applyObservation(o: Observation): void {
    if (typeof o.G === "number") this.G = o.G;
    this.revision = Math.max(this.revision, o.revision);
    this.status = o.status;
    for (const view of o.tiles ?? []) this.upsertTile(view);
    if (o.frontier) this.frontier = [...o.frontier];
    if (o.agents) this.agents = o.agents;
    if (o.known) {
      // The observation is authoritative for the frontier tiles' cells: a retracted cell drops out.
      for (const t of this.frontier) for (const c of this.tiles.get(t)?.cellIds ?? []) this.serverKnown.delete(c);
      for (const [cell, v] of decodeKnown(o.known)) this.setKnown(cell, v);
    }
  }

  /** A tile whose every cell is known on the server is solved (the server says so too). */
  markSolved(ids: readonly number[], by: string | null): void {
    for (const id of ids) {
      const t = this.tiles.get(id);
      if (!t) continue;
      t.status = "solved";
      if (by !== null) t.agent = by;
      for (const c of t.cellIds) if (!this.serverKnown.has(c) && this.truth.has(c)) this.serverKnown.add(c);
    }
    if (ids.length > 0) this.frontier = this.frontier.filter((t) => !ids.includes(t));
  }

  /** Revealed, unsolved tiles on the frontier: where cells can be committed. */
  workTiles(): BoardTile[] {
    return this.frontier.map((id) => this.tiles.get(id)).filter((t): t is BoardTile => t !== undefined && t.status === "revealed");
  }

  /** Hidden tiles on the frontier: what can be revealed. */
  hiddenFrontier(): BoardTile[] {
    return this.frontier.map((id) => this.tiles.get(id)).filter((t): t is BoardTile => t !== undefined && t.status === "hidden");
  }

  /** Cells of a tile that are not known on the server. */
  openCells(tile: BoardTile): number[] {
    return tile.cellIds.filter((c) => !this.serverKnown.has(c));
  }
}
