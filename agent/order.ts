/**
 * Orders a batch of proven cells so that the referee classifies as many as possible `forced`
 * (SPEC §4.5: a cell is forced when the referee's propagation over the cells known just before
 * it fixes it). A local copy of that propagation, over the worked tiles only, predicts which
 * cells are forced; they go first, each one known before the next is examined, and a cell the
 * propagation cannot reach goes next only when no forced cell is left. The prediction ignores
 * tiles the agent cannot see, so it is a lower bound; verdicts never depend on it.
 */
import { Propagator } from "../src/engine/propagation";
import type { Board, BoardTile } from "./board";

export interface OrderedCell {
  cell: number;
  value: 0 | 1;
  /** Predicted forced by the referee's propagation. */
  forced: boolean;
}

/** Cells tried as the next unforced cell; the one after which propagation forces most wins. */
const LOOKAHEAD = 12;

/** Index in `rest` of the cell whose commit lets the propagation force the most of the others. */
function bestUnlock(prop: Propagator, rest: ReadonlyArray<[number, 0 | 1]>, toLocal: (cell: number) => number): number {
  if (rest.length <= 1) return 0;
  const step = Math.max(1, Math.floor(rest.length / LOOKAHEAD));
  let best = 0;
  let bestGain = -1;
  for (let i = 0; i < rest.length; i += step) {
    const [cell, value] = rest[i];
    prop.setKnown(toLocal(cell), value);
    let gain = 0;
    if (!prop.contradiction) for (const [c, v] of rest) if (prop.forcedValue(toLocal(c))?.value === v) gain++;
    prop.clearKnown(toLocal(cell));
    if (gain > bestGain) {
      best = i;
      bestGain = gain;
    }
  }
  return best;
}

/**
 * The batch in commit order. With `forcedOnly` (fields whose rules reject guesses) the cells
 * the propagation does not predict forced are left out.
 */
export function orderForForcing(board: Board, tiles: readonly BoardTile[], cells: ReadonlyMap<number, 0 | 1>, forcedOnly = false): OrderedCell[] {
  const pending = [...cells].sort((a, b) => a[0] - b[0]);
  if (pending.length === 0 || tiles.length === 0) return forcedOnly ? [] : pending.map(([cell, value]) => ({ cell, value, forced: false }));

  // A window just around the worked tiles keeps the propagation's arrays small on big fields.
  const x0 = Math.min(...tiles.map((t) => t.x0));
  const y0 = Math.min(...tiles.map((t) => t.y0));
  const side = Math.max(Math.max(...tiles.map((t) => t.x0 + t.w)) - x0, Math.max(...tiles.map((t) => t.y0 + t.h)) - y0);
  const G = board.G;
  const toLocal = (cell: number): number => (Math.floor(cell / G) - y0) * side + ((cell % G) - x0);
  const prop = new Propagator(side, 0);
  const inWindow = new Set<number>();
  tiles.forEach((t, i) => {
    prop.addTile({ id: i, x0: t.x0 - x0, y0: t.y0 - y0, w: t.w, h: t.h, rects: t.rects, cellIds: t.cellIds.map(toLocal).sort((a, b) => a - b) });
    prop.reveal(i);
    for (const c of t.cellIds) inWindow.add(c);
  });
  for (const t of tiles) for (const c of t.cellIds) if (board.serverKnown.has(c)) prop.setKnown(toLocal(c), board.truth.get(c) as 0 | 1);

  const out: OrderedCell[] = [];
  let rest = pending.filter(([c]) => inWindow.has(c));
  const outside = pending.filter(([c]) => !inWindow.has(c));
  while (rest.length > 0) {
    if (prop.contradiction) break;
    const next: Array<[number, 0 | 1]> = [];
    let progressed = false;
    for (const [cell, value] of rest) {
      const f = prop.forcedValue(toLocal(cell));
      if (f && f.value === value) {
        out.push({ cell, value, forced: true });
        prop.setKnown(toLocal(cell), value);
        progressed = true;
      } else next.push([cell, value]);
    }
    rest = next;
    if (!progressed && rest.length > 0) {
      if (forcedOnly) return out;
      const pick = bestUnlock(prop, rest, toLocal);
      const [cell, value] = rest.splice(pick, 1)[0];
      out.push({ cell, value, forced: false });
      prop.setKnown(toLocal(cell), value);
    }
  }
  if (forcedOnly) return out;
  for (const [cell, value] of [...rest, ...outside]) out.push({ cell, value, forced: false });
  return out;
}
