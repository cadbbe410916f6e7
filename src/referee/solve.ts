import { SOLVED } from "./board";
import type { Agent } from "./seats";
import type { RefereeState } from "./state";

export interface Meet {
  with: string[];
}

/**
 * A revealed tile whose cells are all known becomes solved, credited to `agent` (SPEC §4.3,
 * §4.4): it leaves every frontier, its unsolved neighbours join the agent's group's frontier,
 * and every already solved neighbour of another group makes the two groups meet (§4.2).
 * Returns the meetings, each naming the members of the group met.
 */
export function solveTile(state: RefereeState, tile: number, agent: Agent): Meet[] {
  const { board, groups, seats } = state;
  board.markSolved(tile, agent.index);
  seats.credit(agent, board.tiles[tile].cellIds.length);
  const neighbours = board.neighbours(tile);
  groups.solved(
    agent.index,
    tile,
    neighbours.filter((n) => board.status[n] !== SOLVED),
  );
  const meets: Meet[] = [];
  for (const n of neighbours) {
    if (board.status[n] !== SOLVED) continue;
    const met = groups.merge(agent.index, board.solver[n]);
    if (met) meets.push({ with: met.map((i) => seats.agents[i].id) });
  }
  if (board.solvedOrder.length === board.tileCount) state.status = "solved";
  return meets;
}
