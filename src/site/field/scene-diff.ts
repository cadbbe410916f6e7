import type { FieldScene } from "./scene";

/**
 * How a shown scene differs from another (the one rebuilt from the model): cells whose pixel or
 * shown tile differs, and tiles whose status, solver or shape differs. Zero everywhere when the
 * page shows exactly what the reducer holds; the live page answers it to tests (`sceneDiff`).
 */
export function sceneDifferences(shown: FieldScene, rebuilt: FieldScene): { pixels: number; cells: number; tiles: number } {
  const a = new Uint32Array(shown.image.data.buffer);
  const b = new Uint32Array(rebuilt.image.data.buffer);
  let pixels = 0;
  let cells = 0;
  for (let c = 0; c < a.length; c++) {
    if (a[c] !== b[c]) pixels++;
    if (shown.cellTile[c] !== rebuilt.cellTile[c]) cells++;
  }
  let tiles = Math.abs(shown.tiles.size - rebuilt.tiles.size);
  for (const t of rebuilt.tiles.values()) {
    const s = shown.tiles.get(t.id);
    if (!s || s.status !== t.status || s.agent !== t.agent || s.cells !== t.cells || JSON.stringify(s.rects) !== JSON.stringify(t.rects)) tiles++;
  }
  return { pixels, cells, tiles };
}
