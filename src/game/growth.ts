import { createRingGenerator, type FieldParams, type RingResult } from "../engine";
import type { Field } from "../engine/types";

/** The growth policy of a growing field (SPEC §5), as `start_mosaic` accepted it. */
export interface GrowPolicy {
  every_minutes?: number;
  frontier_coverage?: number;
}

export type GrowthReason = "timer" | "coverage" | "solved";

/**
 * Why the field should grow now, if it should (SPEC §5): its timer fired; the share of current
 * tiles revealed (solved tiles were revealed first) reached `frontier_coverage`; or every
 * current tile is solved.
 */
export function growthReason(
  policy: GrowPolicy,
  s: { now: number; nextGrowAt: number | undefined; revealed: number; tilesTotal: number; allSolved: boolean },
): GrowthReason | null {
  if (s.allSolved) return "solved";
  if (policy.frontier_coverage !== undefined && s.tilesTotal > 0 && s.revealed / s.tilesTotal >= policy.frontier_coverage) return "coverage";
  if (s.nextGrowAt !== undefined && s.now >= s.nextGrowAt) return "timer";
  return null;
}

/** When the timer fires next, counted from `from` (undefined: the policy has no timer). */
export function nextTimer(policy: GrowPolicy, from: number): number | undefined {
  return policy.every_minutes === undefined ? undefined : from + Math.round(policy.every_minutes * 60_000);
}

/** Generates ring `ring` in small steps, yielding to the event loop between them (requests keep flowing). */
export async function generateRingYielding(seed: string, params: FieldParams, ring: number, field: Field): Promise<RingResult> {
  const generator = createRingGenerator(seed, params, ring, field);
  while (!(await generator.step())) await new Promise((resolve) => setTimeout(resolve, 0));
  return generator.result();
}
