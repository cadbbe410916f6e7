/**
 * Filling: give every new tile a solution that obeys SPEC §2 and agrees with every cell already
 * decided. Tiles are solved one at a time in placement order, each as a problem that also holds
 * the lines of its unfilled neighbours that cross it (look-ahead: a choice that would leave a neighbour with
 * no pattern for some line is refused by propagation). A tile that still cannot be solved is
 * repaired by re-solving it together with its filled neighbours (cells those share with tiles
 * outside the region stay fixed), widening the region up to two layers. A tile that fails even
 * then is dropped (its cells become holes unless other tiles cover them). Search effort is
 * bounded by node counts, never by time, so the outcome is deterministic.
 */
import { Problem, type LineSpec } from "../problem";
import { BitSolver as Solver } from "../bit-solver";
import { lineGroup } from "../tile-problem";
import type { Rng } from "../random";
import type { Canvas, CanvasTile } from "./canvas";

/** Search nodes for a tile alone, and for each widening of a repair region. */
const SINGLE_BUDGET = 100;
const REPAIR_BUDGET = 300;
const REPAIR_LAYERS = 2;

export interface FillStats {
  repaired: number;
  dropped: number;
}

function attempt(canvas: Canvas, search: CanvasTile[], free: Set<number> | null, rng: Rng, budget: number): boolean {
  const inSearch = new Set(search.map((t) => t.key));
  const specs: LineSpec[] = [];
  for (const t of search) {
    for (const line of t.lines) {
      specs.push({ cells: line.cells, group: lineGroup(t.key, line.orientation, line.cells.length), search: true });
    }
  }
  const seen = new Set(inSearch);
  const touched = new Set<number>();
  for (const t of search) for (const c of t.cells) touched.add(c);
  for (const t of search) {
    for (const n of canvas.neighbours(t)) {
      if (seen.has(n)) continue;
      seen.add(n);
      const nt = canvas.tiles[n];
      if (nt.state !== "placed") continue;
      for (const line of nt.lines) {
        // Only the neighbour's lines through the region's cells: those are the ones a choice
        // here can empty; the rest would cost propagation work for little look-ahead.
        if (!line.cells.some((c) => touched.has(c))) continue;
        specs.push({ cells: line.cells, group: lineGroup(nt.key, line.orientation, line.cells.length), search: false });
      }
    }
  }
  const problem = new Problem(specs);
  const fixed = new Int8Array(problem.nCells);
  for (let i = 0; i < problem.nCells; i++) {
    const id = problem.cellIds[i];
    fixed[i] = canvas.fixed[id] && !(free && free.has(id)) ? canvas.solution[id] : -1;
  }
  const solver = new Solver(problem);
  if (!solver.reset(fixed)) return false;
  if (!solver.solveRandom(rng, budget)) return false;
  for (const t of search) {
    for (const c of t.cells) {
      canvas.solution[c] = solver.val[problem.local(c)];
      canvas.fixed[c] = 1;
    }
    t.state = "filled";
  }
  return true;
}

/** Fill one placed tile (with repair); false when it had to be dropped. */
export function fillTile(canvas: Canvas, tile: CanvasTile, rng: Rng, stats: FillStats): boolean {
  if (attempt(canvas, [tile], null, rng, SINGLE_BUDGET)) return true;
  const region = new Map<number, CanvasTile>([[tile.key, tile]]);
  for (let layer = 0; layer < REPAIR_LAYERS; layer++) {
    let grew = false;
    for (const t of [...region.values()]) {
      for (const n of canvas.neighbours(t)) {
        const nt = canvas.tiles[n];
        if (!region.has(n) && nt.state === "filled" && !nt.locked) {
          region.set(n, nt);
          grew = true;
        }
      }
    }
    if (!grew && layer > 0) break;
    const tiles = [...region.values()].sort((a, b) => a.key - b.key);
    const free = new Set<number>();
    const buf: number[] = [];
    for (const t of tiles) {
      for (const c of t.cells) {
        buf.length = 0;
        let ok = true;
        for (const o of canvas.tilesAt(c, buf)) {
          const ot = canvas.tiles[o];
          if (!region.has(o) && !(ot.state === "placed" && !ot.locked)) {
            ok = false;
            break;
          }
        }
        if (ok) free.add(c);
      }
    }
    if (attempt(canvas, tiles, free, rng, REPAIR_BUDGET)) {
      stats.repaired++;
      return true;
    }
  }
  canvas.drop(tile);
  stats.dropped++;
  return false;
}
