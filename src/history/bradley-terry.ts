/**
 * The Bradley–Terry fit (docs/history.md): P(i beats j) = p_i / (p_i + p_j), fitted to weighted
 * wins by Hunter's MM iterations (2004), which raise the likelihood at every step.
 *
 * Every entry also plays a virtual draw of weight PRIOR against a fixed reference of strength 1:
 * it keeps an entry that never lost (or never won) finite, pins the scale (the reference rates
 * 1000), and pulls entries seen on few days towards the middle. The iteration stops when no
 * strength moves by more than TOLERANCE (relative) or after MAX_ITERATIONS — a count, never a
 * clock, so the same input always gives the same strengths.
 */

/** Weight of the virtual draw (one comparison day weighs 1). */
export const PRIOR = 0.5;
export const TOLERANCE = 1e-9;
export const MAX_ITERATIONS = 20_000;

/**
 * Strengths from `games[i*k + j]` (total weight of comparisons between i and j, symmetric) and
 * `wins[i]` (weighted wins of i, draws as halves). Entries with no games get strength 1.
 */
export function fitBradleyTerry(k: number, games: Float64Array, wins: Float64Array): Float64Array {
  let p = new Float64Array(k).fill(1);
  let next = new Float64Array(k);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    let moved = 0;
    for (let i = 0; i < k; i++) {
      let denominator = PRIOR / (p[i] + 1);
      const row = i * k;
      const pi = p[i];
      for (let j = 0; j < k; j++) {
        const n = games[row + j];
        if (n !== 0) denominator += n / (pi + p[j]);
      }
      const v = (wins[i] + PRIOR / 2) / denominator;
      next[i] = v;
      const change = Math.abs(v - pi) / pi;
      if (change > moved) moved = change;
    }
    [p, next] = [next, p];
    if (moved < TOLERANCE) break;
  }
  return p;
}

/** A strength on the Elo-like scale: 1000 for the reference, +400 for ten times the odds. */
export function ratingOf(strength: number): number {
  return 1000 + (400 * Math.log(strength)) / Math.LN10;
}
