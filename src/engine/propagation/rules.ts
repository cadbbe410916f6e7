import { EMPTY, type PropagationState } from "./state";
import { RULE_BALANCE, RULE_NONE, RULE_RUN, RULE_UNIQUE } from "./types";

/**
 * The three exclusion rules of SPEC §4.5 on one line, and the work-queue fixpoint built on
 * them. Everything reads the live board, so a rule always sees the latest fixed values.
 */

/**
 * Which rule (in priority order run, balance, unique) excludes value `v` at position `pos` of
 * `line`, treating that position as blank whatever it holds; RULE_NONE if none does.
 */
export function lineExclusion(s: PropagationState, line: number, pos: number, v: number): number {
  const cells = s.lineCells[line];
  const value = s.value;
  const len = cells.length;
  const half = len >> 1;

  // run: v would complete three equal in a row in any of the three positions.
  const p1 = pos >= 1 ? value[cells[pos - 1]] : EMPTY;
  const n1 = pos + 1 < len ? value[cells[pos + 1]] : EMPTY;
  if (p1 === v && (n1 === v || (pos >= 2 && value[cells[pos - 2]] === v))) return RULE_RUN;
  if (n1 === v && pos + 2 < len && value[cells[pos + 2]] === v) return RULE_RUN;

  // balance: the line already holds len/2 of v (not counting this position).
  const own = value[cells[pos]];
  const countV = (v === 0 ? s.lineZeros[line] : s.lineOnes[line]) - (own === v ? 1 : 0);
  if (countV >= half) return RULE_BALANCE;

  // unique: complete but for this position (and maybe one more blank that balance fills),
  // the line would equal another complete line of its tile, orientation and length.
  const blanks = len - s.lineZeros[line] - s.lineOnes[line] + (own === EMPTY ? 0 : 1);
  if (blanks <= 2 && uniqueExcludes(s, line, pos, v, blanks, countV)) return RULE_UNIQUE;
  return RULE_NONE;
}

function uniqueExcludes(s: PropagationState, line: number, pos: number, v: number, blanks: number, countV: number): boolean {
  const group = s.groups[s.lineGroup[line]];
  if (group.length < 2) return false;
  const cells = s.lineCells[line];
  const value = s.value;
  const len = cells.length;
  const half = len >> 1;
  let other = -1;
  let fill = EMPTY;
  if (blanks === 2) {
    for (let k = 0; k < len; k++) {
      if (k !== pos && value[cells[k]] === EMPTY) {
        other = k;
        break;
      }
    }
    if (other === -1) return false;
    // With v here the line holds countV + 1 of v; balance gives the last blank what is missing.
    const withV = countV + 1;
    const withW = len - 2 - countV; // cells other than the two blanks hold len - 2 values
    if (withV === half && withW === half - 1) fill = 1 - v;
    else if (withW === half && withV === half - 1) fill = v;
    else return false;
  }
  for (const sibling of group) {
    if (sibling === line || s.lineBlanks(sibling) !== 0) continue;
    const sib = s.lineCells[sibling];
    if (value[sib[pos]] !== v || (other !== -1 && value[sib[other]] !== fill)) continue;
    // Elsewhere the line must already equal the sibling (its blank `other` aside).
    if (s.differsAt(line, sibling, pos) === other) return true;
  }
  return false;
}

/** Does the line's assigned part already break a rule (too many of a value, three in a row,
 * or, complete, equal to a complete sibling)? */
export function lineViolated(s: PropagationState, line: number): boolean {
  const cells = s.lineCells[line];
  const value = s.value;
  const len = cells.length;
  const half = len >> 1;
  if (s.lineZeros[line] > half || s.lineOnes[line] > half) return true;
  for (let k = 2; k < len; k++) {
    const x = value[cells[k]];
    if (x !== EMPTY && x === value[cells[k - 1]] && x === value[cells[k - 2]]) return true;
  }
  if (s.lineBlanks(line) !== 0) return false;
  for (const sibling of s.groups[s.lineGroup[line]]) {
    if (sibling !== line && s.lineBlanks(sibling) === 0 && s.sameValues(line, sibling)) return true;
  }
  return false;
}

/**
 * Examine one line: report a contradiction (false) or fix every empty cell of it from which
 * this line excludes exactly one value. Fixing queues the cell's other lines, so the other
 * lines through the cell check the new value in their turn.
 */
function examineLine(s: PropagationState, line: number): boolean {
  if (lineViolated(s, line)) return false;
  const cells = s.lineCells[line];
  if (s.lineBlanks(line) === 0) return true;
  for (let k = 0; k < cells.length; k++) {
    const cell = cells[k];
    if (s.value[cell] !== EMPTY) continue;
    const no0 = lineExclusion(s, line, k, 0) !== RULE_NONE;
    const no1 = lineExclusion(s, line, k, 1) !== RULE_NONE;
    if (no0 && no1) return false;
    if (no0) s.assign(cell, 1);
    else if (no1) s.assign(cell, 0);
  }
  return true;
}

/** Run the queue to the fixpoint; false (queue emptied) on a contradiction. */
export function propagate(s: PropagationState): boolean {
  for (let line = s.dequeue(); line !== -1; line = s.dequeue()) {
    if (!examineLine(s, line)) {
      s.clearQueue();
      return false;
    }
  }
  return true;
}
