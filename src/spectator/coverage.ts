import type { TileGeometry } from "./types";

/**
 * Which known tiles cover each cell. Unlike the engine's index, tiles may arrive in any order: a
 * spectator under fog learns geometry as tiles are reached. Most cells have one or two tiles, so
 * those live in typed arrays and any further ones in a map; neighbour queries de-duplicate with
 * per-tile stamps instead of sets, so a page rebuilds 12,000 tiles' reach from a snapshot fast.
 */
export class TileCoverage {
  private readonly first: Int32Array;
  /** The second tile of a shared cell (most shared cells have two); a third and more in `extra`. */
  private readonly second: Int32Array;
  private readonly extra = new Map<number, number[]>();
  /** Per-tile marks for de-duplicating neighbours without a Set. */
  private stamp = new Int32Array(0);
  private epoch = 0;
  /** One more than the highest tile id added. */
  private tileCapacity = 0;

  constructor(
    readonly G: number,
    copyOf?: TileCoverage,
  ) {
    if (copyOf) {
      this.first = copyOf.first.slice();
      this.second = copyOf.second.slice();
      for (const [cell, more] of copyOf.extra) this.extra.set(cell, [...more]);
      this.tileCapacity = copyOf.tileCapacity;
      return;
    }
    this.first = new Int32Array(G * G).fill(-1);
    this.second = new Int32Array(G * G).fill(-1);
  }

  /** An independent copy. */
  clone(): TileCoverage {
    return new TileCoverage(this.G, this);
  }

  add(t: TileGeometry): void {
    if (t.id >= this.tileCapacity) this.tileCapacity = t.id + 1;
    const { first, second, extra, G } = this;
    const id = t.id;
    for (const [rx, ry, rw, rh] of t.rects) {
      for (let y = t.y0 + ry; y < t.y0 + ry + rh; y++) {
        const row = y * G + t.x0 + rx;
        for (let cell = row; cell < row + rw; cell++) {
          if (first[cell] === -1) first[cell] = id;
          else if (first[cell] === id) continue;
          else if (second[cell] === -1) second[cell] = id;
          else if (second[cell] !== id) {
            const more = extra.get(cell);
            if (!more) extra.set(cell, [id]);
            else if (!more.includes(id)) more.push(id);
          }
        }
      }
    }
  }

  /**
   * Calls `fn` with the tiles of every cell two or more known tiles share (tiles are neighbours
   * exactly through such cells).
   */
  forEachShared(fn: (tiles: readonly number[]) => void): void {
    const { first, second, extra } = this;
    for (let cell = 0; cell < second.length; cell++) {
      if (second[cell] === -1) continue;
      const more = extra.get(cell);
      fn(more ? [first[cell], second[cell], ...more] : [first[cell], second[cell]]);
    }
  }

  /** Known tiles covering a cell (in arrival order; empty for a hole or an unreached area). */
  tilesAt(cell: number): number[] {
    const head = this.first[cell];
    if (head === -1 || head === undefined) return [];
    const next = this.second[cell];
    if (next === -1) return [head];
    const more = this.extra.get(cell);
    return more ? [head, next, ...more] : [head, next];
  }

  /** Known tiles sharing a cell with `t`, ascending. */
  neighbours(t: TileGeometry): number[] {
    const out: number[] = [];
    const epoch = this.nextEpoch();
    if (this.stamp.length < this.tileCapacity) this.growStamp(this.tileCapacity);
    const { first, second, extra, G, stamp } = this;
    stamp[t.id] = epoch;
    for (const [rx, ry, rw, rh] of t.rects) {
      for (let y = t.y0 + ry; y < t.y0 + ry + rh; y++) {
        const row = y * G + t.x0 + rx;
        for (let cell = row; cell < row + rw; cell++) {
          const head = first[cell];
          if (head === -1) continue;
          if (this.stamp[head] !== epoch) {
            this.stamp[head] = epoch;
            out.push(head);
          }
          const next = second[cell];
          if (next === -1) continue;
          if (this.stamp[next] !== epoch) {
            this.stamp[next] = epoch;
            out.push(next);
          }
          const more = extra.get(cell);
          if (more) {
            for (const o of more) {
              if (this.stamp[o] !== epoch) {
                this.stamp[o] = epoch;
                out.push(o);
              }
            }
          }
        }
      }
    }
    return out.sort((a, b) => a - b);
  }

  private nextEpoch(): number {
    if (++this.epoch === 0x7fffffff) {
      this.stamp.fill(0);
      this.epoch = 1;
    }
    return this.epoch;
  }

  private growStamp(n: number): void {
    const next = new Int32Array(Math.max(n, this.stamp.length * 2, 1024));
    next.set(this.stamp);
    this.stamp = next;
  }
}
