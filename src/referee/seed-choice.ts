import type { Board } from "./board";
import { HIDDEN, REVEALED } from "./board";
import { refereeRng } from "./prng";
import { boxGap, type Box } from "./spatial";

/** Candidate hidden tiles drawn per join; the farthest of them wins. */
export const SEED_SAMPLE = 64;

/**
 * Choose a seat's seed tile (SPEC §4.1): a hidden tile far from every other agent's seed and
 * every solved tile (all territory). "Far" is maximin over a deterministic random sample: draw
 * up to 64 distinct hidden tiles that are nobody's seed, keep the one whose smallest box gap
 * (Chebyshev distance between their nearest cells) to those occupied tiles is largest; ties go to the earlier draw. With
 * nothing occupied yet, the first draw wins. The stream is keyed by the field seed and the join
 * count, so the choice is a pure function of the state and replays identically.
 *
 * If no hidden tile is free, a revealed unsolved tile is chosen the same way; if every tile is
 * solved, there is no seed (null).
 */
export function chooseSeed(board: Board, fieldSeed: string, joinCount: number, otherSeeds: readonly number[]): number | null {
  const rng = refereeRng(fieldSeed, `seed|${joinCount}`);
  const taken = new Set(otherSeeds);
  const T = board.tileCount;
  const candidates: number[] = [];
  for (const wanted of [HIDDEN, REVEALED]) {
    const seen = new Set<number>();
    // Random probing finds candidates fast while most tiles are free…
    for (let tries = 0; tries < SEED_SAMPLE * 4 && candidates.length < SEED_SAMPLE; tries++) {
      const t = rng.int(T);
      if (seen.has(t)) continue;
      seen.add(t);
      if (board.status[t] === wanted && !taken.has(t)) candidates.push(t);
    }
    // …and a scan with a shuffle covers a crowded field.
    if (candidates.length === 0) {
      const pool: number[] = [];
      for (let t = 0; t < T; t++) if (board.status[t] === wanted && !taken.has(t)) pool.push(t);
      rng.shuffle(pool);
      candidates.push(...pool.slice(0, SEED_SAMPLE));
    }
    if (candidates.length > 0) break;
  }
  if (candidates.length === 0) return null;

  const occupied: Box[] = [];
  for (const s of otherSeeds) occupied.push(board.tiles[s]);
  for (const t of board.solvedOrder) occupied.push(board.tiles[t]);
  if (occupied.length === 0) return candidates[0];

  let best = candidates[0];
  let bestGap = -1;
  for (const c of candidates) {
    const box = board.tiles[c];
    let nearest = Infinity;
    for (const o of occupied) {
      const g = boxGap(box, o);
      if (g < nearest) nearest = g;
      if (nearest <= bestGap) break; // cannot beat the current best
    }
    if (nearest > bestGap) {
      best = c;
      bestGap = nearest;
    }
  }
  return best;
}
