import { propagate } from "./rules";
import { EMPTY, type PropagationState } from "./state";

/**
 * Closure with bifurcation (SPEC §4.5), over one independent region of the board: the tiles
 * `tiles` and their cells. Semantics (docs/propagation.md):
 *
 *   close(depth): run the basic rules to their fixpoint; then, if depth > 0, repeat until a
 *   whole pass fixes nothing: for each empty cell of the region (ascending id) and each value,
 *   assume the value and run close(depth - 1); a value whose assumption ends in a contradiction
 *   is excluded; both excluded is a contradiction; one excluded fixes the cell to the other
 *   value, followed by the basic rules again.
 *
 * Returns false on a contradiction. Trial assignments are recorded on the state's trail and
 * taken back, so a trial leaves the board exactly as it found it.
 */
export function closeWithBifurcation(s: PropagationState, tiles: readonly number[], depth: number): boolean {
  // Everything a shallower depth fixes, depth fixes too, and the fixpoint does not depend on
  // the order of fixing: closing at depth - 1 first leaves fewer cells for the costly trials.
  if (!(depth <= 1 ? propagate(s) : closeWithBifurcation(s, tiles, depth - 1))) return false;
  if (depth <= 0) return true;
  for (let changed = true; changed; ) {
    changed = false;
    for (const cell of emptyCells(s, tiles)) {
      if (s.value[cell] !== EMPTY) continue; // fixed earlier in this pass
      const fails0 = trialFails(s, tiles, cell, 0, depth - 1);
      const fails1 = trialFails(s, tiles, cell, 1, depth - 1);
      if (fails0 && fails1) return false;
      if (fails0 || fails1) {
        s.assign(cell, fails0 ? 1 : 0);
        if (!propagate(s)) return false;
        changed = true;
      }
    }
  }
  return true;
}

/** Assume `cell = v`, close at `depth`, undo; true when the assumption is contradictory. */
function trialFails(s: PropagationState, tiles: readonly number[], cell: number, v: 0 | 1, depth: number): boolean {
  const outermost = s.trail === null;
  const trail = s.trail ?? (s.trail = []);
  const mark = trail.length;
  s.assign(cell, v);
  const ok = closeWithBifurcation(s, tiles, depth);
  s.clearQueue();
  s.undoTo(mark);
  if (outermost) s.trail = null;
  return !ok;
}

/** Empty cells of the region's tiles, ascending, each once. */
function emptyCells(s: PropagationState, tiles: readonly number[]): number[] {
  const out: number[] = [];
  for (const t of tiles) for (const c of s.tiles[t].cells) if (s.value[c] === EMPTY) out.push(c);
  out.sort((a, b) => a - b);
  let n = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[i - 1]) out[n++] = out[i];
  out.length = n;
  return out;
}
