/**
 * The search shared by both line solvers (SPEC §2): cell values, the propagation queue, the
 * undo trail and the depth-first search that counts, enumerates or completes at random.
 * A subclass supplies how each line's live patterns are stored: loaded from fixed cells, filtered
 * and cells forced (`propagate`), listed for branching, and its own trail entries undone. `Solver`
 * keeps lists (fast when most cells are known: counting), `BitSolver` bitsets (open problems).
 * Trail entries are `index * 8 + tag`; the tags below 3 are the search's own, a subclass may use
 * the others (a value saved before its entry is pushed first, so it is popped second).
 * The search is exhaustive; an optional node budget (search nodes, never time) bounds an attempt.
 */
import type { Problem } from "./problem";
import type { Rng } from "./random";

export const TAG_CELL = 0;
export const TAG_COUNT = 1;
export const TAG_DET = 2;
/** First tag free for a subclass's own trail entries (up to 7). */
export const TAG_STORAGE = 3;

/** Work counters of one solver kind (profiling aid; never affects results). */
export interface SearchWork {
  nodes: number;
  resets: number;
}

export abstract class LineSearch {
  readonly p: Problem;
  /** Cell values: -1 unknown, 0, 1. */
  readonly val: Int8Array;
  protected readonly known: Int32Array;
  protected readonly ones: Int32Array;
  /** Live pattern count per line. */
  protected readonly cnt: Int32Array;
  /** 1 once a line's completed pattern has been barred from its siblings. */
  protected readonly det: Uint8Array;
  /** Queued lines, first in first out (a ring: each line is queued at most once). */
  protected readonly queue: Int32Array;
  protected readonly inQ: Uint8Array;
  protected qHead = 0;
  protected qTail = 0;
  protected qLen = 0;
  /**
   * Propagate last in, first out, as the engine first did: same fixpoint, but the list solver's
   * branching order follows the filtering order, and one search depends on it (givens.ts, climb).
   */
  stackOrder = false;
  protected trail: Int32Array;
  protected tTop = 0;
  /**
   * An epoch starts at every point the trail may be rewound to and after every undo; a line's
   * count is saved only at its first change in an epoch (the value a rewind must restore).
   */
  private epoch = 1;
  private readonly savedIn: Int32Array;
  private branch: Int32Array;
  private bTop = 0;
  private readonly work: SearchWork;
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

  protected constructor(problem: Problem, work: SearchWork, trailSize: number) {
    this.p = problem;
    this.work = work;
    const n = problem.nLines;
    this.val = new Int8Array(problem.nCells);
    this.known = new Int32Array(n);
    this.ones = new Int32Array(n);
    this.cnt = new Int32Array(n);
    this.det = new Uint8Array(n);
    this.queue = new Int32Array(Math.max(1, n));
    this.inQ = new Uint8Array(n);
    this.savedIn = new Int32Array(n);
    this.trail = new Int32Array(trailSize);
    this.branch = new Int32Array(4096);
  }

  /** Set every line's live patterns (and `cnt`) to those agreeing with `known` / `ones`. */
  protected abstract loadLines(): void;
  /** Filter queued lines until nothing changes; false on a contradiction (queue cleared). */
  protected abstract propagate(): boolean;
  /** Write line l's `cnt[l]` live patterns into `out` from `at` (the branching order). */
  protected abstract listPatterns(l: number, out: Int32Array, at: number): void;
  /** Undo one of the subclass's own trail entries (its saved value, if any, is next). */
  protected abstract undoStorage(tag: number, idx: number): void;

  /** Load fixed cell values (local indices; -1 = free) and propagate; false on a contradiction. */
  reset(fixed: Int8Array): boolean {
    const n = this.p.nLines;
    this.work.resets++;
    this.val.set(fixed);
    this.tTop = 0;
    this.nextEpoch();
    this.det.fill(0);
    this.p.lineMasks(fixed, this.known, this.ones);
    for (let l = 0; l < n; l++) this.queue[l] = l;
    this.inQ.fill(1);
    this.qHead = 0;
    this.qTail = 0;
    this.qLen = n;
    this.loadLines();
    this.consistent = this.propagate();
    return this.consistent;
  }

  /** Current trail position, to return to with `backtrack` (for incremental use). */
  mark(): number {
    this.nextEpoch();
    return this.tTop;
  }

  /** Fix more cells (local indices, values) and propagate; false on a contradiction (see `backtrack`). */
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

  /** All solutions up to `limit` (cell values by local index, 255 = free); null when over budget. */
  enumerate(limit: number, budget = Infinity): Uint8Array[] | null {
    const out: Uint8Array[] = [];
    return this.enumerateInto(limit, budget, out) < 0 ? null : out;
  }

  /**
   * As `enumerate`, into arrays of `into` reused from earlier calls (grown as needed): returns the
   * number of solutions found, the first that many arrays holding them; -1 when over budget.
   */
  enumerateInto(limit: number, budget: number, into: Uint8Array[]): number {
    this.run(limit, budget, into, null);
    return this.aborted ? -1 : this.found;
  }

