/**
 * Tiles bucketed by bounding box on a coarse grid, so that rectangle and radius queries cost
 * in proportion to the area asked about, never to the field. Tiles are only appended
 * (growth adds tiles with new ids), matching the CoverageIndex.
 */
export interface Box {
  x0: number;
  y0: number;
  w: number;
  h: number;
}

const BUCKET = 32;

export class SpatialIndex {
  private readonly side: number;
  private readonly buckets: number[][];
  private readonly boxes: Box[] = [];
  /** Per-tile stamp of the last query that saw it: dedupes tiles spanning several buckets. */
  private stamps = new Int32Array(0);
  private stamp = 0;

  constructor(readonly G: number) {
    this.side = Math.max(1, Math.ceil(G / BUCKET));
    this.buckets = Array.from({ length: this.side * this.side }, () => []);
  }

  add(tileId: number, box: Box): void {
    if (tileId !== this.boxes.length) throw new Error(`tile ${tileId} added out of order`);
    this.boxes.push({ x0: box.x0, y0: box.y0, w: box.w, h: box.h });
    const bx0 = Math.floor(box.x0 / BUCKET);
    const by0 = Math.floor(box.y0 / BUCKET);
    const bx1 = Math.floor((box.x0 + box.w - 1) / BUCKET);
    const by1 = Math.floor((box.y0 + box.h - 1) / BUCKET);
    for (let by = by0; by <= by1; by++) for (let bx = bx0; bx <= bx1; bx++) this.buckets[by * this.side + bx].push(tileId);
  }

  /** Tiles whose box intersects [x, x+w) × [y, y+h), ascending by id. */
  query(x: number, y: number, w: number, h: number): number[] {
    const out: number[] = [];
    this.newStamp();
    this.collect(x, y, w, h, out);
    return out.sort((a, b) => a - b);
  }

  /**
   * Tiles whose box intersects any of the given boxes grown by `margin` on every side, each once,
   * ascending by id: one pass over the buckets those boxes touch.
   */
  queryAround(boxes: Iterable<Box>, margin: number): number[] {
    const out: number[] = [];
    this.newStamp();
    for (const b of boxes) this.collect(b.x0 - margin, b.y0 - margin, b.w + 2 * margin, b.h + 2 * margin, out);
    return out.sort((a, b) => a - b);
  }

  private newStamp(): void {
    if (this.stamps.length < this.boxes.length) {
      const grown = new Int32Array(Math.max(this.boxes.length, this.stamps.length * 2));
      grown.set(this.stamps);
      this.stamps = grown;
    }
    this.stamp++;
    if (this.stamp === 0x7fffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }

  /** Push tiles meeting the rectangle not yet seen under the current stamp. */
  private collect(x: number, y: number, w: number, h: number, out: number[]): void {
    if (w <= 0 || h <= 0) return;
    const bx0 = Math.max(0, Math.floor(x / BUCKET));
    const by0 = Math.max(0, Math.floor(y / BUCKET));
    const bx1 = Math.min(this.side - 1, Math.floor((x + w - 1) / BUCKET));
    const by1 = Math.min(this.side - 1, Math.floor((y + h - 1) / BUCKET));
    for (let by = by0; by <= by1; by++) {
      for (let bx = bx0; bx <= bx1; bx++) {
        for (const id of this.buckets[by * this.side + bx]) {
          if (this.stamps[id] === this.stamp) continue;
          const b = this.boxes[id];
          if (b.x0 < x + w && x < b.x0 + b.w && b.y0 < y + h && y < b.y0 + b.h) {
            this.stamps[id] = this.stamp;
            out.push(id);
          }
        }
      }
    }
  }

  /** The bounding box a tile was registered with. */
  box(tileId: number): Box {
    return this.boxes[tileId];
  }
}

/**
 * Chebyshev distance between the nearest cells of two boxes: 0 when they overlap, 1 when they
 * touch side by side, d when the closest cells are d steps apart.
 */
export function boxGap(a: Box, b: Box): number {
  const dx = Math.max(0, b.x0 - (a.x0 + a.w - 1), a.x0 - (b.x0 + b.w - 1));
  const dy = Math.max(0, b.y0 - (a.y0 + a.h - 1), a.y0 - (b.y0 + b.h - 1));
  return Math.max(dx, dy);
}
