import { CoverageIndex } from "../engine/geometry";
import type { Field, Tile } from "../engine/types";
import type { ForcingOracle } from "./forcing";
import { unpackInto } from "./pack";
import { sortedHas } from "./sorted";
import { SpatialIndex } from "./spatial";

export const HIDDEN = 0;
export const REVEALED = 1;
export const SOLVED = 2;
export type TileStatusName = "hidden" | "revealed" | "solved";
export const STATUS_NAMES: readonly TileStatusName[] = ["hidden", "revealed", "solved"];

/** Origin of a known cell: a given of a revealed tile, or the index of the committing machine (≥ 0). */
export const ORIGIN_NONE = -1;
export const ORIGIN_GIVEN = -2;

/** The board's play state as plain data (referee snapshots); arrays packed with `packInts`. */
export interface BoardSnapshot {
  tiles: number;
  status: string;
  solver: string;
  revealer: string;
  changedAt: string;
  statusAt: string;
  unknown: string;
  known: string;
  origin: string;
  givenShown: string;
  cellAt: string;
  cellBy: string;
  solvedOrder: number[];
  knownCount: number;
}

/**
 * The field's play state: which tiles are hidden/revealed/solved and by whom, which cells are
 * known and where their value came from, and when each tile and cell last changed. Mutations
 * record what they touch (tiles, tile statuses, cells); the façade stamps those with the new
 * revision once a write is applied, so scoped conflicts (SPEC §4.9) cost O(batch) to check.
 */
export class Board {
  readonly G: number;
  /** The board's own list (growth appends to it). */
  readonly tiles: Tile[];
  solution: Uint8Array;
  readonly coverage: CoverageIndex;
  readonly spatial: SpatialIndex;
  status: Uint8Array;
  /** Agent index that solved / revealed each tile, -1 if none. */
  solver: Int32Array;
  revealer: Int32Array;
  /** Revision at which each tile last changed (status or one of its cells). */
  changedAt: Int32Array;
  /** Revision at which each tile's status last changed (revealed, solved, or grown into being). */
  statusAt: Int32Array;
  /** Unknown cells left per tile. */
  unknown: Int32Array;
  /** -1 unknown, else the cell's accepted value. */
  readonly known: Int8Array;
  readonly origin: Int32Array;
  /** 1 when the cell is a given of some revealed tile. */
  readonly givenShown: Uint8Array;
  /** Revision at which each cell last became known or was retracted (0: never). */
  readonly cellAt: Int32Array;
  /**
   * Agent index of the commit or retract that last changed each cell (-1: never, or a given): a
   * retract conflicts only with another session of its own machine (SPEC §4.9).
   */
  readonly cellBy: Int32Array;
  /** Solved tiles in the order they were solved. */
  readonly solvedOrder: number[] = [];
  knownCount = 0;
  /** Tiles, tile statuses and cells touched by the write in progress. */
  readonly touched = new Set<number>();
  private readonly statusTouched = new Set<number>();
  private readonly cellsTouched: number[] = [];
  private readonly neighbourCache: Array<number[] | undefined>;

  constructor(field: Field, readonly oracle: ForcingOracle) {
    this.G = field.G;
    this.tiles = [...field.tiles];
    this.solution = field.solution;
    const T = field.tiles.length;
    this.coverage = new CoverageIndex(field.G);
    this.spatial = new SpatialIndex(field.G);
    this.status = new Uint8Array(T);
    this.solver = new Int32Array(T).fill(-1);
    this.revealer = new Int32Array(T).fill(-1);
    this.changedAt = new Int32Array(T);
    this.statusAt = new Int32Array(T);
    this.unknown = new Int32Array(T);
    this.neighbourCache = new Array(T);
    const cells = field.G * field.G;
    this.known = new Int8Array(cells).fill(-1);
    this.origin = new Int32Array(cells).fill(ORIGIN_NONE);
    this.givenShown = new Uint8Array(cells);
    this.cellAt = new Int32Array(cells);
    this.cellBy = new Int32Array(cells).fill(-1);
    for (let i = 0; i < T; i++) this.register(field.tiles[i], i);
  }

  private register(tile: Tile, index: number): void {
    if (tile.id !== index) throw new Error(`tile at index ${index} has id ${tile.id}`);
    this.coverage.addTile(index, tile.cellIds);
    this.spatial.add(index, tile);
    this.unknown[index] = tile.cellIds.length;
    this.oracle.addTile(tile);
  }

  /**
   * Growth (SPEC §5): append tiles (ids continuing) and take the solution extended to their
   * cells. Existing tiles and known cells are untouched; tiles the new ones overlap get their
   * neighbour lists recomputed. Returns the existing tiles the new ones overlap.
   */
  addTiles(tiles: readonly Tile[], solution: Uint8Array): number[] {
    const first = this.tiles.length;
    const T = first + tiles.length;
    this.status = grow(this.status, T, 0);
    this.solver = grow(this.solver, T, -1);
    this.revealer = grow(this.revealer, T, -1);
    this.changedAt = grow(this.changedAt, T, 0);
    this.statusAt = grow(this.statusAt, T, 0);
    this.unknown = grow(this.unknown, T, 0);
    this.solution = solution;
    const touchedOld = new Set<number>();
    tiles.forEach((tile, i) => {
      this.tiles.push(tile);
      this.register(tile, first + i);
      this.touched.add(first + i);
      this.statusTouched.add(first + i);
      for (const c of tile.cellIds) {
        if (this.known[c] !== -1) this.unknown[first + i]--;
        for (const t of this.coverage.tilesOf(c)) if (t < first) touchedOld.add(t);
      }
    });
    for (const t of touchedOld) this.neighbourCache[t] = undefined;
    return [...touchedOld].sort((a, b) => a - b);
  }