  /**
   * Complete the search lines with one solution chosen by `rng` (branch order shuffled), left in
   * `val` (cells outside search lines may stay -1); false when none or over budget (`aborted`).
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
    const mark = this.mark();
    this.bTop = 0;
    this.dfs();
    this.undo(mark);
    this.collect = null;
    this.rng = null;
  }

  private dfs(): void {
    this.work.nodes++;
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
      const into = this.collect;
      if (into) {
        const v = this.val;
        let sol = into[this.found - 1];
        if (sol === undefined) {
          sol = new Uint8Array(v.length);
          into.push(sol);
        }
        // Int8 → Uint8 conversion maps an unknown cell's -1 to 255, as documented.
        sol.set(v);
      }
      return;
    }
    // Copy the branch line's live patterns: the subtrees change the live sets.
    const base = this.bTop;
    if (base + bestC > this.branch.length) {
      const grown = new Int32Array(Math.max(this.branch.length * 2, base + bestC));
      grown.set(this.branch);
      this.branch = grown;
    }
    const br = this.branch;
    this.listPatterns(best, br, base);
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
      const mark = this.mark();
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

  protected push(x: number): void {
    if (this.tTop === this.trail.length) this.growTrail();
    this.trail[this.tTop++] = x;
  }

  /** Push a saved value, then its entry (one capacity check for both). */
  protected push2(saved: number, entry: number): void {
    if (this.tTop + 2 > this.trail.length) this.growTrail();
    const t = this.tTop;
    this.trail[t] = saved;
    this.trail[t + 1] = entry;
    this.tTop = t + 2;
  }

  private growTrail(): void {
    const grown = new Int32Array(this.trail.length * 2);
    grown.set(this.trail);
    this.trail = grown;
  }

  /** Fix cell c to v and queue its lines except `except` (the line that forced it). */
  protected assign(c: number, v: number, except: number): void {
    // Fields in locals: this code runs for both solver classes, so each field access on `this`
    // is a two-shape lookup; loops touch locals only.
    const p = this.p;
    const known = this.known;
    const ones = this.ones;
    const inQ = this.inQ;
    const queue = this.queue;
    this.val[c] = v;
    this.push(c * 8 + TAG_CELL);
    const cap = queue.length;
    let q = this.qTail;
    let added = 0;
    for (let j = p.cellLineStart[c], end = p.cellLineStart[c + 1]; j < end; j++) {
      const l = p.cellLine[j];
      const bit = p.cellBit[j];
      known[l] |= bit;
      if (v) ones[l] |= bit;
      if (l !== except && !inQ[l]) {
        inQ[l] = 1;
        queue[q] = l;
        if (++q === cap) q = 0;
        added++;
      }
    }
    this.qTail = q;
    this.qLen += added;
  }

  /** Queue line l unless it is queued already. */
  protected wake(l: number): void {
    if (!this.inQ[l]) {
      this.inQ[l] = 1;
      this.queue[this.qTail] = l;
      if (++this.qTail === this.queue.length) this.qTail = 0;
      this.qLen++;
    }
  }

  /** Set line l's count to c, saving the old one on the trail at its first change in the epoch. */
  protected setCount(l: number, c: number): void {
    if (this.savedIn[l] !== this.epoch) {
      this.savedIn[l] = this.epoch;
      this.push2(this.cnt[l], l * 8 + TAG_COUNT);
    }
    this.cnt[l] = c;
  }

  private nextEpoch(): void {
    if (++this.epoch === 0x40000000) {
      this.savedIn.fill(0);
      this.epoch = 1;
    }
  }

  /** Mark line l complete (its pattern is then barred from its siblings, rule 3). */
  protected setDetermined(l: number): void {
    this.det[l] = 1;
    this.push(l * 8 + TAG_DET);
  }

  protected clearQueue(): void {
    while (this.qLen > 0) this.inQ[this.dequeue()] = 0;
  }

  /** The next queued line, first in first out unless `stackOrder` (`inQ` stays set). */
  protected dequeue(): number {
    if (this.stackOrder) {
      this.qTail = this.qTail === 0 ? this.queue.length - 1 : this.qTail - 1;
      this.qLen--;
      return this.queue[this.qTail];
    }
    const l = this.queue[this.qHead];
    if (++this.qHead === this.queue.length) this.qHead = 0;
    this.qLen--;
    return l;
  }

  private undo(mark: number): void {
    const p = this.p;
    const tr = this.trail;
    const val = this.val;
    const known = this.known;
    const ones = this.ones;
    const cnt = this.cnt;
    let t = this.tTop;
    while (t > mark) {
      const code = tr[--t];
      const tag = code & 7;
      const idx = code >> 3;
      if (tag === TAG_CELL) {
        val[idx] = -1;
        for (let j = p.cellLineStart[idx], end = p.cellLineStart[idx + 1]; j < end; j++) {
          const l = p.cellLine[j];
          const nb = ~p.cellBit[j];
          known[l] &= nb;
          ones[l] &= nb;
        }
      } else if (tag === TAG_COUNT) {
        cnt[idx] = tr[--t];
      } else if (tag === TAG_DET) {
        this.det[idx] = 0;
      } else {
        this.tTop = t;
        this.undoStorage(tag, idx);
        t = this.tTop;
      }
    }
    this.tTop = t;
    this.nextEpoch();
  }
}
