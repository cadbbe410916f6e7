import { HIDDEN, REVEALED, SOLVED, STATUS_NAMES } from "./board";
import { picturesOf } from "./pictures";
import { encodeKnown } from "./delta";
import { answeredHealth } from "./health-margin";
import { AGENT_RADIUS, FULL_MAX_G, RECT_MAX_AREA } from "./limits";
import type { Agent } from "./seats";
import { sortedHas } from "./sorted";
import type { RefereeState } from "./state";
import { tileGeometry } from "./tile-view";
import type { ObserveQuery, RefereeError } from "./types";
import { bad, isNonNegInt, isRecord } from "./validate";


export type ObserveResult = { ok: true; observation: Record<string, unknown> } | { ok: false; error: RefereeError };

/**
 * Read-only view (SPEC §4.7, §6.1). Cost and payload follow the scope: tiles come from the
 * spatial index, known cells from the frontier tiles, never from a pass over the field.
 *
 * Perspective (for fog and the frontier): the named agent's group; without an agent, the groups
 * of the caller's machine's agents; without either (a spectator), nobody's.
 */
export function observe(state: RefereeState, query: ObserveQuery & { callerMachineId?: string }): ObserveResult {
  if (!isRecord(query)) return { ok: false, error: bad("observe takes {agent}, {rect: [x, y, w, h]} or {full: true}") };
  const { board, groups, seats, rules } = state;
  const { agent: agentArg, rect, full, callerMachineId } = query;
  if (callerMachineId !== undefined && typeof callerMachineId !== "string") return { ok: false, error: bad("callerMachineId must be a string") };
  if (full !== undefined && typeof full !== "boolean") return { ok: false, error: bad("full must be a boolean") };

  let agent: Agent | null = null;
  if (agentArg !== undefined) {
    if (typeof agentArg !== "string" || agentArg.length === 0) return { ok: false, error: bad("agent must be an agent id returned by join") };
    const found = seats.agent(agentArg);
    if (!found) return { ok: false, error: { code: "not_seated", message: `agent ${agentArg} is not seated on this field; call join first` } };
    if (callerMachineId !== undefined && seats.machines[found.machine].id !== callerMachineId) {
      return { ok: false, error: { code: "not_your_agent", message: `agent ${agentArg} belongs to another machine; observe as your own agent` } };
    }
    agent = found;
  }

  // Groups whose reach the caller may see under fog.
  const roots = new Set<number>();
  if (agent) roots.add(groups.find(agent.index));
  else if (callerMachineId !== undefined) {
    const m = seats.machine(callerMachineId);
    if (m) for (const a of m.agents) roots.add(groups.find(a));
  }

  let scope: "agent" | "rect" | "full";
  let listed: number[];
  if (rect !== undefined) {
    if (full) return { ok: false, error: bad("pass either rect or full, not both") };
    if (!Array.isArray(rect) || rect.length !== 4 || !rect.every(isNonNegInt)) {
      return { ok: false, error: bad("rect must be [x, y, w, h]: four non-negative integers") };
    }
    const [x, y, w, h] = rect;
    if (w < 1 || h < 1) return { ok: false, error: bad("rect width and height must be at least 1") };
    if (x >= board.G || y >= board.G) return { ok: false, error: bad(`rect starts outside the field (cells 0..${board.G - 1} on each axis)`) };
    const cw = Math.min(w, board.G - x);
    const ch = Math.min(h, board.G - y);
    if (cw * ch > RECT_MAX_AREA) {
      return { ok: false, error: { code: "too_large", message: `rect covers ${cw * ch} cells; at most ${RECT_MAX_AREA} (for example 120×120) per observation` } };
    }
    scope = "rect";
    // The index answers by bounding box; an L or a plus may have no cell in the rectangle.
    listed = board.spatial.query(x, y, cw, ch).filter((t) => shapeMeets(board.tiles[t], x, y, cw, ch));
  } else if (agent && !full) {
    scope = "agent";
    listed = agentScopeTiles(state, agent);
  } else if (board.G > FULL_MAX_G && !full) {
    return { ok: true, observation: headerView(state, roots) };
  } else {
    if (board.G > FULL_MAX_G) {
      return {
        ok: false,
        error: bad(`a full listing is allowed only on fields with G ≤ ${FULL_MAX_G}; this field has G = ${board.G}: pass {agent} or {rect: [x, y, w, h]}`),
      };
    }
    scope = "full";
    listed = board.tiles.map((t) => t.id);
  }

  const seeds = new Set<number>();
  for (const r of roots) for (const a of groups.group(r).members) if (seats.agents[a].seed !== null) seeds.add(seats.agents[a].seed as number);
  const visible = (t: number): boolean => !rules.fog || board.status[t] !== HIDDEN || reached(state, t, roots, seeds);
  if (rules.fog) listed = listed.filter(visible);

  const tiles = listed.map((id) => {
    const t = board.tiles[id];
    const solver = board.solver[id];
    const neighbours = board.neighbours(id);
    return {
      id,
      ...tileGeometry(t),
      status: STATUS_NAMES[board.status[id]],
      agent: solver >= 0 ? seats.agents[solver].id : null,
      neighbours: rules.fog ? neighbours.filter(visible) : neighbours,
    };
  });

  // The named agent's group; else, for a seated caller, the groups of its machine's agents.
  const frontier = agent ? groups.frontierOf(agent.index) : perspectiveFrontier(state, roots);
  // Known cells: of the frontier tiles with an agent; of the listed revealed/solved tiles without.
  const source = agent ? frontier : listed.filter((t) => board.status[t] !== HIDDEN);
  const cellSet = new Set<number>();
  for (const t of source) for (const c of board.tiles[t].cellIds) if (board.known[c] !== -1) cellSet.add(c);
  const ids = [...cellSet].sort((a, b) => a - b);
  const known = encodeKnown(ids, (c) => board.known[c] as 0 | 1);

  const observation: Record<string, unknown> = {
    game_id: state.gameId,
    status: state.status,
    revision: state.revision,
    G: board.G,
    scope,
    tiles_total: board.tileCount,
    grown: state.grown,
    fog: rules.fog,
    rules: { ...rules },
    tiles,
    frontier,
    known,
    agents: scope === "full" ? agentList(state) : agentList(state, scopedAgents(state, listed, roots)),
    totals: totals(state),
    // Each revealed, unsolved tile in scope drawn for a model without code (SPEC §6); marks only for tiles the caller may see.
    pictures: picturesOf(board, listed.filter((t) => board.status[t] === REVEALED), true, visible),
  };
  if (agent) {
    const { health, note } = answeredHealth(seats.machines[agent.machine].health);
    observation.health = health;
    if (note !== undefined) {
      observation.note = note;
    } else if (health.state === "dead") {
      observation.note = "this machine died on this field: its writes are refused for the rest of the day";
    }
  }
  return { ok: true, observation };
}

