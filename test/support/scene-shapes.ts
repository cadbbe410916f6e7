// What the page draws, checked against the engine's own tile geometry. Comparing one scene with
// another built by the same code would share its mistakes; the engine's cell lists do not.
import type { Page } from "playwright-core";

/**
 * How many cells the page draws for a tile that does not cover them (or for none while one does),
 * and how many tiles it holds with other rectangles than the field's.
 */
export async function shapeMismatches(page: Page, field: { G: number; tiles: Array<{ id: number; rects: number[][]; cellIds: number[] }> }): Promise<{ cells: number; tiles: number }> {
  const shown = await page.evaluate(() => {
    const scene = window.mosaic!.scene!;
    return { cellTile: [...scene.cellTile], rects: [...scene.tiles.values()].map((t) => [t.id, t.rects] as const) };
  });
  const covering = Array.from({ length: field.G * field.G }, () => new Set<number>());
  for (const t of field.tiles) for (const c of t.cellIds) covering[c].add(t.id);
  let cells = 0;
  shown.cellTile.forEach((id, c) => {
    if (id === -1 ? covering[c].size > 0 : !covering[c].has(id)) cells++;
  });
  const tiles = shown.rects.filter(([id, rects]) => JSON.stringify(rects) !== JSON.stringify(field.tiles[id].rects)).length;
  return { cells, tiles };
}
