import { shapeLines } from "./geometry";
import type { Forcing, ForcingRule, PropagationDepth } from "./propagation/types";
import type { TileShape } from "./types";

/**
 * A deliberately slow, literal transcription of SPEC §4.5, recomputed from scratch on every
 * question. It exists to check the incremental `Propagator` (property tests, benchmark
 * baseline); nothing in play uses it. It shares no code with the propagator apart from
 * `shapeLines`.
 */

type Values = Map<number, 0 | 1>;

interface RefLine {
  tile: number;
  orientation: "h" | "v";
  cells: number[];
}

const BASIC_RULES: readonly ForcingRule[] = ["run", "balance", "unique"];

export class ReferencePropagator {
  readonly G: number;
  readonly depth: PropagationDepth;
  private readonly tiles: TileShape[] = [];
  private readonly revealed = new Set<number>();
  private readonly known: Values = new Map();

  constructor(G: number, depth: PropagationDepth) {
    this.G = G;
    this.depth = depth;
  }

  addTile(tile: TileShape & { cellIds: number[] }): void {
    if (tile.id !== this.tiles.length) throw new Error(`tile ${tile.id} added out of order`);
    this.tiles.push(tile);
  }

  reveal(tileId: number): void {
    this.revealed.add(tileId);
  }

  setKnown(cell: number, value: 0 | 1): void {
    this.known.set(cell, value);
  }

  clearKnown(cell: number): void {
    this.known.delete(cell);
  }

  forcedValue(cell: number): Forcing | null {
    const all = this.solve();
    return all === "contradiction" ? null : (all.get(cell) ?? null);
  }

  get contradiction(): boolean {
    return this.solve() === "contradiction";
  }

  /** Every cell propagation fixes (known cells excluded), with its value and rule. */
  solve(): Map<number, Forcing> | "contradiction" {
    const lines: RefLine[] = [];
    for (const tile of [...this.revealed].sort((a, b) => a - b)) {
      for (const line of shapeLines(this.tiles[tile], this.G)) lines.push({ tile, ...line });
    }
    const cells = [...new Set(lines.flatMap((l) => l.cells))].sort((a, b) => a - b);
    const closed = close(new Map(this.known), this.depth, lines, cells);
    if (closed === null) return "contradiction";
    const rounds = basicRounds(this.known, lines, cells);
    const out = new Map<number, Forcing>();
    for (const [cell, value] of [...closed].sort((a, b) => a[0] - b[0])) {
      if (this.known.has(cell)) continue;
      out.set(cell, { value, rule: rounds.get(cell) ?? "bifurcation" });
    }
    return out;
  }
}

/**
 * The rule of every cell the basic rules fix, by rounds: each round fixes, all at once, every
 * cell the previous round's board leaves exactly one value, labelled with the first rule (run,
 * balance, unique) excluding the other value.
 */
function basicRounds(known: Values, lines: RefLine[], cells: number[]): Map<number, ForcingRule> {
  const s = new Map(known);
  const labels = new Map<number, ForcingRule>();
  for (;;) {
    const fixes: [number, 0 | 1, ForcingRule][] = [];
    for (const cell of cells) {
      if (s.has(cell)) continue;
      const r0 = BASIC_RULES.find((r) => excludedBy(r, cell, 0, s, lines));
      const r1 = BASIC_RULES.find((r) => excludedBy(r, cell, 1, s, lines));
      if (r0 && r1) return labels; // a contradiction, which the closure reports
      if (r0) fixes.push([cell, 1, r0]);
      else if (r1) fixes.push([cell, 0, r1]);
    }
    if (fixes.length === 0) return labels;
    for (const [cell, v, rule] of fixes) {
      s.set(cell, v);
      labels.set(cell, rule);
    }
  }
}

