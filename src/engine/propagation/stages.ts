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
 * upper bound: a newly fixed cell is staged from scratch; a cell whose stage drops (a new
 * known cell drops to 0) re-examines, on the lines through it only, the cells that may rely on
 * it; a retraction resets its region to "unknown" and stages it again. Cells fixed only
 * through bifurcation keep an infinite stage.
 */

export const NO_STAGE = 0x3fffffff;

export class Stages {
  readonly stage: Int32Array;
  /** Cells to stage from scratch (newly fixed, or newly on more lines). */
  private readonly queued: Uint8Array;
  private readonly queue: number[] = [];
  private head = 0;
  /** Cells whose stage dropped, with the stage they had before, to spread the drop from. */
  private readonly dropQueued: Uint8Array;
  private readonly dropOld: Int32Array;
  private readonly drops: number[] = [];
  private dropHead = 0;
  private readonly lines: number[] = [];
  private low = new Int32Array(32);

  constructor(private readonly s: PropagationState) {
    const n = s.G * s.G;
    this.stage = new Int32Array(n).fill(NO_STAGE);
    this.queued = new Uint8Array(n);
    this.dropQueued = new Uint8Array(n);
    this.dropOld = new Int32Array(n);
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
    this.dropped(cell, old);
  }

  /** Queue a cell to be staged from scratch. */
  push(cell: number): void {
    if (this.queued[cell]) return;
    this.queued[cell] = 1;
    this.queue.push(cell);
  }

  private dropped(cell: number, old: number): void {
    if (this.dropQueued[cell]) return; // already queued with an earlier, higher stage
    this.dropQueued[cell] = 1;
    this.dropOld[cell] = old;
    this.drops.push(cell);
  }

  /** Lower stages to the fixpoint. */
  relax(): void {
    const s = this.s;
    for (;;) {
      if (this.head < this.queue.length) {
        const cell = this.queue[this.head++];
        this.queued[cell] = 0;
        if (s.value[cell] === EMPTY) continue;
        const next = s.known[cell] ? 0 : this.derive(cell);
        const old = this.stage[cell];
        if (next < old) {
          this.stage[cell] = next;
          this.dropped(cell, old);
        }
      } else if (this.dropHead < this.drops.length) {
        const cell = this.drops[this.dropHead++];
        this.dropQueued[cell] = 0;
        if (s.value[cell] !== EMPTY) this.spread(cell, this.dropOld[cell]);
      } else break;
    }
    this.queue.length = 0;
    this.head = 0;
    this.drops.length = 0;
    this.dropHead = 0;
  }

  /** Drop queued work (after a contradiction, when stages are meaningless anyway). */
  clear(): void {
    for (let i = this.head; i < this.queue.length; i++) this.queued[this.queue[i]] = 0;
    for (let i = this.dropHead; i < this.drops.length; i++) this.dropQueued[this.drops[i]] = 0;
    this.queue.length = 0;
    this.head = 0;
    this.drops.length = 0;
    this.dropHead = 0;
  }

  /** The rule of a fixed cell: the highest-priority rule reaching its stage, or RULE_NONE
   * when only bifurcation fixes it. */
  rule(cell: number): number {
    const st = this.stage[cell];
    if (st >= NO_STAGE) return RULE_NONE;
    // Rules in priority order, each over every line through the cell, stopping at the first
    // that reaches the cell's stage (cheaper than a full derive: most cells stop at run).
    const s = this.s;
    const w = 1 - s.value[cell];
    const lines = this.lines;
    const n = s.linesThrough(cell, lines);
    for (let i = 0; i < n; i++) if (this.runStage(s.lineCells[lines[2 * i]], lines[2 * i + 1], w) === st) return RULE_RUN;
    for (let i = 0; i < n; i++) if (this.balanceStage(s.lineCells[lines[2 * i]], lines[2 * i + 1], w) === st) return RULE_BALANCE;
    for (let i = 0; i < n; i++) {
      const line = lines[2 * i];
      const group = s.groups[s.lineGroup[line]];
      if (group.length < 2 || s.lineBlanks(line) > 1) continue;
      for (let g = 0; g < group.length; g++) if (this.uniqueStage(line, lines[2 * i + 1], w, group[g], st + 1) === st) return RULE_UNIQUE;
    }
    return RULE_NONE;
  }

  /**
   * 1 + the least largest premise stage over every rule application that excludes the other
   * value at this fixed cell (NO_STAGE if none).
   */
  derive(cell: number): number {
    const s = this.s;
    const w = 1 - s.value[cell];
    let bestRun = NO_STAGE;
    let bestBalance = NO_STAGE;
    let bestUnique = NO_STAGE;
    const lines = this.lines;
    const n = s.linesThrough(cell, lines);
    for (let i = 0; i < n; i++) {
      const cells = s.lineCells[lines[2 * i]];
      const p = lines[2 * i + 1];
      bestRun = Math.min(bestRun, this.runStage(cells, p, w));
      bestBalance = Math.min(bestBalance, this.balanceStage(cells, p, w));
    }
    // Unique relies on a whole sibling line; siblings that cannot beat run or balance are
    // skipped.
    for (let i = 0; i < n; i++) {
      const line = lines[2 * i];
      const p = lines[2 * i + 1];
      const group = s.groups[s.lineGroup[line]];
      if (group.length < 2 || s.lineBlanks(line) > 1) continue;
      for (let g = 0; g < group.length; g++) {
        const st = this.uniqueStage(line, p, w, group[g], Math.min(bestRun, bestBalance, bestUnique));
        if (st < bestUnique) bestUnique = st;
      }
    }
    const best = Math.min(bestRun, bestBalance, bestUnique);
    return best >= NO_STAGE ? NO_STAGE : best;
  }

