/**
 * The field's own optimum (SPEC §11 analysis, docs/spectator.md "Analysis"): how much of the field
 * the referee's propagation alone gives to a player who never guesses while a cell is forced.
 *
 * Definition. Every tile is revealed, so every given is known. Tiles are then played in id order;
 * for the current tile, every unknown cell that the referee's propagation (SPEC §4.5, at the
 * field's depth, over all known cells) fixes is committed as forced; then, when the tile still
 * has unknown cells, the first of them that was not forced (lowest id) is committed with its true
 * value as a guess; this repeats until the tile is solved. Cells a tile's turn leaves known in
 * later tiles count as they were committed (forced). The optimum share is forced cells ÷ all
 * committed cells (givens excluded). The result is a pure function of the field and the depth;
 * each cell's class (forced or guess) lets the analysis say, for the cells a group committed,
 * which share this play obtained by propagation alone.
 */
import { Propagator } from "../engine/propagation";
import type { Field } from "../engine/types";

export const OPTIMUM_FORCED = 1;
export const OPTIMUM_GUESS = 2;

export interface Optimum {
  depth: 0 | 1 | 2;
  tiles: number;
  /** Cells committed in the optimum play (covered cells that are not givens). */
  cells: number;
  forced: number;
  guesses: number;
  /** forced / cells (0 without cells). */
  share: number;
  /** Per cell: 0 (hole or given), OPTIMUM_FORCED or OPTIMUM_GUESS. */
  classes: Uint8Array;
}

/**
 * Plays the optimum. `pause` is awaited every `every` tiles so a caller inside a Durable Object
 * keeps serving requests meanwhile.
 */
export async function computeOptimum(field: Field, depth: 0 | 1 | 2, pause?: () => Promise<void>, every = 64): Promise<Optimum> {
  const { G, tiles, solution } = field;
  const propagator = new Propagator(G, depth);
  for (const t of tiles) propagator.addTile(t);
  // Reveal in slices, each closed by one propagation (the closure does not depend on the order),
  // so no single step holds the caller for long.
  const known = new Uint8Array(G * G);
  for (let i = 0; i < tiles.length; i++) {
    const t = tiles[i];
    propagator.reveal(t.id);
    for (const c of t.givens) {
      if (known[c]) continue;
      known[c] = 1;
      propagator.setKnown(c, solution[c] as 0 | 1);
    }
    if (i % every === every - 1 || i === tiles.length - 1) {
      propagator.forcedValue(t.cellIds[0]);
      if (pause) await pause();
    }
  }
  const classes = new Uint8Array(G * G);
  let forced = 0;
  let guesses = 0;
  for (let i = 0; i < tiles.length; i++) {
    if (pause && i % every === every - 1) await pause();
    const cells = tiles[i].cellIds;
    for (;;) {
      // One closure per round: forced cells are already implied by it, so they are read first
      // and made known afterwards (making them known changes nothing that propagation fixes).
      const found: number[] = [];
      let unknown = -1;
      for (const c of cells) {
        if (known[c]) continue;
        const f = propagator.forcedValue(c);
        if (f !== null && f.value === solution[c]) found.push(c);
        else if (unknown === -1) unknown = c;
      }
      for (const c of found) {
        known[c] = 1;
        classes[c] = OPTIMUM_FORCED;
        forced++;
        propagator.setKnown(c, solution[c] as 0 | 1);
      }
      if (unknown === -1) break;
      known[unknown] = 1;
      classes[unknown] = OPTIMUM_GUESS;
      guesses++;
      propagator.setKnown(unknown, solution[unknown] as 0 | 1);
    }
  }
  const cells = forced + guesses;
  return { depth, tiles: tiles.length, cells, forced, guesses, share: cells === 0 ? 0 : forced / cells, classes };
}
