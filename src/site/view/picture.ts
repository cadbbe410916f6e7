import type { LastTile } from "./state";

/**
 * The last revealed tile as a text picture, as the answers draw it for a model (SPEC §6, "What a
 * model reads"): a units-digit ruler of x above, one row per y with y at its start, `0`/`1` for
 * known cells, `.` for unknown ones, `x` for a rejected one, a blank outside the tile.
 */
export function tilePicture(last: LastTile, G: number, known: ReadonlyMap<number, number>, rejected: ReadonlySet<number>): string {
  const { tile } = last;
  const inside = new Set<number>();
  for (const [lx, ly, w, h] of tile.rects) {
    for (let y = ly; y < ly + h; y++) for (let x = lx; x < lx + w; x++) inside.add(y * tile.w + x);
  }
  const pad = String(tile.y0 + tile.h - 1).length;
  let ruler = " ".repeat(pad + 1);
  for (let x = tile.x0; x < tile.x0 + tile.w; x++) ruler += String(x % 10);
  const rows = [ruler];
  for (let y = 0; y < tile.h; y++) {
    let row = `${String(tile.y0 + y).padStart(pad)} `;
    for (let x = 0; x < tile.w; x++) {
      if (!inside.has(y * tile.w + x)) row += " ";
      else {
        const cell = (tile.y0 + y) * G + tile.x0 + x;
        const v = known.get(cell);
        row += rejected.has(cell) && v === undefined ? "x" : v === undefined ? "." : String(v);
      }
    }
    rows.push(row.trimEnd());
  }
  return rows.join("\n");
}
