/**
 * Givens: choose which cells of a filled tile are disclosed, so that the tile alone has exactly
 * m solutions and every alternative differs from the true solution on a shared cell (SPEC §2).
 *
 * Greedy removal: start from all cells given and remove them in a shuffled order (shared cells
 * first, so the ambiguity left for neighbours to settle sits on shared cells), keeping a
 * removal when (a) the tile still has at most m solutions and (b) with the true values of each
 * pin set added on its own (stage.ts gives two: the cells shared with neighbours before the tile
 * in reading order, and those shared with neighbours after it; by default one set, all shared
 * cells), it has exactly one (so no alternative agrees with the truth on every shared cell).
 * Both conditions only get harder as givens are removed, so removing a whole batch is accepted
 * exactly when removing its cells one by one would be: batches grow after a success and shrink
 * after a failure, which gives the same result as one-by-one greedy with fewer counts. A single
 * removal counts only the solutions it adds (the removed cell set against the truth), which
 * propagation usually refutes at once. The tests run incrementally on the solver's trail, and
 * a test whose count would reach its limit with solutions found earlier fails without a search
 * (see `greedy` and known-solutions.ts: the verdicts are exactly those of fresh counts).
 *
 * Greedy can stop below m (removing any single remaining given jumps above m). Climb-back: for
 * a remaining given g, enumerate the solutions its removal would add and add cells of the true
 * solution that cut the alternatives down until exactly m solutions remain, each excluded by
 * every pin set. Another shuffle is tried if no given allows it.
 */
import { Problem } from "../problem";
import { Solver } from "../solver";
import { tileLineSpecs } from "../tile-problem";
import { KnownSolutions } from "./known-solutions";
import type { Rng } from "../random";
import type { SolutionCount, TileShape } from "../types";

/** Largest alternative set enumerated during climb-back. */
const CLIMB_LIMIT = 32;
/** Givens whose climb-back tries share one base state (see `climb`). */
const CLIMB_BLOCK = 16;
const ROUNDS = 4;
/**
 * Search nodes allowed per count. A count that needs more is treated as "too many solutions"
 * (the removal is not kept): the result stays correct, only possibly less sparse, and the
 * cut-off is a node count, so it is deterministic.
 */
export const COUNT_BUDGET = 400;

export interface GivensInput {
  shape: TileShape;
  G: number;
  /** Global cell ids of the tile, ascending. */
  cells: readonly number[];
  /** Global solution (indexed by cell id). */
  solution: Uint8Array;
  /** Is a global cell shared with another tile? */
  isShared: (cell: number) => boolean;
  /**
   * Sets of shared cells whose true values must each pin the tile on their own (default: one
   * set, all shared cells).
   */
  pinSets?: ((cell: number) => boolean)[];
  m: SolutionCount;
}

export class GivensReducer {
  private readonly problem: Problem;
  private readonly solver: Solver;
  private readonly n: number;
  private readonly truth: Int8Array;
  private readonly shared: Uint8Array;
  private readonly pins: Uint8Array[];
  /** The local cells of each pin set. */
  private readonly pinCells: Int32Array[];
  private readonly fixed: Int8Array;
  private readonly m: number;
  /** Count calls made (for profiling). */
  counts = 0;
  /** Solutions of the current accepted givens during greedy removal. */
  private cur = 1;

  constructor(input: GivensInput) {
    this.problem = new Problem(tileLineSpecs(input.shape, input.G, 0, true));
    this.solver = new Solver(this.problem);
    this.n = this.problem.nCells;
    this.truth = new Int8Array(this.n);
    this.shared = new Uint8Array(this.n);
    const sets = input.pinSets && input.pinSets.length > 0 ? input.pinSets : [input.isShared];
    this.pins = sets.map(() => new Uint8Array(this.n));
    this.pinCells = [];
    this.fixed = new Int8Array(this.n);
    this.m = input.m;
    for (let i = 0; i < this.n; i++) {
      const id = this.problem.cellIds[i];
      this.truth[i] = input.solution[id];
      this.shared[i] = input.isShared(id) ? 1 : 0;
      sets.forEach((isPin, k) => (this.pins[k][i] = this.shared[i] && isPin(id) ? 1 : 0));
    }
    for (const pin of this.pins) {
      const cells: number[] = [];
      for (let i = 0; i < this.n; i++) if (pin[i]) cells.push(i);
      this.pinCells.push(Int32Array.from(cells));
    }
  }