  /**
   * Loads a snapshot into a board built on the same tiles, and brings the forcing oracle to the
   * same knowledge: the revealed tiles and the known cells (propagation is a closure of exactly
   * these, so the order in which they are given does not matter).
   */
  load(s: BoardSnapshot): void {
    if (s.tiles !== this.tiles.length) throw new Error(`snapshot has ${s.tiles} tiles, the board ${this.tiles.length}`);
    unpackInto(s.status, this.status);
    unpackInto(s.solver, this.solver);
    unpackInto(s.revealer, this.revealer);
    unpackInto(s.changedAt, this.changedAt);
    unpackInto(s.statusAt, this.statusAt);
    unpackInto(s.unknown, this.unknown);
    unpackInto(s.known, this.known);
    unpackInto(s.origin, this.origin);
    unpackInto(s.givenShown, this.givenShown);
    unpackInto(s.cellAt, this.cellAt);
    unpackInto(s.cellBy, this.cellBy);
    this.solvedOrder.length = 0;
    for (const t of s.solvedOrder) this.solvedOrder.push(t);
    this.knownCount = s.knownCount;
    for (let t = 0; t < this.tiles.length; t++) if (this.status[t] !== HIDDEN) this.oracle.reveal(t);
    for (let c = 0; c < this.known.length; c++) if (this.known[c] !== -1) this.oracle.setKnown(c, this.known[c] as 0 | 1);
  }

  get tileCount(): number {
    return this.tiles.length;
  }

  inField(cell: number): boolean {
    return Number.isInteger(cell) && cell >= 0 && cell < this.G * this.G;
  }

  neighbours(tileId: number): number[] {
    let n = this.neighbourCache[tileId];
    if (!n) {
      n = this.coverage.neighbours(tileId);
      this.neighbourCache[tileId] = n;
    }
    return n;
  }

  /** Is `cell` one of the givens of `tileId`? (givens are ascending) */
  isGivenOf(tileId: number, cell: number): boolean {
    return sortedHas(this.tiles[tileId].givens, cell);
  }

  /** `agent`: the committing agent's index, -1 for a given. */
  setKnown(cell: number, value: 0 | 1, origin: number, agent: number): void {
    this.known[cell] = value;
    this.origin[cell] = origin;
    this.cellBy[cell] = agent;
    this.knownCount++;
    this.cellsTouched.push(cell);
    for (const t of this.coverage.tilesOf(cell)) {
      this.unknown[t]--;
      this.touched.add(t);
    }
    this.oracle.setKnown(cell, value);
  }

  clearKnown(cell: number, agent: number): void {
    this.known[cell] = -1;
    this.origin[cell] = ORIGIN_NONE;
    this.cellBy[cell] = agent;
    this.knownCount--;
    this.cellsTouched.push(cell);
    for (const t of this.coverage.tilesOf(cell)) {
      this.unknown[t]++;
      this.touched.add(t);
    }
    this.oracle.clearKnown(cell);
  }

  /** Reveal a hidden tile: its givens become known. */
  reveal(tileId: number, agent: number): void {
    this.status[tileId] = REVEALED;
    this.revealer[tileId] = agent;
    this.touched.add(tileId);
    this.statusTouched.add(tileId);
    this.oracle.reveal(tileId);
    for (const cell of this.tiles[tileId].givens) {
      this.givenShown[cell] = 1;
      if (this.known[cell] === -1) this.setKnown(cell, this.solution[cell] as 0 | 1, ORIGIN_GIVEN, -1);
    }
  }

  /** A revealed tile with no unknown cell left: mark it solved. */
  markSolved(tileId: number, agent: number): void {
    this.status[tileId] = SOLVED;
    this.solver[tileId] = agent;
    this.solvedOrder.push(tileId);
    this.touched.add(tileId);
    this.statusTouched.add(tileId);
  }

  /** Revealed, unsolved tiles covering `cell` whose cells are now all known (ascending). */
  completedAt(cell: number): number[] {
    const out: number[] = [];
    for (const t of this.coverage.tilesOf(cell)) if (this.status[t] === REVEALED && this.unknown[t] === 0) out.push(t);
    return out;
  }

  /** Tiles covering a cell, ascending. */
  tilesOf(cell: number): number[] {
    return this.coverage.tilesOf(cell);
  }

  /** Stamp every tile, tile status and cell touched by the write just applied with its revision. */
  stampTouched(rev: number): void {
    for (const t of this.touched) this.changedAt[t] = rev;
    for (const t of this.statusTouched) this.statusAt[t] = rev;
    for (const c of this.cellsTouched) this.cellAt[c] = rev;
    this.touched.clear();
    this.statusTouched.clear();
    this.cellsTouched.length = 0;
  }
}

function grow<A extends Uint8Array | Int32Array>(arr: A, length: number, fill: number): A {
  const out = new (arr.constructor as { new (n: number): A })(length);
  out.fill(fill);
  out.set(arr);
  return out;
}
