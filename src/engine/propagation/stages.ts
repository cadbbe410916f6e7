import { EMPTY, lowestBit, MASK_MAX, popcount, type PropagationState } from "./state";
import { RULE_BALANCE, RULE_NONE, RULE_RUN, RULE_UNIQUE } from "./types";

/**
 * Which rule fixed a cell, defined without circularity (docs/propagation.md, "Which rule"):
 * apply the basic rules in rounds, all cells fixable from the previous round's board at once,
 * starting from the known cells (round 0). A fixed cell's *stage* is the round that fixes it,
 * and its rule is the highest-priority rule (run, balance, unique) excluding the other value
 * in that round.
 *
 * Equivalently — and this is how it is maintained — stage(cell) = 1 + the least, over every
 * way a rule can exclude the other value, of the largest stage among the cells that way
 * relies on (its premises); known cells have stage 0. Such a system has exactly one solution
 * (a premise always has a smaller stage), so stages can be lowered by relaxation from any
 * upper bound: a new known cell drops to 0 and its dependants are re-examined; a retraction
 * resets its region to "unknown" and relaxes it again. Cells fixed only through bifurcation
 * keep an infinite stage.
 */

export const NO_STAGE = 0x3fffffff;

export class Stages {
  readonly stage: Int32Array;
  private readonly queued: Uint8Array;
  private readonly queue: number[] = [];
  private head = 0;
  private readonly lines: number[] = [];
  private low = new Int32Array(32);
  /** Minimal derivation stage per rule, filled by `derive` (index = rule code); unique only
   * when it is strictly below run and balance (otherwise it may be left higher). */
  readonly perRule = new Int32Array(4);

  constructor(private readonly s: PropagationState) {
    const n = s.G * s.G;
    this.stage = new Int32Array(n).fill(NO_STAGE);
    this.queued = new Uint8Array(n);
  }

  /** Forget a cell's stage (it became empty, or its region is recomputed). */
  reset(cell: number): void {
    this.stage[cell] = NO_STAGE;
  }

  /** A cell became known: stage 0, and whatever relied on it may drop. */
  makeKnown(cell: number): void {
    const old = this.stage[cell];
    if (old === 0) return;
    this.stage[cell] = 0;
    this.pushDependants(cell, old);
  }

  /** Queue a cell whose stage may have dropped. */
  push(cell: number): void {
    if (this.queued[cell]) return;
    this.queued[cell] = 1;
    this.queue.push(cell);
  }

  /** Queue a fixed (not known) cell if its stage lies in (floor, ceiling]. */
  private pushIfBetween(c: number, floor: number, ceiling: number): void {
    const st = this.stage[c];
    if (st > floor && st <= ceiling && !this.s.known[c] && this.s.value[c] !== EMPTY) this.push(c);
  }

  /** Lower stages to the fixpoint. */
  relax(): void {
    const s = this.s;
    while (this.head < this.queue.length) {
      const cell = this.queue[this.head++];
      this.queued[cell] = 0;
      if (s.value[cell] === EMPTY) continue;
      const next = s.known[cell] ? 0 : this.derive(cell);
      const old = this.stage[cell];
      if (next < old) {
        this.stage[cell] = next;
        this.pushDependants(cell, old);
      }
    }
    this.queue.length = 0;
    this.head = 0;
  }

  /** Drop queued work (after a contradiction, when stages are meaningless anyway). */
  clear(): void {
    for (let i = this.head; i < this.queue.length; i++) this.queued[this.queue[i]] = 0;
    this.queue.length = 0;
    this.head = 0;
  }

  /** The rule of a fixed cell: the highest-priority rule reaching its stage, or RULE_NONE
   * when only bifurcation fixes it. */
  rule(cell: number): number {
    const st = this.stage[cell];
    if (st >= NO_STAGE) return RULE_NONE;
    this.derive(cell);
    for (let r = RULE_RUN; r <= RULE_UNIQUE; r++) if (this.perRule[r] === st) return r;
    return RULE_NONE;
  }