  /** Solutions with the givens fixed (at most `limit`; a count over budget is taken as the limit). */
  private countWith(given: Uint8Array, limit: number): number {
    const f = this.fixed;
    for (let i = 0; i < this.n; i++) f[i] = given[i] ? this.truth[i] : -1;
    this.counts++;
    if (!this.solver.reset(f)) return 0;
    const c = this.solver.count(limit, COUNT_BUDGET);
    return c < 0 ? limit : c;
  }

  /** Global ids of the chosen givens, ascending; null when no round succeeded. */
  run(rng: Rng): number[] | null {
    for (let round = 0; round < ROUNDS; round++) {
      const given = this.greedy(rng);
      // Greedy tracks the exact count of its givens (`cur`, at most m): below m a fresh count
      // could only confirm it (or stop on its budget, taken as m + 1), so only at m is it needed.
      if ((this.cur === this.m && this.countWith(given, this.m + 1) === this.m) || this.climb(given, rng)) {
        const ids: number[] = [];
        for (let i = 0; i < this.n; i++) if (given[i]) ids.push(this.problem.cellIds[i]);
        return ids.sort((a, b) => a - b);
      }
    }
    return null;
  }

  /**
   * Greedy removal, incrementally. A test of removing order[i..end) needs the solutions with the
   * kept givens (order[0..i) that stayed) and the untested ones (order[end..n)) fixed. One reset
   * per pass: the solver's trail then holds those cells (see `fixFrom`), and each test assumes
   * its own cells (the removed cell against the truth, or a pin set) on top and backtracks.
   *
   * Every count depends only on the cells fixed, never on how the state was reached: propagation
   * computes the same fixpoint in any order, the search branches on the first search line with
   * fewest patterns, so the tree is the same, and a count is either exact (fewer solutions than
   * its limit, within the node budget) or taken as the limit. So this gives exactly the verdicts
   * of a fresh reset per test, for a fraction of the work.
   */
  private greedy(rng: Rng): Uint8Array {
    const n = this.n;
    const m = this.m;
    const given = new Uint8Array(n).fill(1);
    this.cur = 1;
    // Shared cells are tried first, so givens end up mostly inside the tile and the ambiguity
    // left for neighbours to settle sits on shared cells (this is what makes play spread).
    const all = rng.shuffle(Array.from({ length: n }, (_, i) => i));
    const order = [...all.filter((i) => this.shared[i]), ...all.filter((i) => !this.shared[i])];
    const solver = this.solver;
    const cells = new Int32Array(2 * n + 1);
    const values = new Int32Array(2 * n + 1);
    const truth = this.truth;
    const fixed = this.fixed;
    fixed.fill(-1);
    this.counts++;
    solver.reset(fixed);
    // On top of that empty base the trail holds entries: pieces of the untested cells (entry k
    // fixes order[segFrom[k]..) up to the previous entry's start, or n) and kept givens (keptCells
    // from segKept[k] up to the next entry's). A test removing order[i..end) pops the entries that
    // fix cells before `end`, assumes again the kept givens they held, and assumes the missing
    // cells in pieces halving towards `end` (the next test pops only the small ones), so
    // consecutive tests share their propagation. Pieces are disjoint, a given is kept once: ≤ 2n.
    const segFrom = new Int32Array(2 * n + 1);
    const segMark = new Int32Array(2 * n + 1);
    const segKept = new Int32Array(2 * n + 1);
    const keptCells = new Int32Array(n);
    let keptTop = 0;
    let segs = 0;
    const entry = (from: number, kept: number): void => {
      segMark[segs] = solver.mark();
      segFrom[segs] = from;
      segKept[segs++] = kept;
    };
    // Every cell assumed here is true: a subset of the truth is never a contradiction.
    const assumeRange = (from: number, to: number): void => {
      let k = 0;
      for (let j = from; j < to; j++) {
        cells[k] = order[j];
        values[k++] = truth[order[j]];
      }
      solver.assume(cells, values, k);
    };
    const fixFrom = (end: number): void => {
      let top = segs > 0 ? segFrom[segs - 1] : n;
      let lost = keptTop;
      while (top < end) {
        solver.backtrack(segMark[--segs]);
        lost = segKept[segs];
        top = segs > 0 ? segFrom[segs - 1] : n;
      }
      if (lost < keptTop) {
        entry(top, lost);
        let k = 0;
        for (let j = lost; j < keptTop; j++) {
          cells[k] = keptCells[j];
          values[k++] = truth[keptCells[j]];
        }
        solver.assume(cells, values, k);
      }
      while (top > end) {
        const from = top - ((top - end + 1) >> 1);
        entry(from, keptTop);
        assumeRange(from, top);
        top = from;
      }
    };
    /** order[i] stays a given for good (the state fixes order[i + 1..) at this point). */
    const keep = (i: number): void => {
      entry(i + 1, keptTop);
      keptCells[keptTop++] = order[i];
      assumeRange(i, i + 1);
    };
    const addPin = (pin: Uint8Array): number => {
      let k = 0;
      for (let i = 0; i < n; i++) {
        if (pin[i]) {
          cells[k] = i;
          values[k++] = truth[i];
        }
      }
      return k;
    };
    // Does each pin set leave fewer than `limit` of the solutions `sols` (all the solutions of the
    // current assumptions) once assumed on top of them? When some pin set keeps `limit` of them,
    // its count would reach the limit, so the answer is no without a search; otherwise the count
    // runs, as it may still stop on its node budget (a contradiction counts as none).
    const pinnedHere = (found: number, limit: number, y: number): boolean => {
      for (let p = 0; p < this.pins.length; p++) {
        if (y >= 0 && this.pins[p][y]) continue;
        let agree = 0;
        for (let k = 0; k < found; k++) if (agrees(sols[k], this.pinCells[p]) && ++agree >= limit) return false;
      }
      return this.pins.every((pin) => {
        if (y >= 0 && pin[y]) return true;
        const mark = solver.mark();
        const ok = !solver.assume(cells, values, addPin(pin)) || countHere(limit) < limit;
        solver.backtrack(mark);
        return ok;
      });
    };
    const agrees = (s: Uint8Array, pinCells: Int32Array): boolean => {
      for (let k = 0; k < pinCells.length; k++) if (s[pinCells[k]] !== truth[pinCells[k]]) return false;
      return true;
    };
    const countHere = (limit: number): number => {
      this.counts++;
      const c = solver.count(limit, COUNT_BUDGET);
      return c < 0 ? limit : c;
    };
    // The number of solutions of the current assumptions, in `sols`, when fewer than `limit`
    // (-1: at least `limit`, or over budget: what a count takes as the limit). Same search as
    // `countHere`.
    const sols: Uint8Array[] = [];
    const position = new Int32Array(n);
    order.forEach((cell, p) => (position[cell] = p));
    const known = new KnownSolutions(truth, position);
    const solutionsHere = (limit: number): number => {
      this.counts++;
      const found = solver.enumerateInto(limit, COUNT_BUDGET, sols);
      for (let k = 0; k < found; k++) known.add(sols[k]);
      return found >= 0 && found < limit ? found : -1;
    };
    // Would removing order[i..end) keep both invariants?
    const test = (i: number, end: number): boolean => {
      // Enough solutions known already: the count would reach its limit.
      if (end - i === 1 ? known.endingAt(i, m - this.cur + 1) > m - this.cur : known.within(end, m + 1) > m) return false;
      fixFrom(end);
      const base = solver.mark();
      let ok = false;
      if (end - i === 1) {
        // Count only the solutions the removal adds: order[i] against the truth.
        const y = order[i];
        cells[0] = y;
        values[0] = 1 - truth[y];
        const room = m - this.cur;
        const added = solver.assume(cells, values, 1) ? solutionsHere(room + 1) : 0;
        ok = added >= 0;
        if (added > 0) ok = pinnedHere(added, 1, y);
        if (ok) this.cur += added;
      } else {
        const c = solutionsHere(m + 1);
        ok = c >= 0 && (c === 1 || pinnedHere(c, 2, -1));
        if (ok) this.cur = c;
      }
      solver.backtrack(base);
      return ok;
    };
    let i = 0;
    let b = 8;
    let streak = 0;
    while (i < n) {
      const end = Math.min(n, i + b);
      if (test(i, end)) {
        for (let j = i; j < end; j++) given[order[j]] = 0;
        i = end;
        // Grow only after two successes in a row: where most removals fail, single cells are
        // cheapest; where most succeed, batches quickly become large.
        if (++streak >= 2) b = Math.min(b * 2, 64);
      } else {
        streak = 0;
        if (b === 1) {
          // order[i] stays a given for good.
          keep(i);
          known.keep(i);
          i++;
        } else b = b >> 1; // halve: a binary search for the first cell that must stay
      }
    }
    return given;
  }

