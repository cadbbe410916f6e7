/**
 * A field in two typed arrays, for handing the archive's field to a worker thread: structured
 * cloning thousands of tile objects (or the archive's rows with their strings) costs each worker
 * far more memory and time than two flat arrays it rebuilds the tiles from.
 *
 * `solution` is the field's solution as is; `shapes` holds, per tile in id order:
 * x0, y0, w, h, m, the rectangle count r, 4·r rectangle numbers, the given count g, g cell ids.
 */
import { shapeCellIds } from "../../engine/geometry";
import type { Field, Rect, SolutionCount, Tile } from "../../engine/types";

export interface FieldTransfer {
  G: number;
  solution: Uint8Array;
  shapes: Int32Array;
}

export function encodeField(field: Field): FieldTransfer {
  let size = 0;
  for (const t of field.tiles) size += 7 + 4 * t.rects.length + t.givens.length;
  const shapes = new Int32Array(size);
  let at = 0;
  for (const t of field.tiles) {
    shapes[at++] = t.x0;
    shapes[at++] = t.y0;
    shapes[at++] = t.w;
    shapes[at++] = t.h;
    shapes[at++] = t.m;
    shapes[at++] = t.rects.length;
    for (const r of t.rects) for (let k = 0; k < 4; k++) shapes[at++] = r[k];
    shapes[at++] = t.givens.length;
    for (const c of t.givens) shapes[at++] = c;
  }
  return { G: field.G, solution: field.solution, shapes };
}

/** The field again: tiles with ids 0, 1, … and their cell ids, the same solution array. */
export function decodeField(transfer: FieldTransfer): Field {
  const { G, shapes } = transfer;
  const tiles: Tile[] = [];
  for (let at = 0; at < shapes.length; ) {
    const x0 = shapes[at++];
    const y0 = shapes[at++];
    const w = shapes[at++];
    const h = shapes[at++];
    const m = shapes[at++] as SolutionCount;
    const rects: Rect[] = [];
    for (let r = shapes[at++]; r > 0; r--, at += 4) rects.push([shapes[at], shapes[at + 1], shapes[at + 2], shapes[at + 3]]);
    const g = shapes[at++];
    const givens = Array.from(shapes.subarray(at, at + g));
    at += g;
    const shape = { id: tiles.length, x0, y0, w, h, rects };
    tiles.push({ ...shape, cellIds: shapeCellIds(shape, G), m, givens });
  }
  return { G, tiles, solution: transfer.solution };
}
