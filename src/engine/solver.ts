/**
 * Exact solver for line problems (SPEC §2) — counting, enumeration and random completion.
 *
 * Each line keeps the set of its still-possible valid patterns in a shared pool. Propagation
 * filters a line's set against its known cells and fixes every cell on which all remaining
 * patterns agree (AND / OR of the set); fixed cells wake the other lines through them. When a
 * line is down to one pattern it is complete, and that pattern is removed from its siblings
 * (rule 3). Search branches on the search line with the fewest patterns. Removal swaps a pattern
 * to the end of the line's live segment, so undoing only restores counts (a trail, LIFO).
 *
 * The search is exhaustive (no time cut-offs); an optional node budget makes a bounded attempt
 * deterministic: it counts search nodes, never time.
 */
import { Problem } from "./problem";
import { validLines } from "./lines";
import type { Rng } from "./random";

/** Pattern tables filtered by (length, known mask, ones mask), shared by every solver. */
const filterCache: Map<number, Map<number, Int32Array>>[] = [];
let filterCacheSize = 0;
let scratch = new Int32Array(8196);
const FILTER_CACHE_LIMIT = 4_000_000;

function filteredTable(len: number, known: number, ones: number): Int32Array {
  const table = validLines(len);
  if (known === 0) return table;
  // Two levels of small-integer keys (fast Map lookups), under the length.
  let byKnown = filterCache[len];
  if (!byKnown) byKnown = filterCache[len] = new Map();
  let byOnes = byKnown.get(known);
  if (!byOnes) {
    byOnes = new Map();
    byKnown.set(known, byOnes);
  }
  const hit = byOnes.get(ones);
  if (hit) return hit;
  // One pass over the table into a scratch buffer, then an exact-size copy for the cache.
  if (scratch.length < table.length) scratch = new Int32Array(table.length);
  let n = 0;
  for (let i = 0; i < table.length; i++) {
    const pat = table[i];
    if ((pat & known) === ones) scratch[n++] = pat;
  }
  const out = scratch.slice(0, n);
  if (filterCacheSize + n > FILTER_CACHE_LIMIT) {
    for (const m of filterCache) m?.clear();
    filterCacheSize = 0;
    byKnown.set(known, byOnes);
  }
  byOnes.set(ones, out);
  filterCacheSize += n + 16;
  return out;
}

/** Work counters across all solvers (profiling aid; never affects results). */
export const solverWork = { scanned: 0, nodes: 0, resets: 0 };

const TAG_CELL = 0;
const TAG_COUNT = 1;
const TAG_DET = 2;

export class Solver {
  readonly p: Problem;
  /** Cell values: -1 unknown, 0, 1. */
  readonly val: Int8Array;
  private readonly known: Int32Array;
  private readonly ones: Int32Array;
  private readonly pool: Int32Array;
  private readonly cnt: Int32Array;
  private readonly det: Uint8Array;
  private readonly queue: Int32Array;
  private readonly inQ: Uint8Array;
  private qTop = 0;
  private trail: Int32Array;
  private tTop = 0;
  private branch: Int32Array;
  private bTop = 0;
  /** Search nodes visited by the last count / enumerate / random call. */
  nodes = 0;
  private budget = Infinity;
  /** True when the last call stopped on its node budget (its answer is then unknown). */
  aborted = false;
  private limit = 0;
  private found = 0;
  private collect: Uint8Array[] | null = null;
  private rng: Rng | null = null;
  private consistent = false;

  constructor(problem: Problem) {
    this.p = problem;
    this.val = new Int8Array(problem.nCells);
    this.known = new Int32Array(problem.nLines);
    this.ones = new Int32Array(problem.nLines);
    this.pool = new Int32Array(problem.poolSize);
    this.cnt = new Int32Array(problem.nLines);
    this.det = new Uint8Array(problem.nLines);
    this.queue = new Int32Array(problem.nLines);
    this.inQ = new Uint8Array(problem.nLines);
    this.trail = new Int32Array(1024);
    this.branch = new Int32Array(4096);
  }

