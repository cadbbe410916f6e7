/**
 * Exact solver for line problems (SPEC §2), list edition — counting, enumeration and random
 * completion over the search of `LineSearch`.
 *
 * Each line keeps the list of its still-possible valid patterns in a shared pool. Propagation
 * filters a line's list against its known cells and fixes every cell on which all remaining
 * patterns agree (AND / OR of the list); when a line is down to one pattern, that pattern is
 * removed from its siblings (rule 3). Removal swaps a pattern to the end of the line's live
 * segment, so undoing only restores counts. Fastest when most cells are known (counting during
 * the givens reduction); branching follows the pool order.
 */
import type { Problem } from "./problem";
import { validLines } from "./lines";
import { LineSearch } from "./line-search";
import { MaskCache } from "./mask-cache";

/** Pattern tables filtered by (length, known mask, ones mask), shared by every solver. */
const filterCache = new MaskCache<Int32Array>(4_000_000);
let scratch = new Int32Array(8196);

function filteredTable(len: number, known: number, ones: number): Int32Array {
  const table = validLines(len);
  if (known === 0) return table;
  const hit = filterCache.get(len, known, ones);
  if (hit) return hit;
  // One pass over the table into a scratch buffer, then an exact-size copy for the cache.
  if (scratch.length < table.length) scratch = new Int32Array(table.length);
  let n = 0;
  for (let i = 0; i < table.length; i++) {
    const pat = table[i];
    if ((pat & known) === ones) scratch[n++] = pat;
  }
  const out = scratch.slice(0, n);
  filterCache.set(len, known, ones, out, n + 16);
  return out;
}

/** Work counters across all list solvers (profiling aid; never affects results). */
export const solverWork = { nodes: 0, resets: 0 };

export class Solver extends LineSearch {
  private readonly pool: Int32Array;

  constructor(problem: Problem) {
    super(problem, solverWork, 1024);
    this.pool = new Int32Array(problem.poolSize);
  }

  protected loadLines(): void {
    const p = this.p;
    for (let l = 0; l < p.nLines; l++) {
      const table = filteredTable(p.lineLen[l], this.known[l], this.ones[l]);
      this.pool.set(table, p.poolStart[l]);
      this.cnt[l] = table.length;
    }
  }

  /** The pool order, as the search's removals have permuted it. */
  protected listPatterns(l: number, out: Int32Array, at: number): void {
    const ps = this.p.poolStart[l];
    const c = this.cnt[l];
    for (let i = 0; i < c; i++) out[at + i] = this.pool[ps + i];
  }

  protected undoStorage(): void {
    throw new Error("list solver: unknown trail entry");
  }

  protected propagate(): boolean {
    // Arrays in locals: `assign` and `setCount` are calls, after which V8 would reload fields.
    const p = this.p;
    const pool = this.pool;
    const cnt = this.cnt;
    const inQ = this.inQ;
    const knownOf = this.known;
    const onesOf = this.ones;
    const poolStart = p.poolStart;
    while (this.qLen > 0) {
      const l = this.dequeue();
      inQ[l] = 0;
      const k = knownOf[l];
      const o = onesOf[l];
      const s = poolStart[l];
      const c0 = cnt[l];
      let c = c0;
      let and = -1;
      let or = 0;
      let i = s;
      let e = s + c;
      while (i < e) {
        const pat = pool[i];
        if ((pat & k) !== o) {
          e--;
          pool[i] = pool[e];
          pool[e] = pat;
        } else {
          and &= pat;
          or |= pat;
          i++;
        }
      }
      c = e - s;
      if (c !== c0) this.setCount(l, c);
      if (c === 0) {
        // Also catches a line whose fixed cells left no pattern at all (empty from the start).
        this.clearQueue();
        return false;
      }
      const unknown = p.lineFull[l] & ~k;
      let f1 = and & unknown;
      let f0 = ~or & unknown;
      const cs = p.lineCellStart[l];
      while (f1 !== 0) {
        const b = f1 & -f1;
        f1 ^= b;
        this.assign(p.lineCells[cs + 31 - Math.clz32(b)], 1, l);
      }
      while (f0 !== 0) {
        const b = f0 & -f0;
        f0 ^= b;
        this.assign(p.lineCells[cs + 31 - Math.clz32(b)], 0, l);
      }
      if (c === 1 && !this.det[l]) {
        // Complete line: no sibling may take the same pattern (rule 3).
        this.setDetermined(l);
        const pat = pool[s];
        const known = this.known;
        const ones = this.ones;
        const inQ = this.inQ;
        for (let j = p.sibStart[l]; j < p.sibStart[l + 1]; j++) {
          const m = p.sibs[j];
          // A line out of the queue holds only patterns that agree with its known cells, so a
          // pattern that disagrees with them is not there: no need to look.
          if (inQ[m] === 0 && (pat & known[m]) !== ones[m]) continue;
          const ms = p.poolStart[m];
          const mc = cnt[m];
          for (let x = 0; x < mc; x++) {
            if (pool[ms + x] === pat) {
              pool[ms + x] = pool[ms + mc - 1];
              pool[ms + mc - 1] = pat;
              this.setCount(m, mc - 1);
              if (mc === 1) {
                this.clearQueue();
                return false;
              }
              this.wake(m);
              break;
            }
          }
        }
      }
    }
    return true;
  }
}
