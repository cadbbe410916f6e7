/**
 * Independent checks of generated fields (SPEC §2, §3), written without the engine's solver:
 * rule checks on complete values and a brute-force counter (rows from the valid-line table,
 * columns checked as prefixes) used to cross-check the solver on small tiles.
 */
import { shapeCellIds, shapeLines, type Line } from "../../../src/engine/geometry";
import { isValidLine, validLineCount } from "../../../src/engine/lines";
import type { Field, Tile } from "../../../src/engine/types";

export function lineValue(line: Line, values: (c: number) => number): number {
  let bits = 0;
  line.cells.forEach((c, i) => {
    if (values(c)) bits |= 1 << i;
  });
  return bits;
}

/** First violated rule of SPEC §2 in a tile under `values`, or null. */
export function ruleViolation(tile: Tile, G: number, values: (c: number) => number): string | null {
  const seen = new Map<string, number>();
  for (const line of shapeLines(tile, G)) {
    const len = line.cells.length;
    if (len % 2 !== 0) return `odd line of length ${len}`;
    const bits = lineValue(line, values);
    if (!isValidLine(bits, len)) return `line ${line.orientation} ${line.cells[0]} breaks balance or run`;
    const key = `${line.orientation}|${len}|${bits}`;
    if (seen.has(key)) return `two equal ${line.orientation} lines of length ${len}`;
    seen.set(key, 1);
  }
  return null;
}

/** Lines per orientation and length never exceed the valid-line count (SPEC §2). */
export function lineCountsWithinLimits(tile: Tile, G: number): boolean {
  const counts = new Map<string, number>();
  for (const line of shapeLines(tile, G)) {
    const key = `${line.orientation}|${line.cells.length}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  for (const [key, n] of counts) if (n > validLineCount(Number(key.split("|")[1]))) return false;
  return true;
}

/**
 * Brute-force solution list of a tile with fixed cells: every horizontal line takes each valid
 * pattern agreeing with the fixed cells, in row order; vertical lines are checked for runs and
 * balance as prefixes and fully at the end, then rule 3 on both orientations.
 */
export function bruteForceSolutions(tile: Tile, G: number, fixed: Map<number, number>, limit: number): Map<number, number>[] {
  const lines = shapeLines(tile, G);
  const rows = lines.filter((l) => l.orientation === "h");
  const cols = lines.filter((l) => l.orientation === "v");
  const value = new Map<number, number>();
  const out: Map<number, number>[] = [];
  const options = rows.map((row) => {
    const len = row.cells.length;
    const all: number[] = [];
    for (let bits = 0; bits < 1 << len; bits++) {
      if (!isValidLine(bits, len)) continue;
      if (row.cells.every((c, i) => !fixed.has(c) || fixed.get(c) === ((bits >> i) & 1))) all.push(bits);
    }
    return all;
  });
  const colOk = (final: boolean): boolean => {
    for (const col of cols) {
      let ones = 0;
      let zeros = 0;
      let run = 0;
      let last = -1;
      let complete = true;
      for (const c of col.cells) {
        const v = value.get(c);
        if (v === undefined) {
          complete = false;
          run = 0;
          last = -1;
          continue;
        }
        if (v) ones++;
        else zeros++;
        run = v === last ? run + 1 : 1;
        last = v;
        if (run > 2) return false;
      }
      if (ones * 2 > col.cells.length || zeros * 2 > col.cells.length) return false;
      if (final && !complete) return false;
    }
    return true;
  };
  const distinct = (ls: Line[]): boolean => {
    const seen = new Set<string>();
    for (const l of ls) {
      const key = `${l.cells.length}|${lineValue(l, (c) => value.get(c) ?? 0)}`;
      if (seen.has(key)) return false;
      seen.add(key);
    }
    return true;
  };
  const walk = (r: number): void => {
    if (out.length >= limit) return;
    if (r === rows.length) {
      if (colOk(true) && distinct(rows) && distinct(cols)) out.push(new Map(value));
      return;
    }
    for (const bits of options[r]) {
      rows[r].cells.forEach((c, i) => value.set(c, (bits >> i) & 1));
      if (colOk(false)) walk(r + 1);
    }
    for (const c of rows[r].cells) value.delete(c);
  };
  walk(0);
  return out;
}

export function coverCounts(field: Field): Uint8Array {
  const cover = new Uint8Array(field.G * field.G);
  for (const t of field.tiles) for (const c of t.cellIds) cover[c]++;
  return cover;
}

/** Structural checks of a field: ids, cells matching shapes, lines, limits, holes. */
export function structuralProblems(field: Field): string[] {
  const problems: string[] = [];
  const cover = coverCounts(field);
  field.tiles.forEach((t, i) => {
    if (t.id !== i) problems.push(`tile ${i} has id ${t.id}`);
    const ids = shapeCellIds(t, field.G);
    if (ids.join() !== t.cellIds.join()) problems.push(`tile ${i} cells do not match its shape`);
    if (t.x0 < 0 || t.y0 < 0 || t.x0 + t.w > field.G || t.y0 + t.h > field.G) problems.push(`tile ${i} leaves the board`);
    for (const line of shapeLines(t, field.G)) if (line.cells.length % 2) problems.push(`tile ${i} has an odd line`);
    if (!lineCountsWithinLimits(t, field.G)) problems.push(`tile ${i} has more lines of one length than valid lines`);
    const expectM = t.cellIds.length <= 64 ? 2 : t.cellIds.length <= 196 ? 3 : 4;
    if (t.m !== expectM) problems.push(`tile ${i} has m=${t.m}, expected ${expectM}`);
    if (!t.givens.every((g) => t.cellIds.includes(g))) problems.push(`tile ${i} has a given outside it`);
    if (!t.cellIds.some((c) => cover[c] >= 2)) problems.push(`tile ${i} shares no cell`);
  });
  for (let c = 0; c < cover.length; c++) if (!cover[c] && field.solution[c] !== 0) problems.push(`hole ${c} holds a value`);
  return problems;
}
