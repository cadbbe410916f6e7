/**
 * What the agent does between two looks: commit what its solver proves, else reveal on its
 * frontier, else guess one cell, on the tiles its share gives it (share.ts), until nothing is left
 * or a fresh look is needed.
 */
import type { Board } from "./board";
import { chooseGuess, chooseReveal, type ExpandPolicy } from "./choices";
import type { Deducer } from "./deduce";
import { MAX_COMMIT_CELLS as MAX_BATCH } from "../src/referee/limits";
import { orderForForcing, type OrderedCell } from "./order";
import type { WorkShare } from "./share";
import type { Step } from "./stop";

/** Actions between two observations: the agent acts on its own answers, then looks again. */
const ACTIONS_PER_LOOK = 40;

/** What the strategy needs of the run: the seat's view, and the two writes. */
export interface Player {
  readonly board: Board;
  readonly deducer: Deducer;
  readonly share: WorkShare;
  readonly rejectGuesses: boolean;
  readonly expand: ExpandPolicy;
  readonly log: (line: string) => void;
  /** Counts a guess sent. */
  guessed(): void;
  commit(cells: OrderedCell[], intent: string): Promise<Step>;
  reveal(tile: number): Promise<Step>;
}

/**
 * Acts on what the agent knows until nothing is left to do or a fresh look is needed. Only the
 * tiles the group's share gives this agent are worked (share.ts): its group mates deduce the
 * same cells, and committing them too would only be refused as conflicts.
 */
export async function act(p: Player): Promise<Step> {
  let acted = false;
  for (let n = 0; n < ACTIONS_PER_LOOK; n++) {
    const board = p.board;
    if (board.frontier.some((t) => !board.tile(t))) return acted ? "acted" : "refresh";
    const work = board.workTiles();
    const d = p.deducer.deduce(work);
    if (d.contradictions.length > 0) p.log(`warning: no solution agrees with the known cells of tiles ${d.contradictions.join(", ")}`);
    const open = new Map<number, 0 | 1>();
    for (const [cell, v] of d.proven) if (!board.serverKnown.has(cell)) open.set(cell, v);
    const hidden = board.hiddenFrontier();
    const guessable = [...d.candidates].filter(([, sols]) => sols !== null && sols.length >= 2).map(([t]) => t);
    const share = p.share;
    share.refresh();
    if (n === 0) share.noteLook(new Set([...[...open.keys()].flatMap((c) => share.watchedFor(c)), ...hidden.map((t) => t.id), ...(open.size === 0 ? guessable : [])]));
    const mine = (tile: number): boolean => !share.othersHold(tile);

    // Only the cells of this agent's tiles, and none that a reveal by someone else is about to
    // touch (share.ts): group mates and neighbouring groups prove the same cells.
    const myOpen = new Map([...open].filter(([cell]) => share.mayCommit(cell)));
    if (myOpen.size > 0) {
      const ordered = orderForForcing(board, work, myOpen, p.rejectGuesses);
      if (ordered.length > 0) {
        const step = await commitProven(p, ordered, d.candidates);
        if (step === "refresh") return "refresh";
        acted = true;
        continue;
      }
    }
    const next = chooseReveal(board, hidden.filter((t) => mine(t.id)), p.expand);
    if (next) {
      if ((await p.reveal(next.id)) === "refresh") return "refresh";
      acted = true;
      continue;
    }
    // A guess only when nothing anywhere is proven: a proven cell of a group mate's tile may settle it.
    const guess = p.rejectGuesses || open.size > 0 ? null : chooseGuess(board, new Map([...d.candidates].filter(([t]) => mine(t))));
    if (guess) {
      const intent = `guess: tile ${guess.tile} has ${guess.solutions} solutions left; cell ${guess.cell}=${guess.value} holds in ${guess.agreeing}`;
      p.guessed();
      if ((await p.commit([{ cell: guess.cell, value: guess.value, forced: false }], intent)) === "refresh") return "refresh";
      acted = true;
      continue;
    }
    if (acted) return "acted";
    return p.share.othersHaveWork() ? "waiting" : "idle";
  }
  return "acted";
}

/** Proven cells in batches the server takes, each with an intent saying what was proven. */
async function commitProven(p: Player, ordered: OrderedCell[], candidates: ReadonlyMap<number, unknown>): Promise<Step> {
  for (let i = 0; i < ordered.length; i += MAX_BATCH) {
    const batch = ordered.slice(i, i + MAX_BATCH);
    const tiles = new Set<number>();
    for (const { cell } of batch) for (const t of p.board.tilesOf(cell)) if (candidates.has(t)) tiles.add(t);
    const list = [...tiles].sort((a, b) => a - b);
    const predicted = batch.filter((c) => c.forced).length;
    const intent = `proven: ${batch.length} cells of tile${list.length === 1 ? "" : "s"} ${list.slice(0, 8).join(",")}${list.length > 8 ? ",…" : ""} agree in every solution left by known cells and neighbours (${predicted} by propagation)`;
    if ((await p.commit(batch, intent)) === "refresh") return "refresh";
  }
  return "acted";
}
