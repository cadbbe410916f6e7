/**
 * One stage of generation over a region: place (or take) tiles, fill them, choose their givens.
 * Each stage draws from its own streams (`<label>/place`, `/fill`, `/givens`), so a chunk or a
 * ring's seams can be regenerated on its own. The stage is an async generator that yields after
 * bounded units of work (a batch of tiles), reporting its progress in percent; the result does
 * not depend on how the yields are scheduled.
 */
import { rngFor, type Rng } from "../random";
import type { Canvas, CanvasTile } from "./canvas";
import { fillTile, type FillStats } from "./fill";
import { GivensReducer } from "./givens";
import { placeScatterSteps, type PlacementOptions, type Region } from "./placement";

const FILL_BATCH = 16;
const GIVENS_BATCH = 6;

export interface StageSpec {
  label: string;
  region: Region;
  /** Scatter placement options; when absent, `tiles` are the stage's tiles. */
  place?: PlacementOptions;
  tiles?: CanvasTile[];
  /** Place and fill only; givens come later from a `givensOnly` stage. */
  deferGivens?: boolean;
  /** Only choose givens, for every filled tile that has none yet (in canvas order). */
  givensOnly?: boolean;
  /**
   * Stitching: the filled tiles of this generation's earlier stages stay open, so a tile that
   * cannot be filled against them is repaired together with them (only tiles of a field this
   * generation started from stay fixed).
   */
  stitch?: boolean;
}

export interface StageReport extends FillStats {
  placed: number;
  givensDropped: number;
  counts: number;
}

/**
 * The pin sets of a tile: the cells it shares with neighbours before it in reading order (by
 * box corner y0, then x0), and those it shares with neighbours after it. Each set alone must
 * pin the tile, so a solved region pins the tiles along its lower-right edge once their other
 * earlier neighbours are solved, and likewise along its upper-left edge: play can spread from
 * any seed tile in both directions instead of stalling among tiles that each wait for the
 * others. No single neighbour is promised to pin a tile. Alternatives still differ on a shared
 * cell (SPEC §2).
 */
function pinSets(canvas: Canvas, t: CanvasTile): ((c: number) => boolean)[] {
  const before = (o: CanvasTile): boolean => o.y0 < t.y0 || (o.y0 === t.y0 && (o.x0 < t.x0 || (o.x0 === t.x0 && o.key < t.key)));
  const sets = [new Set<number>(), new Set<number>()];
  const buf: number[] = [];
  for (const c of t.cells) {
    if (canvas.cover[c] < 2) continue;
    buf.length = 0;
    for (const o of canvas.tilesAt(c, buf)) if (o !== t.key) sets[before(canvas.tiles[o]) ? 0 : 1].add(c);
  }
  return sets.filter((set) => set.size > 0).map((set) => (c: number) => set.has(c));
}

export async function* runStage(canvas: Canvas, seed: string, spec: StageSpec, report: StageReport): AsyncGenerator<number, CanvasTile[]> {
  const [rPlace, rFill, rGivens] = await Promise.all([
    rngFor(seed, `${spec.label}/place`),
    rngFor(seed, `${spec.label}/fill`),
    rngFor(seed, `${spec.label}/givens`),
  ]);
  // Everything decided before this stage is final (when stitching: only an existing field).
  if (spec.givensOnly) return yield* givensPhase(canvas, canvas.tiles.filter((t) => t.state === "filled" && !t.givens), rGivens, report);
  for (const t of canvas.tiles) if (t.state === "filled") t.locked = spec.stitch ? t.kind === "existing" : true;
  let tiles = spec.tiles ?? [];
  if (spec.place) {
    const steps = placeScatterSteps(canvas, rPlace, spec.region, spec.place);
    for (;;) {
      const r = steps.next();
      if (r.done) {
        tiles = r.value;
        break;
      }
      yield 5;
    }
  }
  report.placed += tiles.length;
  yield 10;

  for (let i = 0; i < tiles.length; i++) {
    if (tiles[i].state === "placed") fillTile(canvas, tiles[i], rFill, report);
    if ((i + 1) % FILL_BATCH === 0) yield 10 + Math.floor((40 * (i + 1)) / tiles.length);
  }
  yield 50;
  if (spec.deferGivens) return tiles.filter((t) => t.state === "filled");
  return yield* givensPhase(canvas, tiles, rGivens, report);
}

async function* givensPhase(canvas: Canvas, tiles: CanvasTile[], rGivens: Rng, report: StageReport): AsyncGenerator<number, CanvasTile[]> {

  // Givens, in stage order; a tile that cannot get valid givens is dropped and the stage tiles
  // next to it are redone (their shared cells changed).
  const inStage = new Set(tiles.map((t) => t.key));
  const queue = tiles.filter((t) => t.state === "filled");
  let done = 0;
  while (queue.length > 0) {
    const t = queue.shift() as CanvasTile;
    if (t.state !== "filled") continue;
    let givens: number[] | null = null;
    if (t.cells.some((c) => canvas.cover[c] >= 2)) {
      const reducer = new GivensReducer({
        shape: { id: t.key, x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects },
        G: canvas.G,
        cells: t.cells,
        solution: canvas.solution,
        isShared: (c) => canvas.cover[c] >= 2,
        pinSets: pinSets(canvas, t),
        m: t.m,
      });
      givens = reducer.run(rGivens);
      report.counts += reducer.counts;
    }
    if (givens) t.givens = givens;
    else {
      const nbs = canvas.neighbours(t);
      canvas.drop(t);
      report.givensDropped++;
      for (const n of nbs) {
        const nt = canvas.tiles[n];
        if (inStage.has(n) && nt.givens && !queue.includes(nt)) {
          nt.givens = null;
          queue.push(nt);
        }
      }
    }
    if (++done % GIVENS_BATCH === 0) yield Math.min(99, 50 + Math.floor((50 * done) / tiles.length));
  }
  return tiles.filter((t) => t.state === "filled");
}
