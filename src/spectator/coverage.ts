import { tileCells } from "./codec";
import type { TileGeometry } from "./types";

/**
 * Which known tiles cover each cell. Unlike the engine's index, tiles may arrive in any order: a
 * spectator under fog learns geometry as tiles are reached. Most cells have one tile, so the
 * first lives in a typed array and the rest in a map.
 */
export class TileCoverage {
  private readonly first: Int32Array;
  private readonly extra = new Map<number, number[]>();

  constructor(readonly G: number) {
    this.first = new Int32Array(G * G).fill(-1);
  }

  add(t: TileGeometry): void {
    for (const cell of tileCells(t, this.G)) {
      const head = this.first[cell];
      if (head === -1) this.first[cell] = t.id;
      else if (head !== t.id) {
        const more = this.extra.get(cell);
        if (!more) this.extra.set(cell, [t.id]);
        else if (!more.includes(t.id)) more.push(t.id);
      }
    }
  }

  /** Known tiles covering a cell (in arrival order; empty for a hole or an unreached area). */
  tilesAt(cell: number): number[] {
    const head = this.first[cell];
    if (head === -1 || head === undefined) return [];
    const more = this.extra.get(cell);
    return more ? [head, ...more] : [head];
  }

  /** Known tiles sharing a cell with `t`, ascending. */
  neighbours(t: TileGeometry): number[] {
    const seen = new Set<number>();
    for (const cell of tileCells(t, this.G)) for (const other of this.tilesAt(cell)) if (other !== t.id) seen.add(other);
    return [...seen].sort((a, b) => a - b);
  }
}