  /**
   * Load fixed cell values (local indices; -1 = free) and propagate.
   * Returns false when the fixed cells already contradict the rules.
   */
  reset(fixed: Int8Array): boolean {
    const p = this.p;
    solverWork.resets++;
    this.val.set(fixed);
    this.tTop = 0;
    this.qTop = 0;
    this.det.fill(0);
    for (let l = 0; l < p.nLines; l++) {
      let k = 0;
      let o = 0;
      for (let i = p.lineCellStart[l], b = 1; i < p.lineCellStart[l + 1]; i++, b <<= 1) {
        const v = fixed[p.lineCells[i]];
        if (v >= 0) {
          k |= b;
          if (v) o |= b;
        }
      }
      this.known[l] = k;
      this.ones[l] = o;
      const table = filteredTable(p.lineLen[l], k, o);
      this.pool.set(table, p.poolStart[l]);
      this.cnt[l] = table.length;
      this.queue[this.qTop++] = l;
      this.inQ[l] = 1;
    }
    this.consistent = this.propagate();
    return this.consistent;
  }

  /** Current trail position, to return to with `backtrack` (for incremental use). */
  mark(): number {
    return this.tTop;
  }

  /**
   * Fix more cells on top of the current state (local indices and values) and propagate.
   * Returns false on a contradiction; `backtrack` to an earlier mark undoes the assumption.
   */
  assume(cells: ArrayLike<number>, values: ArrayLike<number>, count: number): boolean {
    if (!this.consistent) return false;
    for (let k = 0; k < count; k++) {
      const c = cells[k];
      const v = values[k];
      if (this.val[c] < 0) this.assign(c, v, -1);
      else if (this.val[c] !== v) {
        this.clearQueue();
        this.consistent = false;
        return false;
      }
    }
    this.consistent = this.propagate();
    return this.consistent;
  }

  /** Undo everything after `mark`; the state there must have been consistent. */
  backtrack(mark: number): void {
    this.clearQueue();
    this.undo(mark);
    this.consistent = true;
  }

  /** Number of solutions, stopping at `limit`; -1 when the node budget ran out first. */
  count(limit: number, budget = Infinity): number {
    this.run(limit, budget, null, null);
    return this.aborted ? -1 : this.found;
  }

  /** All solutions up to `limit` (cell values by local index); null when over budget. */
  enumerate(limit: number, budget = Infinity): Uint8Array[] | null {
    const out: Uint8Array[] = [];
    this.run(limit, budget, out, null);
    return this.aborted ? null : out;
  }

  /**
   * Complete the search lines with one solution chosen by `rng` (branch order shuffled).
   * On success the values stay in `val` (cells outside search lines may stay -1).
   * Returns true on success, false when there is none or the budget ran out (see `aborted`).
   */
  solveRandom(rng: Rng, budget = Infinity): boolean {
    const out: Uint8Array[] = [];
    this.run(1, budget, out, rng);
    if (out.length === 0) return false;
    const sol = out[0];
    for (let i = 0; i < sol.length; i++) this.val[i] = sol[i] === 255 ? -1 : sol[i];
    return true;
  }

  private run(limit: number, budget: number, collect: Uint8Array[] | null, rng: Rng | null): void {
    this.nodes = 0;
    this.aborted = false;
    this.found = 0;
    if (!this.consistent) return;
    this.limit = limit;
    this.budget = budget;
    this.collect = collect;
    this.rng = rng;
    const mark = this.tTop;
    this.bTop = 0;
    this.dfs();
    this.undo(mark);
    this.collect = null;
    this.rng = null;
  }

  private dfs(): void {
    solverWork.nodes++;
    if (++this.nodes > this.budget) {
      this.aborted = true;
      return;
    }
    const p = this.p;
    const cnt = this.cnt;
    let best = -1;
    let bestC = 0x7fffffff;
    const sl = p.searchLines;
    for (let i = 0; i < sl.length; i++) {
      const c = cnt[sl[i]];
      if (c > 1 && c < bestC) {
        bestC = c;
        best = sl[i];
        if (c === 2) break;
      }
    }
    if (best < 0) {
      this.found++;
      if (this.collect) {
        const v = this.val;
        const sol = new Uint8Array(v.length);
        for (let i = 0; i < v.length; i++) sol[i] = v[i] < 0 ? 255 : v[i];
        this.collect.push(sol);
      }
      return;
    }
    // Copy the branch line's live patterns: the subtrees permute the pool.
    const base = this.bTop;
    if (base + bestC > this.branch.length) {
      const grown = new Int32Array(Math.max(this.branch.length * 2, base + bestC));
      grown.set(this.branch);
      this.branch = grown;
    }
    const br = this.branch;
    const ps = p.poolStart[best];
    for (let i = 0; i < bestC; i++) br[base + i] = this.pool[ps + i];
    this.bTop = base + bestC;
    const rng = this.rng;
    for (let i = 0; i < bestC; i++) {
      if (rng) {
        // Lazy Fisher–Yates: draw the next pattern among those not yet tried.
        const j = i + rng.int(bestC - i);
        const t = br[base + i];
        br[base + i] = br[base + j];
        br[base + j] = t;
      }
      const mark = this.tTop;
      if (this.assignLine(best, br[base + i]) && this.propagate()) this.dfs();
      else this.clearQueue();
      this.undo(mark);
      if (this.aborted || this.found >= this.limit) break;
    }
    this.bTop = base;
  }

