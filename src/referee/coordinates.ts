import type { RefereeError } from "./types";
import { MAX_COMMIT_CELLS, MAX_RETRACT_CELLS } from "./limits";
import { bad } from "./validate";

/**
 * Cells named by coordinates (SPEC §6, §6.1): `commit` and `retract` take `xy` as well as ids, so a
 * model never computes `id = y·G + x`. They are turned into ids once, before the referee judges,
 * so an xy write is judged, logged and archived exactly like the same write by ids.
 */

export type XyCommit = Array<[number, number, 0 | 1]>;
export type XyRetract = Array<[number, number]>;

type Converted<T> = { ok: true; cells: T } | { ok: false; error: RefereeError };

/** `[x, y, v]` triples of a commit as `[id, v]` pairs on a field of side G. */
export function commitCellsFromXy(G: number, xy: unknown): Converted<Array<[number, 0 | 1]>> {
  const entries = checkList(xy, MAX_COMMIT_CELLS, "commit", "[x, y, 0|1]");
  if (!entries.ok) return entries;
  const cells: Array<[number, 0 | 1]> = [];
  for (let i = 0; i < entries.list.length; i++) {
    const e: unknown = entries.list[i];
    if (!Array.isArray(e) || e.length !== 3) return { ok: false, error: bad(`xy[${i}] must be an [x, y, 0|1] triple`) };
    const id = cellAt(G, e[0], e[1], i);
    if (!id.ok) return id;
    if (e[2] !== 0 && e[2] !== 1) return { ok: false, error: bad(`xy[${i}]: a cell value must be 0 or 1, got ${String(e[2])}`) };
    cells.push([id.id, e[2]]);
  }
  return { ok: true, cells };
}

/** `[x, y]` pairs of a retract as ids on a field of side G. */
export function retractCellsFromXy(G: number, xy: unknown): Converted<number[]> {
  const entries = checkList(xy, MAX_RETRACT_CELLS, "retract", "[x, y]");
  if (!entries.ok) return entries;
  const cells: number[] = [];
  for (let i = 0; i < entries.list.length; i++) {
    const e: unknown = entries.list[i];
    if (!Array.isArray(e) || e.length !== 2) return { ok: false, error: bad(`xy[${i}] must be an [x, y] pair`) };
    const id = cellAt(G, e[0], e[1], i);
    if (!id.ok) return id;
    cells.push(id.id);
  }
  return { ok: true, cells };
}

function checkList(xy: unknown, max: number, tool: string, shape: string): { ok: true; list: unknown[] } | { ok: false; error: RefereeError } {
  if (!Array.isArray(xy) || xy.length === 0) return { ok: false, error: bad(`xy must be a non-empty list of ${shape}`) };
  if (xy.length > max) return { ok: false, error: { code: "too_large", message: `a ${tool} carries at most ${max} cells; this one has ${xy.length}` } };
  return { ok: true, list: xy };
}

/** The id of (x, y), or a refusal naming the pair when it lies outside the field. */
function cellAt(G: number, x: unknown, y: unknown, i: number): { ok: true; id: number } | { ok: false; error: RefereeError } {
  if (!Number.isSafeInteger(x) || !Number.isSafeInteger(y)) return { ok: false, error: bad(`xy[${i}]: x and y must be whole numbers`) };
  const [cx, cy] = [x as number, y as number];
  if (cx < 0 || cy < 0 || cx >= G || cy >= G) {
    return { ok: false, error: bad(`xy[${i}]: (${cx},${cy}) is outside the field (x and y run 0..${G - 1})`) };
  }
  return { ok: true, id: cy * G + cx };
}