/**
 * No scope on a field too large for a full listing (SPEC §4.7, §6): the field's header with no
 * tiles, and a note naming the scopes. The reference's poll loop (`observe {game_id}` until
 * `playing`) works on every field this way, and the answer stays small: the agents are those of
 * the caller's groups (none for a spectator), `agents_total` counts them all.
 */
function headerView(state: RefereeState, roots: ReadonlySet<number>): Record<string, unknown> {
  const { board, rules } = state;
  return {
    game_id: state.gameId,
    status: state.status,
    revision: state.revision,
    G: board.G,
    scope: "header",
    tiles_total: board.tileCount,
    grown: state.grown,
    fog: rules.fog,
    rules: { ...rules },
    tiles: [],
    frontier: perspectiveFrontier(state, roots),
    known: encodeKnown([], () => 0),
    agents: agentList(state, scopedAgents(state, [], roots)),
    agents_total: state.seats.agents.length,
    totals: totals(state),
    note:
      `G = ${board.G} is too large to list every tile (G ≤ ${FULL_MAX_G}): observe {agent} for your area, ` +
      `or {rect: [x, y, w, h]} (at most ${FULL_MAX_G}×${FULL_MAX_G} cells) for any part of the field`,
  };
}

/** Territory + members' seeds, every tile within 24 cells of them, and the frontier, ascending. */
function agentScopeTiles(state: RefereeState, agent: Agent): number[] {
  const { board, groups, seats } = state;
  const g = groups.group(agent.index);
  const base: number[] = [...g.territory];
  for (const a of g.members) if (seats.agents[a].seed !== null) base.push(seats.agents[a].seed as number);
  const around = board.spatial.queryAround(
    base.map((t) => board.tiles[t]),
    AGENT_RADIUS,
  );
  const extra = [...g.frontier].filter((t) => !sortedHas(around, t));
  return extra.length === 0 ? around : [...around, ...extra].sort((a, b) => a - b);
}


