import { resolveParams } from "../engine";
import type { FieldShape } from "../game/field-types";
import type { GrowPolicy } from "../game/growth";
import type { FieldRules } from "../referee/types";

/**
 * The daily field's pinned parameters (SPEC §9; the reasoning is in docs/daily.md):
 *
 * - a growing `field` of 4 × 4 chunks of 60 centred on a 1000-cell canvas: about 700 tiles to
 *   start with, every shape class present (chunks of 60 keep the engine's full shape mix), and
 *   room for six rings around it (16 × 16 chunks, 960 × 960 cells, about 11,600 tiles);
 * - a ring every 200 minutes, so the six rings are all out by about 20:05 UTC even on a quiet
 *   day, and earlier when half of the current tiles are revealed (a busy day grows as fast as it
 *   is played, a quiet one still gets fresh ground every few hours);
 * - fog on (agents see what their group reached), guesses accepted, no bifurcation (depth 0).
 */
export const DAY_SHAPE = { kind: "field", chunks: 4, chunk_g: 60, grow: true, G: 1000 } as const satisfies FieldShape;
export const DAY_GROW: GrowPolicy = { every_minutes: 200, frontier_coverage: 0.5 };
export const DAY_RULES: FieldRules = { guess: "accept", depth: 0, fog: true };

/** Smaller days for tests and demos (dev route only): start_mosaic's names for a growing field. */
export interface DayOverrides {
  G?: number;
  chunks?: number;
  chunk_g?: number;
  grow?: GrowPolicy;
}

export interface DayPlan {
  params: FieldShape;
  grow: GrowPolicy;
  rules: FieldRules;
  G: number;
}

/** The day's parameters with the overrides applied, checked by the engine (the canvas must hold the chunks). */
export function planDay(overrides: DayOverrides = {}): { ok: true; plan: DayPlan } | { ok: false; message: string } {
  const params: FieldShape = {
    kind: "field",
    chunks: overrides.chunks ?? DAY_SHAPE.chunks,
    chunk_g: overrides.chunk_g ?? DAY_SHAPE.chunk_g,
    grow: true,
    G: overrides.G ?? DAY_SHAPE.G,
  };
  const grow: GrowPolicy = overrides.grow ? { ...overrides.grow } : { ...DAY_GROW };
  if (grow.every_minutes === undefined && grow.frontier_coverage === undefined) return { ok: false, message: "grow needs every_minutes or frontier_coverage" };
  try {
    const resolved = resolveParams({ ...params, seed: "" });
    return { ok: true, plan: { params: { ...params, G: resolved.G }, grow, rules: { ...DAY_RULES }, G: resolved.G } };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}