/** Closure at a bifurcation depth, or null on a contradiction. */
function close(start: Values, depth: number, lines: RefLine[], cells: number[]): Values | null {
  let s = closeBasic(start, lines, cells);
  if (s === null || depth === 0) return s;
  let changed = true;
  while (changed) {
    changed = false;
    for (const cell of cells) {
      if (s.has(cell)) continue;
      const fails = ([0, 1] as const).map((v) => close(new Map(s).set(cell, v), depth - 1, lines, cells) === null);
      if (fails[0] && fails[1]) return null;
      if (fails[0] || fails[1]) {
        s.set(cell, fails[0] ? 1 : 0);
        s = closeBasic(s, lines, cells);
        if (s === null) return null;
        changed = true;
      }
    }
  }
  return s;
}

/** Fix every cell with exactly one admissible value until nothing changes; null when a cell
 * has none or the values break a rule. */
function closeBasic(start: Values, lines: RefLine[], cells: number[]): Values | null {
  const s = new Map(start);
  let changed = true;
  while (changed) {
    changed = false;
    for (const cell of cells) {
      if (s.has(cell)) continue;
      const out0 = BASIC_RULES.some((r) => excludedBy(r, cell, 0, s, lines));
      const out1 = BASIC_RULES.some((r) => excludedBy(r, cell, 1, s, lines));
      if (out0 && out1) return null;
      if (out0 || out1) {
        s.set(cell, out0 ? 1 : 0);
        changed = true;
      }
    }
  }
  return breaksARule(s, lines) ? null : s;
}

/** Does `rule`, on some line through the (empty) cell, exclude value v? */
function excludedBy(rule: ForcingRule, cell: number, v: number, s: Values, lines: RefLine[]): boolean {
  for (const line of lines) {
    const i = line.cells.indexOf(cell);
    if (i === -1) continue;
    const at = (k: number): number | undefined => (k >= 0 && k < line.cells.length ? s.get(line.cells[k]) : undefined);
    const len = line.cells.length;
    if (rule === "run") {
      if ((at(i - 2) === v && at(i - 1) === v) || (at(i - 1) === v && at(i + 1) === v) || (at(i + 1) === v && at(i + 2) === v)) return true;
    } else if (rule === "balance") {
      if (line.cells.filter((c) => s.get(c) === v).length >= len / 2) return true;
    } else if (rule === "unique") {
      const blanks = line.cells.map((_, k) => k).filter((k) => k !== i && at(k) === undefined);
      if (blanks.length > 1) continue;
      const candidate = line.cells.map((c, k) => (k === i ? v : s.get(c)));
      if (blanks.length === 1) {
        const ones = candidate.filter((x) => x === 1).length;
        const zeros = candidate.filter((x) => x === 0).length;
        if (ones === len / 2 && zeros === len / 2 - 1) candidate[blanks[0]] = 0;
        else if (zeros === len / 2 && ones === len / 2 - 1) candidate[blanks[0]] = 1;
        else continue;
      }
      for (const other of lines) {
        if (other === line || other.tile !== line.tile || other.orientation !== line.orientation) continue;
        if (other.cells.length !== len || !other.cells.every((c) => s.has(c))) continue;
        if (other.cells.every((c, k) => s.get(c) === candidate[k])) return true;
      }
    }
  }
  return false;
}

function breaksARule(s: Values, lines: RefLine[]): boolean {
  for (const line of lines) {
    const vals = line.cells.map((c) => s.get(c));
    for (const v of [0, 1]) if (vals.filter((x) => x === v).length > line.cells.length / 2) return true;
    for (let k = 2; k < vals.length; k++) {
      if (vals[k] !== undefined && vals[k] === vals[k - 1] && vals[k] === vals[k - 2]) return true;
    }
    if (vals.some((x) => x === undefined)) continue;
    for (const other of lines) {
      if (other === line || other.tile !== line.tile || other.orientation !== line.orientation) continue;
      if (other.cells.length !== line.cells.length) continue;
      if (other.cells.every((c, k) => s.get(c) === vals[k])) return true;
    }
  }
  return false;
}
