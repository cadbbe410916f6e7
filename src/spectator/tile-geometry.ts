/**
 * The geometry a spectator knows, by tile id, and which of those tiles cover each cell. Under fog
 * it learns tiles as they are reached, in any order; a replay's checkpoints share the coverage
 * (8 bytes a cell, most of a model's memory) until one of them learns a new tile.
 */
import { TileCoverage } from "./coverage";
import type { TileGeometry } from "./types";

export class TileGeometryIndex {
  /** Geometry by tile id (undefined: not known to this spectator); records never change once learnt. */
  private readonly list: Array<TileGeometry | undefined> = [];
  private coverage: TileCoverage;
  private coverageShared = false;

  /** An empty index of a G × G field; with `copyOf`, a copy of that index sharing its coverage until either learns a tile. */
  constructor(G: number, copyOf?: TileGeometryIndex) {
    if (!copyOf) {
      this.coverage = new TileCoverage(G);
      return;
    }
    // The list is sparse under fog, so copied by index.
    for (let t = 0; t < copyOf.list.length; t++) this.list[t] = copyOf.list[t];
    this.coverage = copyOf.coverage;
    this.coverageShared = copyOf.coverageShared = true;
  }

  get(id: number): TileGeometry | undefined {
    return this.list[id];
  }

  /** Learns a tile whose id is not known yet (the caller checks it lies inside the field). */
  add(t: TileGeometry): void {
    this.list[t.id] = t;
    if (this.coverageShared) {
      this.coverage = this.coverage.clone();
      this.coverageShared = false;
    }
    this.coverage.add(t);
  }

  /** Known tiles covering a cell, of any id. */
  tilesAt(cell: number): readonly number[] {
    return this.coverage.tilesAt(cell);
  }

  /** Known tiles sharing a cell with `t`, of any id, ascending. */
  neighbours(t: TileGeometry): number[] {
    return this.coverage.neighbours(t);
  }

  /** Calls `visit` with the tiles of every cell that more than one known tile covers. */
  forEachShared(visit: (tiles: readonly number[]) => void): void {
    this.coverage.forEachShared(visit);
  }
}
