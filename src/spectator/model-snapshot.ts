/** A spectator's state as a compact snapshot (`mosaic-spectator-v1`, docs/spectator.md) and back. */
import { decodeGaps, encodeGaps, packCells, packTiles, unpackCells, unpackTiles } from "./codec";
import { FieldState } from "./field-state";
import { HIDDEN, REJECTED_GUESS, REJECTED_WRONG, STATUS_CHARS, SpectatorError } from "./model-types";
import { SNAPSHOT_FORMAT, type SpectatorSnapshot, type TileGeometry } from "./types";

/** Groups as lists of agent indices, each ascending, ordered by their lowest member. */
export function groupLists(state: FieldState): number[][] {
  return state.groups
    .rootList()
    .map((root) => [...state.groups.group(root).members])
    .sort((a, b) => a[0] - b[0]);
}

/**
 * The state as a compact snapshot. `public`: the geometry this spectator may see (under fog,
 * reached tiles only); `full`: every existing tile this model knows.
 */
export function snapshotOf(state: FieldState, scope: "public" | "full"): SpectatorSnapshot {
  const listed: TileGeometry[] = [];
  for (let t = 0; t < state.tilesTotal; t++) {
    const g = state.geometry.get(t);
    if (g && (scope === "full" || state.visible(t))) listed.push(g);
  }
  let status = "";
  const solver: number[] = [];
  const revealer: number[] = [];
  for (const g of listed) {
    status += STATUS_CHARS[state.tileStatus[g.id]];
    solver.push(state.solver[g.id]);
    revealer.push(state.revealer[g.id]);
  }
  const wrong: number[] = [];
  const guess: number[] = [];
  for (let c = 0; c < state.rejected.length; c++) {
    if (state.rejected[c] === REJECTED_WRONG) wrong.push(c);
    else if (state.rejected[c] === REJECTED_GUESS) guess.push(c);
  }
  return {
    format: SNAPSHOT_FORMAT,
    scope,
    game_id: state.gameId,
    G: state.G,
    status: state.status,
    revision: state.revision,
    log_head: { ...state.head },
    updated_at: state.updatedAt,
    fog: state.fog,
    rules: state.rules,
    grown: state.grown,
    tiles_total: state.tilesTotal,
    tiles: { ...packTiles(listed), status, solver, revealer },
    known: packCells(state.known),
    rejected: { wrong: encodeGaps(wrong), guess: encodeGaps(guess) },
    agents: state.agents.map(({ index: _index, ...a }) => ({ ...a, tags: { ...a.tags } })),
    machines: state.machines.map(({ index: _index, sessions: _s, agents: _a, ...m }) => ({ ...m, health: { ...m.health } })),
    groups: groupLists(state),
    meetings: state.meetings.map((m) => ({ ...m, with: [...m.with] })),
    rings: state.rings.map((r) => ({ ...r })),
    totals: { reward: state.totalReward, solved: state.solvedCount },
  };
}

/** A state exactly as a snapshot recorded it; throws on one that does not fit. */
export function stateFromSnapshot(s: SpectatorSnapshot): FieldState {
  if (s?.format !== SNAPSHOT_FORMAT) throw new SpectatorError("not a spectator snapshot of a known format", "malformed");
  const state = new FieldState({ gameId: s.game_id, G: s.G, fog: s.fog, tilesTotal: s.tiles_total, rules: s.rules, seedCommit: s.log_head.hash });
  const tiles = unpackTiles(s.tiles);
  if (s.tiles.status.length !== tiles.length || s.tiles.solver.length !== tiles.length || s.tiles.revealer.length !== tiles.length) {
    throw new SpectatorError("snapshot tile columns differ in length", "malformed");
  }
  state.addTiles(tiles);
  tiles.forEach((t, i) => {
    if (t.id >= s.tiles_total) throw new SpectatorError(`snapshot lists tile ${t.id} beyond tiles_total`, "malformed");
    const st = STATUS_CHARS.indexOf(s.tiles.status[i]);
    if (st < 0) throw new SpectatorError(`snapshot tile ${t.id} has an unknown status`, "malformed");
    state.tileStatus[t.id] = st;
    state.solver[t.id] = s.tiles.solver[i];
    state.revealer[t.id] = s.tiles.revealer[i];
  });
  state.known.set(unpackCells(s.known, s.G * s.G));
  for (const c of decodeGaps(s.rejected.wrong)) state.rejected[c] = REJECTED_WRONG;
  for (const c of decodeGaps(s.rejected.guess)) state.rejected[c] = REJECTED_GUESS;
  s.machines.forEach((m, index) => {
    state.machines.push({ ...m, index, sessions: [], agents: [], health: { ...m.health } });
    state.machineIndex.set(m.id, index);
  });
  s.agents.forEach((a, index) => {
    if (!state.machines[a.machine]) throw new SpectatorError(`snapshot agent ${a.id} names no machine`, "malformed");
    state.addAgent({ ...a, index, tags: { ...a.tags } });
    if (a.seed !== null) state.isSeed[a.seed] = 1;
  });
  for (const g of s.groups) {
    for (const member of g) {
      if (!(Number.isSafeInteger(member) && member >= 0 && member < state.agents.length)) throw new SpectatorError(`snapshot group names agent ${String(member)}, which does not exist`, "malformed");
      state.groups.merge(g[0], member);
    }
  }
  state.meetings.push(...s.meetings.map((m) => ({ ...m, with: [...m.with] })));
  state.rings.push(...(s.rings ?? []).map((r) => ({ ...r })));
  state.status = s.status;
  state.revision = s.revision;
  state.head = { ...s.log_head };
  state.updatedAt = s.updated_at;
  state.grown = s.grown;
  state.totalReward = s.totals.reward;
  state.solvedCount = s.totals.solved;
  recomputeReached(state);
  return state;
}

/** Reach from the state: seeds, revealed and solved tiles, and their known neighbours. */
function recomputeReached(state: FieldState): void {
  state.reached.fill(0);
  for (let t = 0; t < state.tilesTotal; t++) if (state.isSeed[t] || state.tileStatus[t] !== HIDDEN) state.reached[t] = 1;
  // Neighbours meet only in shared cells: a shared cell of an open tile reaches every tile on it.
  state.geometry.forEachShared((tiles) => {
    if (!tiles.some((t) => t < state.tilesTotal && state.tileStatus[t] !== HIDDEN)) return;
    for (const t of tiles) if (t < state.tilesTotal) state.reached[t] = 1;
  });
}