  /** run: two cells holding w next to or around position p. */
  private runStage(cells: Int32Array, p: number, w: number): number {
    const value = this.s.value;
    const stage = this.stage;
    const len = cells.length;
    const a2 = p >= 2 && value[cells[p - 2]] === w ? stage[cells[p - 2]] : NO_STAGE;
    const a1 = p >= 1 && value[cells[p - 1]] === w ? stage[cells[p - 1]] : NO_STAGE;
    const b1 = p + 1 < len && value[cells[p + 1]] === w ? stage[cells[p + 1]] : NO_STAGE;
    const b2 = p + 2 < len && value[cells[p + 2]] === w ? stage[cells[p + 2]] : NO_STAGE;
    const st = Math.min(Math.max(a2, a1), Math.max(a1, b1), Math.max(b1, b2)) + 1;
    return st >= NO_STAGE ? NO_STAGE : st;
  }

  /** balance: 1 + the half-th earliest stage among the line's other cells holding w. */
  private balanceStage(cells: Int32Array, p: number, w: number): number {
    const value = this.s.value;
    const stage = this.stage;
    const len = cells.length;
    const half = len >> 1;
    if (half > this.low.length) this.low = new Int32Array(2 * half);
    const low = this.low; // the smallest `half` stages seen, ascending
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
    return kept === half && low[half - 1] < NO_STAGE ? low[half - 1] + 1 : NO_STAGE;
  }

  /**
   * unique, with complete sibling `sib`: the line equals it except at p (where the sibling
   * holds w) and at most one more position, which balance fills with the sibling's value.
   * Premises: the sibling and the line without p and without one more cell (the differing
   * one, or else the line's latest). NO_STAGE when it does not apply or cannot go below `limit`.
   */
  private uniqueStage(line: number, p: number, w: number, sib: number, limit: number): number {
    const s = this.s;
    if (sib === line) return NO_STAGE;
    const value = s.value;
    const stage = this.stage;
    const other = s.lineCells[sib];
    if (value[other[p]] !== w || s.lineBlanks(sib) !== 0 || stage[other[p]] + 1 >= limit) return NO_STAGE;
    const diff = s.differsAt(line, sib, p);
    if (diff === -2) return NO_STAGE;
    const cells = s.lineCells[line];
    const len = cells.length;
    let sibMax = 0;
    for (let k = 0; k < len; k++) if (stage[other[k]] > sibMax) sibMax = stage[other[k]];
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
    return st >= NO_STAGE ? NO_STAGE : st;
  }

  /** The best stage a fixed cell gets from the rules on one line (NO_STAGE if none below
   * `limit`). */
  private lineStage(cell: number, line: number, p: number, limit: number): number {
    const s = this.s;
    const cells = s.lineCells[line];
    const w = 1 - s.value[cell];
    let best = Math.min(limit, this.runStage(cells, p, w), this.balanceStage(cells, p, w));
    const group = s.groups[s.lineGroup[line]];
    if (group.length >= 2 && s.lineBlanks(line) <= 1) {
      for (let g = 0; g < group.length; g++) best = Math.min(best, this.uniqueStage(line, p, w, group[g], best));
    }
    return best;
  }

  /**
   * A cell's stage dropped from `old`: re-examine the fixed cells that may rely on it — those on
   * its lines (through that line only), and those of sibling lines that differ from a complete
   * line through it in at most two places (through unique with that line). Only stages in
   * (new + 1, old + 1] can drop: a rule application using this cell was worth at least
   * old + 1 before, so a cell staged above that did not use it, and none can go below new + 1.
   */
  private spread(cell: number, old: number): void {
    const s = this.s;
    const value = s.value;
    const floor = this.stage[cell] + 1;
    const ceiling = old >= NO_STAGE ? NO_STAGE : old + 1;
    const lines = this.lines;
    const n = s.linesThrough(cell, lines);
    for (let i = 0; i < n; i++) {
      const line = lines[2 * i];
      const cells = s.lineCells[line];
      for (let k = 0; k < cells.length; k++) {
        const y = cells[k];
        const st = this.stage[y];
        if (y === cell || st <= floor || st > ceiling || s.known[y] || value[y] === EMPTY) continue;
        const next = this.lineStage(y, line, k, st);
        if (next < st) {
          this.stage[y] = next;
          this.dropped(y, st);
        }
      }
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
        this.spreadUnique(sib, d1, line, floor, ceiling);
        if (d2 !== -1) this.spreadUnique(sib, d2, line, floor, ceiling);
      }
    }
  }

  /** Re-examine the cell at position k of `line` through unique with the complete line `via`. */
  private spreadUnique(line: number, k: number, via: number, floor: number, ceiling: number): void {
    const s = this.s;
    const y = s.lineCells[line][k];
    const st = this.stage[y];
    if (st <= floor || st > ceiling || s.known[y] || s.value[y] === EMPTY) return;
    if (s.lineBlanks(line) > 1) return;
    const next = this.uniqueStage(line, k, 1 - s.value[y], via, st);
    if (next < st) {
      this.stage[y] = next;
      this.dropped(y, st);
    }
  }
}
