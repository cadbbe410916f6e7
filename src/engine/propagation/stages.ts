import { EMPTY, type PropagationState } from "./state";
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
  private queue: number[] = [];
  private head = 0;
  private readonly lines: number[] = [];
  private readonly buf: number[] = [];
  /** Minimal derivation stage per rule, filled by `derive` (index = rule code). */
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
    if (this.stage[cell] === 0) return;
    this.stage[cell] = 0;
    this.pushDependants(cell);
  }

  /** Queue a cell whose stage may have dropped. */
  push(cell: number): void {
    if (this.queued[cell]) return;
    this.queued[cell] = 1;
    this.queue.push(cell);
  }

  /** Lower stages to the fixpoint. */
  relax(): void {
    const s = this.s;
    while (this.head < this.queue.length) {
      const cell = this.queue[this.head++];
      this.queued[cell] = 0;
      if (s.value[cell] === EMPTY) continue;
      const next = s.known[cell] ? 0 : this.derive(cell);
      if (next < this.stage[cell]) {
        this.stage[cell] = next;
        this.pushDependants(cell);
      }
    }
    this.queue = [];
    this.head = 0;
  }

  /** Drop queued work (after a contradiction, when stages are meaningless anyway). */
  clear(): void {
    for (let i = this.head; i < this.queue.length; i++) this.queued[this.queue[i]] = 0;
    this.queue = [];
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
    const per = this.perRule;
    per[RULE_RUN] = NO_STAGE;
    per[RULE_BALANCE] = NO_STAGE;
    per[RULE_UNIQUE] = NO_STAGE;
    const n = s.linesThrough(cell, this.lines);
    for (let i = 0; i < n; i++) {
      const line = this.lines[2 * i];
      const p = this.lines[2 * i + 1];
      const cells = s.lineCells[line];
      const len = cells.length;
      const half = len >> 1;
      // run: two cells holding w next to or around this one.
      const win = (a: number, b: number): void => {
        if (a < 0 || b >= len || value[cells[a]] !== w || value[cells[b]] !== w) return;
        const st = Math.max(stage[cells[a]], stage[cells[b]]) + 1;
        if (st < per[RULE_RUN]) per[RULE_RUN] = st;
      };
      win(p - 2, p - 1);
      win(p - 1, p + 1);
      win(p + 1, p + 2);
      // balance: the half-th earliest of the line's other w cells.
      const buf = this.buf;
      buf.length = 0;
      for (let k = 0; k < len; k++) if (k !== p && value[cells[k]] === w) buf.push(stage[cells[k]]);
      if (buf.length >= half) {
        buf.sort((a, b) => a - b);
        const st = buf[half - 1] + 1;
        if (st < per[RULE_BALANCE]) per[RULE_BALANCE] = st;
      }
      // unique: equal to a complete sibling except here (and at most one more cell, which
      // balance fills with the sibling's value).
      for (const sib of s.groups[s.lineGroup[line]]) {
        if (sib === line || s.lineBlanks(sib) !== 0) continue;
        const other = s.lineCells[sib];
        if (value[other[p]] !== w) continue;
        let diff = -1;
        let diffs = 0;
        let sibMax = 0;
        for (let k = 0; k < len; k++) {
          const st = stage[other[k]];
          if (st > sibMax) sibMax = st;
          if (k !== p && value[cells[k]] !== value[other[k]]) {
            diff = k;
            if (++diffs > 1) break;
          }
        }
        if (diffs > 1) continue;
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
        const lineMax = diffs === 1 ? top : second;
        const st = Math.max(sibMax, lineMax) + 1;
        if (st < per[RULE_UNIQUE]) per[RULE_UNIQUE] = st;
      }
    }
    const best = Math.min(per[RULE_RUN], per[RULE_BALANCE], per[RULE_UNIQUE]);
    return best >= NO_STAGE ? NO_STAGE : best;
  }

  /** Cells whose stage may rely on this one: fixed cells on its lines, and fixed cells of
   * sibling lines that differ from a complete line through it in at most two places. */
  private pushDependants(cell: number): void {
    const s = this.s;
    const value = s.value;
    const floor = this.stage[cell] + 1; // a dependant at or below this cannot drop
    const n = s.linesThrough(cell, this.lines);
    for (let i = 0; i < n; i++) {
      const line = this.lines[2 * i];
      const cells = s.lineCells[line];
      for (const c of cells) if (c !== cell && !s.known[c] && value[c] !== EMPTY && this.stage[c] > floor) this.push(c);
      if (s.lineBlanks(line) !== 0) continue;
      for (const sib of s.groups[s.lineGroup[line]]) {
        if (sib === line) continue;
        const other = s.lineCells[sib];
        let d1 = -1;
        let d2 = -1;
        let diffs = 0;
        for (let k = 0; k < cells.length && diffs <= 2; k++) {
          if (value[other[k]] !== value[cells[k]]) {
            if (diffs === 0) d1 = k;
            else d2 = k;
            diffs++;
          }
        }
        if (diffs === 0 || diffs > 2) continue;
        for (const k of [d1, d2]) {
          const c = k === -1 ? -1 : other[k];
          if (c !== -1 && !s.known[c] && value[c] !== EMPTY && this.stage[c] > floor) this.push(c);
        }
      }
    }
  }
}