/** The union of the frontiers of the given groups (by root), sorted. */
function perspectiveFrontier(state: RefereeState, roots: ReadonlySet<number>): number[] {
  const out = new Set<number>();
  for (const r of roots) for (const t of state.groups.group(r).frontier) out.add(t);
  return [...out].sort((a, b) => a - b);
}

/** Does one of the tile's rectangles share a cell with the rectangle at (x, y) of size w × h? */
function shapeMeets(tile: { x0: number; y0: number; rects: ReadonlyArray<readonly [number, number, number, number]> }, x: number, y: number, w: number, h: number): boolean {
  return tile.rects.some(([lx, ly, rw, rh]) => {
    const ax = tile.x0 + lx;
    const ay = tile.y0 + ly;
    return ax < x + w && x < ax + rw && ay < y + h && y < ay + rh;
  });
}

/** Under fog: a hidden tile is reached when it is a member's seed or overlaps a tile the group revealed or solved. */
function reached(state: RefereeState, tile: number, roots: Set<number>, seeds: Set<number>): boolean {
  if (seeds.has(tile)) return true;
  if (roots.size === 0) return false;
  const { board, groups } = state;
  for (const n of board.neighbours(tile)) {
    const s = board.status[n];
    if (s === HIDDEN) continue;
    if (roots.has(groups.find(board.revealer[n]))) return true;
    if (s === SOLVED && roots.has(groups.find(board.solver[n]))) return true;
  }
  return false;
}

/**
 * The agents a scoped view carries (SPEC §4.7: proportional to the scope, never to the field): the
 * members of the perspective's groups, and every agent whose seed is a listed tile or who solved
 * one. A busy daily field seats many agents; a full view (G <= 120) lists them all.
 */
function scopedAgents(state: RefereeState, listed: readonly number[], roots: ReadonlySet<number>): Set<number> {
  const { board, groups, seats } = state;
  const out = new Set<number>();
  for (const r of roots) for (const m of groups.group(r).members) out.add(m);
  const tiles = new Set(listed);
  for (const t of listed) if (board.solver[t] >= 0) out.add(board.solver[t]);
  for (const a of seats.agents) if (a.seed !== null && tiles.has(a.seed)) out.add(a.index);
  return out;
}

/** Every agent of the field, or those in `only` (agent indices), in seating order. */
export function agentList(state: RefereeState, only?: ReadonlySet<number>): Array<Record<string, unknown>> {
  const { seats, groups } = state;
  const agents = only ? seats.agents.filter((a) => only.has(a.index)) : seats.agents;
  return agents.map((a) => ({
    id: a.id,
    name: a.name,
    model: a.model,
    harness: a.harness,
    group: seats.agents[groups.group(a.index).members[0]].id,
    seed_tile: a.seed,
    reward: a.reward,
    solved: a.solved,
    health: seats.machines[a.machine].health.state(),
  }));
}

export function totals(state: RefereeState): { reward: number; solved: number } {
  let reward = 0;
  for (const a of state.seats.agents) reward += a.reward;
  return { reward, solved: state.board.solvedOrder.length };
}