  /**
   * 1 + the least largest premise stage over every rule application that excludes the other
   * value at this fixed cell (NO_STAGE if none); per-rule minima land in `perRule`.
   */
  derive(cell: number): number {
    const s = this.s;
    const stage = this.stage;
    const value = s.value;
    const w = 1 - value[cell];
    let bestRun = NO_STAGE;
    let bestBalance = NO_STAGE;
    let bestUnique = NO_STAGE;
    const lines = this.lines;
    const n = s.linesThrough(cell, lines);
    let low = this.low;
    for (let i = 0; i < n; i++) {
      const line = lines[2 * i];
      const p = lines[2 * i + 1];
      const cells = s.lineCells[line];
      const len = cells.length;
      const half = len >> 1;
      if (half > low.length) this.low = low = new Int32Array(2 * half);
      // run: two cells holding w next to or around this one.
      const a2 = p >= 2 && value[cells[p - 2]] === w ? stage[cells[p - 2]] : NO_STAGE;
      const a1 = p >= 1 && value[cells[p - 1]] === w ? stage[cells[p - 1]] : NO_STAGE;
      const b1 = p + 1 < len && value[cells[p + 1]] === w ? stage[cells[p + 1]] : NO_STAGE;
      const b2 = p + 2 < len && value[cells[p + 2]] === w ? stage[cells[p + 2]] : NO_STAGE;
      const run = Math.min(Math.max(a2, a1), Math.max(a1, b1), Math.max(b1, b2)) + 1;
      if (run < bestRun) bestRun = run;
      // balance: the half-th earliest of the line's other w cells (`low` keeps the smallest
      // `half` stages seen, ascending).
      let kept = 0;
      for (let k = 0; k < len; k++) {
        if (k === p || value[cells[k]] !== w) continue;
        const st = stage[cells[k]];
        if (kept === half && st >= low[half - 1]) continue;
        let j = kept < half ? kept++ : half - 1;
        while (j > 0 && low[j - 1] > st) {
          low[j] = low[j - 1];
          j--;
        }
        low[j] = st;
      }
      if (kept === half && low[half - 1] + 1 < bestBalance) bestBalance = low[half - 1] + 1;
    }
    // unique: equal to a complete sibling except here (and at most one more cell, which
    // balance fills with the sibling's value). It relies on the whole sibling, so a sibling
    // whose cell here is staged too late to beat run or balance is skipped: unique is only
    // ever reported when it is strictly earlier than both.
    for (let i = 0; i < n; i++) {
      const line = lines[2 * i];
      const p = lines[2 * i + 1];
      const cells = s.lineCells[line];
      const len = cells.length;
      const group = s.groups[s.lineGroup[line]];
      if (group.length < 2 || s.lineBlanks(line) > 1) continue; // ≥ 2 differences with any complete line
      for (let g = 0; g < group.length; g++) {
        const sib = group[g];
        if (sib === line) continue;
        const other = s.lineCells[sib];
        if (value[other[p]] !== w || s.lineBlanks(sib) !== 0) continue;
        if (stage[other[p]] + 1 >= Math.min(bestRun, bestBalance, bestUnique)) continue;
        const diff = s.differsAt(line, sib, p);
        if (diff === -2) continue;
        let sibMax = 0;
        for (let k = 0; k < len; k++) if (stage[other[k]] > sibMax) sibMax = stage[other[k]];
        // Premises: the sibling and the line without this cell and without one more cell
        // (the differing one, or else the line's latest).
        let top = -1;
        let second = -1;
        for (let k = 0; k < len; k++) {
          if (k === p || k === diff) continue;
          const st = stage[cells[k]];
          if (st > top) {
            second = top;
            top = st;
          } else if (st > second) second = st;
        }
        const st = Math.max(sibMax, diff !== -1 ? top : second) + 1;
        if (st < bestUnique) bestUnique = st;
      }
    }
    const per = this.perRule;
    per[RULE_RUN] = bestRun;
    per[RULE_BALANCE] = bestBalance;
    per[RULE_UNIQUE] = bestUnique;
    const best = Math.min(bestRun, bestBalance, bestUnique);
    return best >= NO_STAGE ? NO_STAGE : best;
  }

  /**
   * After a cell's stage dropped from `old`, queue the cells whose stage may drop with it: fixed
   * cells on its lines, and fixed cells of sibling lines that differ from a complete line
   * through it in at most two places. Only stages in (new + 1, old + 1] can drop: a rule
   * application using this cell was worth at least old + 1 before, so a cell staged above that
   * did not use it, and none can go below new + 1.
   */
  private pushDependants(cell: number, old: number): void {
    const s = this.s;
    const value = s.value;
    const floor = this.stage[cell] + 1;
    const ceiling = old >= NO_STAGE ? NO_STAGE : old + 1;
    const n = s.linesThrough(cell, this.lines);
    for (let i = 0; i < n; i++) {
      const line = this.lines[2 * i];
      const cells = s.lineCells[line];
      for (let k = 0; k < cells.length; k++) if (cells[k] !== cell) this.pushIfBetween(cells[k], floor, ceiling);
      if (s.lineBlanks(line) !== 0) continue;
      for (const sib of s.groups[s.lineGroup[line]]) {
        if (sib === line) continue;
        const other = s.lineCells[sib];
        let d1 = -1;
        let d2 = -1;
        let diffs = 0;
        if (cells.length <= MASK_MAX) {
          const full = (1 << cells.length) - 1;
          const d = (s.lineOnesBits[line] ^ s.lineOnesBits[sib]) | (full & ~s.lineSetBits[sib]);
          diffs = d === 0 ? 0 : popcount(d);
          if (diffs === 0 || diffs > 2) continue;
          d1 = lowestBit(d);
          if (diffs === 2) d2 = lowestBit(d & (d - 1));
        } else {
          for (let k = 0; k < cells.length && diffs <= 2; k++) {
            if (value[other[k]] !== value[cells[k]]) {
              if (diffs === 0) d1 = k;
              else d2 = k;
              diffs++;
            }
          }
          if (diffs === 0 || diffs > 2) continue;
        }
        this.pushIfBetween(other[d1], floor, ceiling);
        if (d2 !== -1) this.pushIfBetween(other[d2], floor, ceiling);
      }
    }
  }
}