  /** From a state with fewer than m solutions, reach exactly m (mutates `given` on success). */
  private climb(given: Uint8Array, rng: Rng): boolean {
    const n = this.n;
    const m = this.m;
    const f = this.fixed;
    const kept: number[] = [];
    for (let i = 0; i < n; i++) if (given[i]) kept.push(i);
    rng.shuffle(kept);
    const order = rng.shuffle(Array.from({ length: n }, (_, i) => i));
    // The current alternatives (fewer than m - 1 of them), then for each given g the solutions
    // that removing g would add: exactly those with g against the truth (cheap to enumerate).
    for (let i = 0; i < n; i++) f[i] = given[i] ? this.truth[i] : -1;
    this.counts++;
    // This enumeration may stop on its limit (m solutions, all of them) or on its budget first:
    // which one depends on the branching order, so it runs in the first engine's order.
    this.solver.stackOrder = true;
    const current = this.solver.reset(f) ? (this.solver.enumerate(m, COUNT_BUDGET * 4) ?? []) : [];
    this.solver.stackOrder = false;
    const base = current.filter((s) => !this.isTruth(s));
    // Whether each alternative differs from the truth within every pin set, worked out once.
    const baseDiffers = base.map((s) => this.differsOnShared(s));
    const pool: Uint8Array[] = [];
    // Incrementally, as in the greedy pass: the base state fixes every given but a block of the
    // next ones to try; a try assumes the block (g against the truth, the others true) and
    // backtracks, and a g that fails joins the base. The enumeration's answer depends only on the
    // cells fixed (it is used only when complete), so this is exactly a fresh reset per g.
    const solver = this.solver;
    const cells = new Int32Array(CLIMB_BLOCK);
    const values = new Int32Array(CLIMB_BLOCK);
    let blockEnd = 0;
    for (let gi = 0; gi < kept.length; gi++) {
      const g = kept[gi];
      if (gi >= blockEnd) {
        blockEnd = Math.min(kept.length, gi + CLIMB_BLOCK);
        for (let i = 0; i < n; i++) f[i] = given[i] ? this.truth[i] : -1;
        for (let j = gi; j < blockEnd; j++) f[kept[j]] = -1;
        // A subset of the truth: never a contradiction.
        solver.reset(f);
      }
      given[g] = 0;
      let k = 0;
      for (let j = gi; j < blockEnd; j++) {
        cells[k] = kept[j];
        values[k++] = j === gi ? 1 - this.truth[g] : this.truth[kept[j]];
      }
      this.counts++;
      const mark = solver.mark();
      const found = solver.assume(cells, values, k) ? solver.enumerateInto(CLIMB_LIMIT + 1, COUNT_BUDGET * 4, pool) : 0;
      solver.backtrack(mark);
      if (found >= 0 && found <= CLIMB_LIMIT && base.length + found >= m - 1) {
        let alts = [...base, ...pool.slice(0, found)];
        const differs = new Map<Uint8Array, boolean>();
        base.forEach((s, k) => differs.set(s, baseDiffers[k]));
        for (let k = 0; k < found; k++) differs.set(pool[k], this.differsOnShared(pool[k]));
        const allDiffer = (list: Uint8Array[]): boolean => list.every((a) => differs.get(a));
        const extra: number[] = [];
        for (const x of order) {
          if (alts.length === m - 1 && allDiffer(alts)) break;
          if (given[x]) continue;
          const keep = alts.filter((a) => a[x] === this.truth[x]);
          if (keep.length === alts.length || keep.length < m - 1) continue;
          // Keep enough alternatives that differ on a shared cell.
          if (keep.filter((a) => differs.get(a)).length < m - 1) continue;
          alts = keep;
          extra.push(x);
        }
        if (alts.length === m - 1 && allDiffer(alts)) {
          for (const x of extra) given[x] = 1;
          return true;
        }
      }
      given[g] = 1;
      cells[0] = g;
      values[0] = this.truth[g];
      solver.assume(cells, values, 1);
    }
    return false;
  }

  private isTruth(s: Uint8Array): boolean {
    for (let i = 0; i < this.n; i++) if (s[i] !== this.truth[i]) return false;
    return true;
  }

  /** Does an alternative differ from the truth within every pin set (so each set excludes it)? */
  private differsOnShared(s: Uint8Array): boolean {
    return this.pins.every((pin) => {
      for (let i = 0; i < this.n; i++) if (pin[i] && s[i] !== this.truth[i]) return true;
      return false;
    });
  }
}