  private assignLine(l: number, pat: number): boolean {
    const p = this.p;
    const val = this.val;
    for (let i = p.lineCellStart[l], b = 0; i < p.lineCellStart[l + 1]; i++, b++) {
      const c = p.lineCells[i];
      const v = (pat >>> b) & 1;
      if (val[c] < 0) this.assign(c, v, -1);
      else if (val[c] !== v) return false;
    }
    return true;
  }

  private pushTrail(x: number): void {
    if (this.tTop === this.trail.length) {
      const grown = new Int32Array(this.trail.length * 2);
      grown.set(this.trail);
      this.trail = grown;
    }
    this.trail[this.tTop++] = x;
  }

  private assign(c: number, v: number, except: number): void {
    const p = this.p;
    this.val[c] = v;
    this.pushTrail(c * 4 + TAG_CELL);
    for (let j = p.cellLineStart[c]; j < p.cellLineStart[c + 1]; j++) {
      const l = p.cellLine[j];
      const bit = p.cellBit[j];
      this.known[l] |= bit;
      if (v) this.ones[l] |= bit;
      if (l !== except && !this.inQ[l]) {
        this.inQ[l] = 1;
        this.queue[this.qTop++] = l;
      }
    }
  }

  private clearQueue(): void {
    while (this.qTop > 0) this.inQ[this.queue[--this.qTop]] = 0;
  }

  private undo(mark: number): void {
    const p = this.p;
    const tr = this.trail;
    while (this.tTop > mark) {
      const code = tr[--this.tTop];
      const tag = code & 3;
      const idx = code >> 2;
      if (tag === TAG_CELL) {
        this.val[idx] = -1;
        for (let j = p.cellLineStart[idx]; j < p.cellLineStart[idx + 1]; j++) {
          const l = p.cellLine[j];
          const nb = ~p.cellBit[j];
          this.known[l] &= nb;
          this.ones[l] &= nb;
        }
      } else if (tag === TAG_COUNT) {
        this.cnt[idx] = tr[--this.tTop];
      } else {
        this.det[idx] = 0;
      }
    }
  }

  /** Filter lines until nothing changes; false on a contradiction (queue cleared). */
  private propagate(): boolean {
    const p = this.p;
    const pool = this.pool;
    const cnt = this.cnt;
    while (this.qTop > 0) {
      const l = this.queue[--this.qTop];
      this.inQ[l] = 0;
      const k = this.known[l];
      const o = this.ones[l];
      const s = p.poolStart[l];
      const c0 = cnt[l];
      solverWork.scanned += c0;
      let c = c0;
      let and = -1;
      let or = 0;
      let i = 0;
      while (i < c) {
        const pat = pool[s + i];
        if ((pat & k) !== o) {
          c--;
          pool[s + i] = pool[s + c];
          pool[s + c] = pat;
        } else {
          and &= pat;
          or |= pat;
          i++;
        }
      }
      if (c !== c0) {
        this.pushTrail(c0);
        this.pushTrail(l * 4 + TAG_COUNT);
        cnt[l] = c;
      }
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
        this.det[l] = 1;
        this.pushTrail(l * 4 + TAG_DET);
        const pat = pool[s];
        for (let j = p.sibStart[l]; j < p.sibStart[l + 1]; j++) {
          const m = p.sibs[j];
          const ms = p.poolStart[m];
          const mc = cnt[m];
          for (let x = 0; x < mc; x++) {
            if (pool[ms + x] === pat) {
              pool[ms + x] = pool[ms + mc - 1];
              pool[ms + mc - 1] = pat;
              this.pushTrail(mc);
              this.pushTrail(m * 4 + TAG_COUNT);
              cnt[m] = mc - 1;
              if (mc === 1) {
                this.clearQueue();
                return false;
              }
              if (!this.inQ[m]) {
                this.inQ[m] = 1;
                this.queue[this.qTop++] = m;
              }
              break;
            }
          }
        }
      }
    }
    return true;
  }
}
