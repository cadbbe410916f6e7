/** Figures about generated fields for the engine benchmark: shape mix and playability. */
import { reachFrom, coverageOf } from "../../src/engine/playability";
import { Rng } from "../../src/engine/random";
import type { Field } from "../../src/engine/types";

export interface ShapeMix {
  tiles: number;
  small: number; // ≤ 64 cells
  medium: number; // 65..196
  large: number; // > 196
  nonRect: number;
  minSide: number;
  maxSide: number;
  coverage: number;
  overlapCells: number;
}

export function shapeMix(field: Field): ShapeMix {
  const cover = new Uint8Array(field.G * field.G);
  const mix: ShapeMix = { tiles: field.tiles.length, small: 0, medium: 0, large: 0, nonRect: 0, minSide: 99, maxSide: 0, coverage: 0, overlapCells: 0 };
  for (const t of field.tiles) {
    const n = t.cellIds.length;
    if (n <= 64) mix.small++;
    else if (n <= 196) mix.medium++;
    else mix.large++;
    if (n !== t.w * t.h) mix.nonRect++;
    mix.minSide = Math.min(mix.minSide, t.w, t.h);
    mix.maxSide = Math.max(mix.maxSide, t.w, t.h);
    for (const c of t.cellIds) cover[c]++;
  }
  let covered = 0;
  for (const c of cover) {
    if (c) covered++;
    if (c >= 2) mix.overlapCells++;
  }
  mix.coverage = covered / cover.length;
  return mix;
}

/** Mean reach (SPEC §3 playability) from `samples` seed tiles drawn with a fixed stream. */
export function meanReach(field: Field, samples: number): { mean: number; min: number; max: number } {
  const rng = new Rng(1, 2, 3, 4);
  const index = coverageOf(field);
  const shares: number[] = [];
  for (let i = 0; i < samples; i++) shares.push(reachFrom(field, rng.int(field.tiles.length), index).share);
  return { mean: shares.reduce((a, b) => a + b, 0) / shares.length, min: Math.min(...shares), max: Math.max(...shares) };
}
