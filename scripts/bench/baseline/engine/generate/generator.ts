/**
 * The public generation API: `generateField` (all at once), `createFieldGenerator` (resumable,
 * in bounded steps, for a Durable Object that must keep answering requests) and `generateRing`
 * (one more ring of chunks around a growing field, SPEC §5).
 */
import type { Field, Tile } from "../types";
import { Canvas } from "./canvas";
import { placeGrid, ringStages, scatterStages } from "./layout";
import { resolveParams, type FieldParams, type ResolvedParams } from "./params";
import { runStage, type StageReport, type StageSpec } from "./stage";

export interface FieldGenerator {
  /** Do one bounded unit of work; resolves true when the field is complete. */
  step(): Promise<boolean>;
  /** Units done and planned (the plan is fixed once the generator starts). */
  progress(): { done: number; total: number };
  /** The generated field; throws before `step()` has resolved true. */
  result(): Field;
  /** Counters about the run (placements, repairs, drops, solver counts). */
  report(): StageReport;
}

export function emptyReport(): StageReport {
  return { placed: 0, repaired: 0, dropped: 0, givensDropped: 0, counts: 0 };
}

/** Live tiles in canvas order become the field's tiles, with ids 0, 1, 2, … from `firstId`. */
export function canvasTiles(canvas: Canvas, fromKey = 0, firstId = 0): Tile[] {
  const tiles: Tile[] = [];
  for (let k = fromKey; k < canvas.tiles.length; k++) {
    const t = canvas.tiles[k];
    if (t.state !== "filled" || !t.givens) continue;
    tiles.push({
      id: firstId + tiles.length,
      x0: t.x0,
      y0: t.y0,
      w: t.w,
      h: t.h,
      rects: t.rects.map((r) => [r[0], r[1], r[2], r[3]]),
      cellIds: [...t.cells],
      m: t.m,
      givens: [...t.givens],
    });
  }
  return tiles;
}

function finalSolution(canvas: Canvas): Uint8Array {
  const solution = canvas.solution.slice();
  for (let c = 0; c < solution.length; c++) if (canvas.cover[c] === 0) solution[c] = 0;
  return solution;
}

/** Rebuild a working canvas from a field (its tiles become locked, filled tiles). */
export function canvasFromField(field: Field): Canvas {
  const canvas = new Canvas(field.G);
  for (const t of field.tiles) {
    const ct = canvas.addTile({ x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects }, "existing", t.m, t.cellIds);
    ct.state = "filled";
    ct.locked = true;
    ct.givens = [...t.givens];
    for (const c of t.cellIds) {
      canvas.solution[c] = field.solution[c];
      canvas.fixed[c] = 1;
    }
  }
  return canvas;
}

const UNITS_PER_STAGE = 100;
const MAX_SMALL_ATTEMPTS = 20;

/** Runs stages one after another, as steps. */
class StagedRun {
  private stageIndex = 0;
  private current: AsyncGenerator<number, unknown> | null = null;
  private percent = 0;
  finished = false;
  constructor(
    private readonly canvas: Canvas,
    private readonly seed: string,
    private readonly stages: StageSpec[],
    readonly stats: StageReport,
  ) {
    if (stages.length === 0) this.finished = true;
  }

  async step(): Promise<boolean> {
    if (this.finished) return true;
    if (!this.current) this.current = runStage(this.canvas, this.seed, this.stages[this.stageIndex], this.stats);
    const r = await this.current.next();
    if (r.done) {
      this.current = null;
      this.percent = 0;
      this.stageIndex++;
      if (this.stageIndex >= this.stages.length) this.finished = true;
    } else this.percent = r.value;
    return this.finished;
  }

  progress(): { done: number; total: number } {
    return { done: this.stageIndex * UNITS_PER_STAGE + this.percent, total: this.stages.length * UNITS_PER_STAGE };
  }
}

export function createFieldGenerator(params: FieldParams): FieldGenerator {
  const p = resolveParams(params);
  const stats = emptyReport();
  if (p.kind === "grid") return retryingGenerator(p.G, (attempt) => gridAttempt(p, attempt, stats));
  return retryingGenerator(p.G, (attempt) => {
    const canvas = new Canvas(p.G);
    const stages = p.kind === "scatter" ? scatterStages(p, attempt) : ringStages(p, 0);
    return {
      canvas,
      run: new StagedRun(canvas, p.seed, stages, stats),
      // A tiny scatter board can end with fewer than two tiles (nothing to share cells
      // with): start over from the next attempt's streams.
      keep: (tiles) => !(p.kind === "scatter" && tiles.length < 2 && attempt < MAX_SMALL_ATTEMPTS),
    };
  }, stats);
}

