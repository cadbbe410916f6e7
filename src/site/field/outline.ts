import type { SceneTile } from "./scene";

/**
 * The outline of a tile's union of rectangles as a Path2D in field coordinates: every cell edge
 * whose neighbour across it lies outside the tile. Built once per tile and cached by the view.
 */
export function tileOutline(tile: SceneTile): Path2D {
  const { w, h } = tile;
  const inside = new Uint8Array(w * h);
  for (const [lx, ly, rw, rh] of tile.rects) {
    for (let y = ly; y < ly + rh; y++) inside.fill(1, y * w + lx, y * w + lx + rw);
  }
  const at = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < w && y < h && inside[y * w + x] === 1;
  const path = new Path2D();
  // Horizontal edges, merged into runs along each row boundary.
  for (let y = 0; y <= h; y++) {
    let start = -1;
    for (let x = 0; x <= w; x++) {
      const edge = x < w && at(x, y) !== at(x, y - 1);
      if (edge && start < 0) start = x;
      if (!edge && start >= 0) {
        path.moveTo(tile.x0 + start, tile.y0 + y);
        path.lineTo(tile.x0 + x, tile.y0 + y);
        start = -1;
      }
    }
  }
  for (let x = 0; x <= w; x++) {
    let start = -1;
    for (let y = 0; y <= h; y++) {
      const edge = y < h && at(x, y) !== at(x - 1, y);
      if (edge && start < 0) start = y;
      if (!edge && start >= 0) {
        path.moveTo(tile.x0 + x, tile.y0 + start);
        path.lineTo(tile.x0 + x, tile.y0 + y);
        start = -1;
      }
    }
  }
  return path;
}
