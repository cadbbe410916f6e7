/**
 * The server's answers to the agent's calls, and what the agent learns from a commit's and a
 * reveal's answer. The cells' verdicts and the health are the referee's own types (pure, so a
 * change of the answer's shape breaks this module's type check rather than the agent's play).
 */
import type { AcceptedCell, IgnoredCell, RejectedCell } from "../src/referee/commit";
import type { HealthState } from "../src/referee/health";
import type { PlayStatus } from "../src/referee/state";
import type { Board, Observation, TileView } from "./board";
import type { OrderedCell } from "./order";
import { Stop, type Step } from "./stop";

export interface StartAnswer {
  game_id: string;
  G?: number;
  ignored?: string[];
}

export interface ListGamesAnswer {
  games: Array<{ game_id: string; status: string }>;
}

export interface ObserveAnswer {
  observation: Observation;
}

export interface JoinAnswer {
  agent: string;
  seed_tile: number | null;
  revision: number;
}

export interface CommitAnswer {
  revision: number;
  status?: PlayStatus;
  accepted?: AcceptedCell[];
  rejected?: RejectedCell[];
  ignored?: IgnoredCell[];
  unevaluated?: number[];
  solved?: number[];
  reward?: number;
  frontier?: number[];
  health?: { state: HealthState };
  note?: string;
}

export interface RevealAnswer extends TileView {
  tile: number;
  changed?: boolean;
  givens?: Array<[number, 0 | 1]>;
  seam?: Array<[number, 0 | 1]>;
  solved?: number[];
  revision: number;
  /** The tile's own status; `status` is the field's (SPEC §6.1). */
  tile_status?: "revealed" | "solved";
}

/** The run's counters that answers move (the summary's). */
export interface PlayStats {
  tiles: number;
  reward: number;
  reveals: number;
  commits: number;
  accepted: number;
  forced: number;
  guesses: number;
  wrong: number;
  conflicts: number;
}

/** What reading an answer needs of the run: the seat's board and agent, its counters, its log. */
export interface AnswerReader {
  readonly board: Board;
  readonly agent: string;
  readonly stats: PlayStats;
  readonly log: (line: string) => void;
  /** Learnt from the first `guess` rejection: the field accepts forced cells only. */
  rejectGuesses: boolean;
}

/** Learn a commit's verdicts; "refresh" when the agent's view turned out stale. */
export function readCommitAnswer(run: AnswerReader, cells: readonly OrderedCell[], a: CommitAnswer): Step {
  const { board, stats } = run;
  stats.commits++;
  board.revision = Math.max(board.revision, a.revision);
  for (const c of a.accepted ?? []) {
    board.setKnown(c.id, c.v);
    stats.accepted++;
    if (c.class === "forced") stats.forced++;
  }
  for (const c of a.rejected ?? []) {
    const sent = cells.find((x) => x.cell === c.id)?.value ?? c.v;
    if (sent === undefined) continue;
    if (c.reason === "wrong") {
      // The other value is the solution's: learn it, and commit it with the next proven batch.
      stats.wrong++;
      board.truth.set(c.id, (1 - sent) as 0 | 1);
      run.log(`cell ${c.id}=${sent} was wrong; it is ${1 - sent}`);
    } else if (c.reason === "guess") {
      // Correct but not forced on a field that rejects guesses: true, though not committable yet.
      board.truth.set(c.id, sent);
      if (!run.rejectGuesses) run.log("this field rejects cells its propagation does not force: committing forced cells only");
      run.rejectGuesses = true;
    }
  }
  let stale = false;
  for (const c of a.ignored ?? []) {
    if (c.reason === "known" || c.reason === "given") {
      const v = c.v ?? board.truth.get(c.id);
      if (v !== undefined) board.setKnown(c.id, v);
      else board.serverKnown.add(c.id);
    } else if (c.reason === "off_frontier" || c.reason === "not_revealed") stale = true;
  }
  const solved = a.solved ?? [];
  board.markSolved(solved, run.agent);
  stats.tiles += solved.length;
  stats.reward += a.reward ?? 0;
  if (a.frontier) board.frontier = [...a.frontier];
  if (solved.length > 0) run.log(`solved tile${solved.length === 1 ? "" : "s"} ${solved.join(", ")} (+${a.reward ?? 0})`);
  if (a.health?.state === "dead") throw new Stop("dead");
  if (a.status === "solved" || a.status === "closed") throw new Stop(a.status);
  return stale ? "refresh" : "acted";
}

/** Learn a reveal's tile, givens and seam; "refresh" when it solved tiles (the frontier grew). */
export function readRevealAnswer(run: AnswerReader, a: RevealAnswer): Step {
  const { board, stats } = run;
  stats.reveals++;
  board.revision = Math.max(board.revision, a.revision);
  const tileStatus = a.tile_status === "solved" ? "solved" : "revealed";
  const view = board.upsertTile({ ...a, id: a.tile, status: tileStatus });
  view.status = tileStatus;
  for (const [cell, v] of [...(a.givens ?? []), ...(a.seam ?? [])]) board.setKnown(cell, v);
  const solved = a.solved ?? [];
  if (solved.length > 0) {
    // Revealing a tile whose cells were all known solves it at once, credited to the revealer.
    board.markSolved(solved, run.agent);
    stats.tiles += solved.length;
    for (const id of solved) stats.reward += board.tile(id)?.cells ?? 0;
    return "refresh"; // the frontier grew: look again
  }
  return "acted";
}
