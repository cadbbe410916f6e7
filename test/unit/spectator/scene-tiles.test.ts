import { describe, expect, it } from "vitest";
import { generateField, type Field } from "../../../src/engine";
import { packTiles } from "../../../src/spectator";
import { SceneTiles } from "../../../src/site/field/scene-tiles";

/**
 * The page keeps tiles in columns (src/site/field/scene-tiles.ts) and paints each cell from them.
 * The oracle here is the engine's own cell list of every tile, not another scene built the same
 * way: a scene compared only with a twin of itself would share any mistake in the columns.
 */

function cellsCovered(scene: SceneTiles, id: number, G: number): number[] {
  const cells = new Set<number>();
  scene.forEachSpan(id, G, (start, end) => {
    for (let c = start; c < end; c++) cells.add(c);
  });
  return [...cells].sort((a, b) => a - b);
}

function expectSameShapes(scene: SceneTiles, field: Field): void {
  expect(scene.size).toBe(field.tiles.length);
  for (const t of field.tiles) {
    expect(cellsCovered(scene, t.id, field.G), `tile ${t.id}'s cells`).toEqual(t.cellIds);
    const shown = scene.get(t.id)!;
    expect(shown.rects, `tile ${t.id}'s rectangles`).toEqual(t.rects);
    expect(shown.cells).toBe(t.cellIds.length);
  }
}

const geometry = (field: Field) => field.tiles.map((t) => ({ id: t.id, x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects, m: t.m }));

describe("site: the scene's tile columns", () => {
  for (const seed of ["scene-shapes-a", "scene-shapes-b"]) {
    it(`cover exactly each tile's cells of a scatter field (${seed}), from a snapshot's columns or tile by tile in any order`, async () => {
      const field = await generateField({ kind: "scatter", G: 60, seed });
      // The field must hold shapes that are not their whole box, or this proves nothing.
      expect(field.tiles.filter((t) => t.rects.length > 1).length).toBeGreaterThan(2);

      const fromColumns = new SceneTiles();
      const n = field.tiles.length;
      fromColumns.loadColumns({ ...packTiles(geometry(field)), status: "h".repeat(n), solver: new Array(n).fill(-1), revealer: new Array(n).fill(-1) }, []);
      expectSameShapes(fromColumns, field);

      // Tiles also arrive one at a time (reveals, growth), in no particular order.
      const oneByOne = new SceneTiles();
      for (const t of [...geometry(field)].reverse()) oneByOne.set(t, "revealed", null);
      expectSameShapes(oneByOne, field);
    });
  }
});