/** One generation attempt: its canvas, its staged run, and whether its outcome is kept. */
interface Attempt {
  canvas: Canvas;
  run: StagedRun;
  keep(tiles: Tile[]): boolean;
}

/**
 * Steps attempts in turn until one is kept. Each attempt draws from its own labelled streams,
 * so the field stays a pure function of the parameters however the steps are scheduled.
 */
function retryingGenerator(G: number, begin: (attempt: number) => Attempt, stats = emptyReport()): FieldGenerator {
  let attempt = 0;
  let current = begin(0);
  let field: Field | null = null;
  return {
    async step() {
      if (field) return true;
      if (await current.run.step()) {
        const tiles = canvasTiles(current.canvas);
        if (current.keep(tiles)) field = { G, tiles, solution: finalSolution(current.canvas) };
        else current = begin(++attempt);
      }
      return field !== null;
    },
    progress() {
      const progress = current.run.progress();
      return field ? { done: progress.total, total: progress.total } : progress;
    },
    result() {
      if (!field) throw new Error("field generation has not finished");
      return field;
    },
    report: () => stats,
  };
}

/** Grid: one stage; if any square had to be dropped, start over under the next attempt label. */
function gridAttempt(p: ResolvedParams, attempt: number, stats: StageReport): Attempt {
  if (attempt > 50) throw new Error("grid generation failed repeatedly");
  const canvas = new Canvas(p.G);
  const tiles = placeGrid(canvas, p);
  const placed = tiles.length;
  const stage: StageSpec = { label: `grid/${attempt}`, region: { x: 0, y: 0, w: p.G, h: p.G }, tiles };
  return { canvas, run: new StagedRun(canvas, p.seed, [stage], stats), keep: (kept) => kept.length === placed };
}

/** Generate a whole field at once. */
export async function generateField(params: FieldParams): Promise<Field> {
  const gen = createFieldGenerator(params);
  while (!(await gen.step())) {
    /* each step is a bounded unit of work */
  }
  return gen.result();
}

export interface RingResult {
  ring: number;
  /** New tiles only, ids continuing after the existing field's; empty when there is no room. */
  tiles: Tile[];
  /** The whole field's solution including the new tiles' cells. */
  solution: Uint8Array;
  /** False when no chunk of this ring fits on the canvas (the field cannot grow further). */
  room: boolean;
}

/**
 * Ring `ringIndex` (1, 2, …) of a growing `field` (SPEC §5). Its content is a function of the seed,
 * the parameters and the ring index, given the field as generated so far (itself a function of
 * those): new chunks with their own streams, then seam tiles that fit against existing cells.
 */
export async function generateRing(seed: string, params: FieldParams, ringIndex: number, existing: Field): Promise<RingResult> {
  const gen = createRingGenerator(seed, params, ringIndex, existing);
  while (!(await gen.step())) {
    /* bounded steps */
  }
  return gen.result();
}

export interface RingGenerator {
  step(): Promise<boolean>;
  progress(): { done: number; total: number };
  result(): RingResult;
}

export function createRingGenerator(seed: string, params: FieldParams, ringIndex: number, existing: Field): RingGenerator {
  const p = resolveParams({ ...params, seed });
  if (p.kind !== "field" || !p.grow) throw new RangeError("rings exist only for kind field with grow");
  if (!Number.isInteger(ringIndex) || ringIndex < 1) throw new RangeError(`ring index must be an integer ≥ 1, got ${ringIndex}`);
  if (existing.G !== p.G) throw new RangeError(`existing field has G=${existing.G}, parameters give ${p.G}`);
  const canvas = canvasFromField(existing);
  const firstKey = canvas.tiles.length;
  const stages = ringStages(p, ringIndex);
  const run = new StagedRun(canvas, p.seed, stages, emptyReport());
  let out: RingResult | null = null;
  return {
    async step() {
      if (out) return true;
      if (await run.step()) {
        out = {
          ring: ringIndex,
          tiles: canvasTiles(canvas, firstKey, existing.tiles.length),
          solution: finalSolution(canvas),
          room: stages.length > 0,
        };
      }
      return out !== null;
    },
    progress: () => run.progress(),
    result() {
      if (!out) throw new Error("ring generation has not finished");
      return out;
    },
  };
}
