/**
 * The Bradley–Terry fit (docs/history.md): P(i beats j) = pᵢ / (pᵢ + pⱼ), fitted to weighted wins by
 * maximum likelihood, with Newton's method on θ = ln p (the log-likelihood is concave in θ, so
 * Newton converges in a handful of steps where the classic MM iterations need thousands).
 *
 * Every entry also plays a virtual draw of weight PRIOR against a fixed reference of strength 1:
 * it keeps an entry that never lost (or never won) finite, pins the scale (the reference rates
 * 1000), makes the Hessian negative definite (so each step is one Cholesky solve), and pulls
 * entries seen on few days towards the middle. Steps are capped at MAX_STEP in θ, and the
 * iteration stops when no θ moves by more than TOLERANCE or after MAX_ITERATIONS — counts, never
 * a clock, so the same input always gives the same strengths.
 */

/** Weight of the virtual draw (one comparison day weighs 1). */
export const PRIOR = 0.5;
export const TOLERANCE = 1e-10;
export const MAX_ITERATIONS = 100;
/** The largest change of one θ in one step (a damped first step from far away). */
const MAX_STEP = 4;

/**
 * Log-strengths θ from `games` (upper triangle: `games[i*k + j]` for i < j, the total weight of
 * comparisons between i and j) and `wins[i]` (weighted wins of i, draws as halves). Entries with
 * no games stay at θ = 0 (or where `start` puts them, which must then be 0 for them).
 */
export function fitBradleyTerry(k: number, games: Float64Array, wins: Float64Array, start?: Float64Array): Float64Array {
  // A bootstrap round starts from the full fit (`start`): the optimum is near, so fewer steps.
  const theta = start ? Float64Array.from(start) : new Float64Array(k);
  const p = theta.map((t) => Math.exp(t));
  const grad = new Float64Array(k);
  const h = new Float64Array(k * k);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    // Gradient and the negated Hessian (positive definite: the prior adds to its diagonal).
    for (let i = 0; i < k; i++) {
      const s = p[i] / (p[i] + 1);
      grad[i] = wins[i] + PRIOR / 2 - PRIOR * s;
      h[i * k + i] = PRIOR * s * (1 - s);
    }
    for (let i = 0; i < k; i++) {
      for (let j = i + 1; j < k; j++) {
        const n = games[i * k + j];
        if (n === 0) {
          h[i * k + j] = 0;
          h[j * k + i] = 0;
          continue;
        }
        const sij = p[i] / (p[i] + p[j]);
        grad[i] -= n * sij;
        grad[j] -= n * (1 - sij);
        const v = n * sij * (1 - sij);
        h[i * k + i] += v;
        h[j * k + j] += v;
        h[i * k + j] = -v;
        h[j * k + i] = -v;
      }
    }
    const step = choleskySolve(k, h, grad);
    let moved = 0;
    let largest = 0;
    for (let i = 0; i < k; i++) largest = Math.max(largest, Math.abs(step[i]));
    const scale = largest > MAX_STEP ? MAX_STEP / largest : 1;
    for (let i = 0; i < k; i++) {
      const d = step[i] * scale;
      theta[i] += d;
      p[i] = Math.exp(theta[i]);
      if (Math.abs(d) > moved) moved = Math.abs(d);
    }
    if (moved < TOLERANCE) break;
  }
  return theta;
}

/** Solves A x = b for a symmetric positive definite A (k × k, row-major; A is overwritten). */
function choleskySolve(k: number, a: Float64Array, b: Float64Array): Float64Array {
  // A = L Lᵀ, L stored in the lower triangle of `a`.
  for (let j = 0; j < k; j++) {
    let d = a[j * k + j];
    for (let m = 0; m < j; m++) d -= a[j * k + m] * a[j * k + m];
    const l = Math.sqrt(d);
    a[j * k + j] = l;
    for (let i = j + 1; i < k; i++) {
      let s = a[i * k + j];
      for (let m = 0; m < j; m++) s -= a[i * k + m] * a[j * k + m];
      a[i * k + j] = s / l;
    }
  }
  const y = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    let s = b[i];
    for (let m = 0; m < i; m++) s -= a[i * k + m] * y[m];
    y[i] = s / a[i * k + i];
  }
  const x = new Float64Array(k);
  for (let i = k - 1; i >= 0; i--) {
    let s = y[i];
    for (let m = i + 1; m < k; m++) s -= a[m * k + i] * x[m];
    x[i] = s / a[i * k + i];
  }
  return x;
}

/** A log-strength on the Elo-like scale: 1000 for the reference, +400 for ten times the odds. */
export function ratingOf(theta: number): number {
  return 1000 + (400 * theta) / Math.LN10;
}
