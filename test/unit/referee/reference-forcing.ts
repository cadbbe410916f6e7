/**
 * A slow, from-scratch evaluation of SPEC §4.5, written independently of the engine's
 * incremental Propagator: for every question it rebuilds the closure of the known cells of the
 * revealed tiles by scanning every empty cell against the three line rules until nothing
 * changes, with bifurcation to the requested depth.
 */
import { shapeLines } from "../../../src/engine/geometry";
import type { Field } from "../../../src/engine/types";
import type { ForcingRule } from "../../../src/referee/forcing";

interface Line {
  cells: number[];
  orientation: "h" | "v";
  tile: number;
}

export class ReferenceForcing {
  private readonly tileLines: Line[][];

  constructor(private readonly field: Field) {
    this.tileLines = field.tiles.map((t) => shapeLines(t, field.G).map((l) => ({ cells: l.cells, orientation: l.orientation, tile: t.id })));
  }

  /** Lines of revealed tiles through each cell. */
  private activeLines(revealed: ReadonlySet<number>): Map<number, Line[]> {
    const out = new Map<number, Line[]>();
    for (const t of revealed) for (const l of this.tileLines[t]) for (const c of l.cells) out.set(c, [...(out.get(c) ?? []), l]);
    return out;
  }

  /** Rules excluding value v at empty cell c, under `value`. */
  exclusions(value: Int8Array, lines: Map<number, Line[]>, c: number, v: number): Set<ForcingRule> {
    const rules = new Set<ForcingRule>();
    for (const l of lines.get(c) ?? []) {
      const n = l.cells.length;
      const i = l.cells.indexOf(c);
      const at = (k: number): number => (k >= 0 && k < n ? value[l.cells[k]] : -2);
      if ((at(i - 2) === v && at(i - 1) === v) || (at(i + 1) === v && at(i + 2) === v) || (at(i - 1) === v && at(i + 1) === v)) rules.add("run");
      let count = 0;
      let blanks = 0;
      for (const x of l.cells) {
        if (value[x] === v) count++;
        if (value[x] === -1) blanks++;
      }
      if (count >= n / 2) rules.add("balance");
      if (blanks === 1 || blanks === 2) {
        // The line as it would be with c = v (and the other blank filled by balance).
        const filled = l.cells.map((x) => (x === c ? v : value[x]));
        if (blanks === 2) {
          const ones = filled.filter((x) => x === 1).length;
          const zeros = filled.filter((x) => x === 0).length;
          const fill = ones === n / 2 ? 0 : zeros === n / 2 ? 1 : -1;
          if (fill === -1) continue;
          for (let k = 0; k < n; k++) if (filled[k] === -1) filled[k] = fill;
        }
        for (const o of this.tileLines[l.tile]) {
          if (o === l || o.orientation !== l.orientation || o.cells.length !== n) continue;
          if (o.cells.some((x) => value[x] === -1)) continue;
          if (o.cells.every((x, k) => value[x] === filled[k])) rules.add("unique");
        }
      }
    }
    return rules;
  }

  /**
   * Close `value` in place under the rules. Returns false on a
   * contradiction (an empty cell with both values excluded).
   */
  close(value: Int8Array, lines: Map<number, Line[]>, depth: number): boolean {
    const cells = [...lines.keys()].sort((a, b) => a - b);
    for (;;) {
      let changed = false;
      for (const c of cells) {
        if (value[c] !== -1) continue;
        const no0 = this.exclusions(value, lines, c, 0).size > 0;
        const no1 = this.exclusions(value, lines, c, 1).size > 0;
        if (no0 && no1) return false;
        if (no0 || no1) {
          value[c] = no0 ? 1 : 0;
          changed = true;
        }
      }
      if (changed) continue;
      if (depth === 0) return true;
      for (const c of cells) {
        if (value[c] !== -1) continue;
        const bad = [0, 1].map((v) => {
          const trial = Int8Array.from(value);
          trial[c] = v;
          return !this.close(trial, lines, depth - 1);
        });
        if (bad[0] && bad[1]) return false;
        if (bad[0] || bad[1]) {
          value[c] = bad[0] ? 1 : 0;
          changed = true;
          break;
        }
      }
      if (!changed) return true;
    }
  }

  /**
   * Is the unknown cell c forced, given the known cells and revealed tiles? Returns its value and
   * the rule to report: the line rules are applied in rounds from the known cells (every cell
   * fixable from the previous round's board is fixed at once); a cell fixed in some round reports
   * the highest-priority rule (run, balance, unique) excluding its other value in that round. A
   * cell the line rules never reach but bifurcation fixes reports "bifurcation".
   */
  forced(revealed: ReadonlySet<number>, known: Int8Array, c: number, depth: number): { value: 0 | 1; rule: ForcingRule } | null {
    const lines = this.activeLines(revealed);
    if (!lines.has(c)) return null;
    const full = Int8Array.from(known);
    if (!this.close(full, lines, depth)) return null;
    if (full[c] === -1) return null;
    const v = full[c] as 0 | 1;
    return { value: v, rule: this.roundRule(known, lines, c, v) ?? "bifurcation" };
  }

  /** The rule of the round of the basic closure that fixes c to v, or null if it never does. */
  private roundRule(known: Int8Array, lines: Map<number, Line[]>, c: number, v: 0 | 1): ForcingRule | null {
    const cells = [...lines.keys()].sort((a, b) => a - b);
    let board = Int8Array.from(known);
    for (;;) {
      const next = Int8Array.from(board);
      let changed = false;
      for (const x of cells) {
        if (board[x] !== -1) continue;
        const no0 = this.exclusions(board, lines, x, 0);
        const no1 = this.exclusions(board, lines, x, 1);
        if (no0.size > 0 && no1.size > 0) return null;
        if (no0.size === 0 && no1.size === 0) continue;
        const value = no0.size > 0 ? 1 : 0;
        if (x === c) {
          const rules = value === v ? (v === 1 ? no0 : no1) : new Set<ForcingRule>();
          for (const r of ["run", "balance", "unique"] as const) if (rules.has(r)) return r;
          return null;
        }
        next[x] = value;
        changed = true;
      }
      if (!changed) return null;
      board = next;
    }
  }

  get G(): number {
    return this.field.G;
  }
}
