/**
 * The reducer: how each public event (SPEC §9) changes a spectator's state (docs/spectator.md,
 * "How each event changes the model"). An event is checked whole before anything changes.
 */
import type { FieldState } from "./field-state";
import { HIDDEN, REJECTED_GUESS, REJECTED_WRONG, REVEALED, SOLVED, SpectatorError, type AgentState, type MachineState } from "./model-types";
import { zeroCounters, type CommitEvent, type GrowEvent, type HealthSummary, type JoinEvent, type MeetRecord, type PublicEvent, type RetractEvent, type RevealEvent } from "./types";

const NEW_HEALTH: HealthSummary = { state: "healthy", rate_bp: 0, committed: 0, wrong: 0, window: 0 };

/**
 * Apply the next event (its `rev` must be `revision + 1`). Returns the tiles that became visible
 * to this spectator through it (under fog: newly reached; otherwise a ring's new tiles).
 */
export function applyEvent(state: FieldState, event: PublicEvent): number[] {
  if (!event || typeof event !== "object") throw new SpectatorError("an event must be an object", "malformed");
  if (event.rev !== state.revision + 1) {
    throw new SpectatorError(`event rev ${String(event.rev)} does not follow revision ${state.revision}`, "gap");
  }
  if (state.status === "closed") throw new SpectatorError(`event rev ${event.rev} comes after the close`, "malformed");
  try {
    check(state, event);
  } catch (err) {
    if (err instanceof SpectatorError) throw err;
    throw new SpectatorError(`event rev ${event.rev} (${String(event.type)}) is malformed: ${String(err)}`, "malformed");
  }
  const newly: number[] = [];
  switch (event.type) {
    case "join":
      applyJoin(state, event, newly);
      break;
    case "reveal":
      applyReveal(state, event, newly);
      break;
    case "commit":
      applyCommit(state, event);
      break;
    case "retract":
      applyRetract(state, event);
      break;
    case "grow":
      applyGrow(state, event, newly);
      break;
    case "close":
      state.status = "closed";
      break;
    default:
      throw new SpectatorError(`unknown event type ${String((event as { type?: unknown }).type)}`, "malformed");
  }
  state.revision = event.rev;
  state.updatedAt = event.at;
  if (typeof event.hash === "string") state.head = { hash: event.hash, rev: event.rev };
  else state.head = { hash: state.head.hash, rev: event.rev };
  return newly;
}

/** Refuse an event that names what does not exist, before anything changes. */
function check(state: FieldState, e: PublicEvent): void {
  const cells = (ids: Iterable<number>): void => {
    for (const c of ids) checkCell(state, c, e.rev);
  };
  switch (e.type) {
    case "join":
      if (state.agentIndex.has(e.agent)) throw new SpectatorError(`agent ${e.agent} joined twice`, "malformed");
      if (e.seed_tile !== null && e.seed_tile !== undefined) checkTile(state, e.seed_tile, e.rev);
      return;
    case "reveal":
      state.agentOf(e);
      checkTile(state, e.tile, e.rev);
      cells((e.givens ?? []).map((p) => p[0]));
      checkCredit(state, e);
      return;
    case "commit":
      state.agentOf(e);
      cells(e.accepted.map((c) => c.id));
      cells(e.rejected.map((c) => c.id));
      checkCredit(state, e);
      return;
    case "retract":
      state.agentOf(e);
      cells(e.retracted);
      return;
    case "grow":
      if (e.first_tile !== state.tilesTotal || !Number.isSafeInteger(e.tiles) || e.tiles < 0) {
        throw new SpectatorError(`ring ${e.ring} starts at tile ${e.first_tile}, expected ${state.tilesTotal}`, "malformed");
      }
      return;
    default:
      return;
  }
}

function checkCredit(state: FieldState, e: RevealEvent | CommitEvent): void {
  const seen = new Set<number>();
  for (const t of e.solved) {
    checkTile(state, t, e.rev);
    if (state.tileStatus[t] === SOLVED || seen.has(t)) throw new SpectatorError(`tile ${t} solved twice (rev ${e.rev})`, "malformed");
    seen.add(t);
  }
  for (const meet of e.meets) for (const other of meet.with) {
    if (!state.agentIndex.has(other)) throw new SpectatorError(`rev ${e.rev}: meeting with unknown agent ${other}`, "malformed");
  }
}

function checkTile(state: FieldState, t: number, rev: number): void {
  if (!Number.isSafeInteger(t) || t < 0 || t >= state.tilesTotal) throw new SpectatorError(`rev ${rev}: tile ${String(t)} does not exist`, "malformed");
}

function checkCell(state: FieldState, c: number, rev: number): void {
  if (!Number.isSafeInteger(c) || c < 0 || c >= state.G * state.G) throw new SpectatorError(`rev ${rev}: cell ${String(c)} is outside the field`, "malformed");
}

function applyJoin(state: FieldState, e: JoinEvent, newly: number[]): void {
  let mi = state.machineIndex.get(e.machine);
  if (mi === undefined) {
    mi = state.machines.length;
    state.machines.push({
      index: mi,
      id: e.machine,
      name: e.name,
      sessions: [],
      agents: [],
      ...zeroCounters(),
      health: { ...NEW_HEALTH },
      died_at: null,
      died_rev: null,
    });
    state.machineIndex.set(e.machine, mi);
  }
  const seed = e.seed_tile ?? null;
  state.addAgent({
    index: state.agents.length,
    id: e.agent,
    machine: mi,
    session: e.session,
    name: e.name,
    model: e.model,
    harness: e.harness,
    harness_source: e.harness_source,
    tags: tagRecord(e.tags),
    verified: e.verified,
    seed,
    joined_at: e.at,
    joined_rev: e.rev,
    ...zeroCounters(),
  });
  if (seed !== null) {
    state.isSeed[seed] = 1;
    state.markReached(seed, newly);
  }
}

function applyReveal(state: FieldState, e: RevealEvent, newly: number[]): void {
  const a = state.agentOf(e);
  state.tileStatus[e.tile] = REVEALED;
  state.revealer[e.tile] = a.index;
  for (const pair of e.givens ?? []) setKnown(state, pair[0], pair[1]);
  state.markReached(e.tile, newly);
  for (const n of state.neighbours(e.tile)) state.markReached(n, newly);
  credit(state, a, e);
}

function applyCommit(state: FieldState, e: CommitEvent): void {
  const a = state.agentOf(e);
  const m = state.machines[a.machine];
  for (const c of e.accepted) {
    setKnown(state, c.id, c.v);
    count(m, a, "accepted");
    count(m, a, c.class === "forced" ? "forced" : "guesses");
  }
  for (const r of e.rejected) {
    count(m, a, r.reason === "wrong" ? "wrong" : "rejected_guesses");
    if (state.known[r.id] === -1) state.rejected[r.id] = r.reason === "wrong" ? REJECTED_WRONG : REJECTED_GUESS;
  }
  if (e.health) m.health = { state: e.health.state, rate_bp: e.health.rate_bp, committed: e.health.committed, wrong: e.health.wrong, window: e.health.window };
  if (e.died && m.died_at === null) {
    m.died_at = e.at;
    m.died_rev = e.rev;
  }
  credit(state, a, e);
}

function applyRetract(state: FieldState, e: RetractEvent): void {
  const a = state.agentOf(e);
  for (const id of e.retracted) state.known[id] = -1;
  state.machines[a.machine].retractions += e.retracted.length;
  a.retractions += e.retracted.length;
}

function applyGrow(state: FieldState, e: GrowEvent, newly: number[]): void {
  state.ensureTiles(e.first_tile + e.tiles);
  state.tilesTotal = e.first_tile + e.tiles;
  state.grown++;
  state.rings.push({ ring: e.ring, rev: e.rev, first_tile: e.first_tile, tiles: e.tiles });
  for (let t = e.first_tile; t < state.tilesTotal; t++) {
    if (!state.fog && state.geometry.get(t)) newly.push(t);
    if (state.neighbours(t).some((n) => state.tileStatus[n] !== HIDDEN)) state.markReached(t, state.fog ? newly : []);
  }
  if (e.tiles > 0 && state.status === "solved") state.status = "playing";
}

/** Solved tiles, reward and meetings of a reveal or commit, credited to its agent. */
function credit(state: FieldState, a: AgentState, e: RevealEvent | CommitEvent): void {
  const m = state.machines[a.machine];
  for (const t of e.solved) {
    state.tileStatus[t] = SOLVED;
    state.solver[t] = a.index;
    state.solvedCount++;
  }
  a.solved += e.solved.length;
  m.solved += e.solved.length;
  a.reward += e.reward;
  m.reward += e.reward;
  state.totalReward += e.reward;
  for (const meet of e.meets as MeetRecord[]) {
    state.meetings.push({ rev: e.rev, at: e.at, agent: a.id, with: [...meet.with] });
    for (const other of meet.with) state.groups.merge(a.index, state.agentIndex.get(other) as number);
  }
  if (state.solvedCount === state.tilesTotal && state.status === "playing") state.status = "solved";
}

/** One more of a commit's cells counted for the agent and for its machine alike. */
function count(m: MachineState, a: AgentState, counter: "accepted" | "forced" | "guesses" | "wrong" | "rejected_guesses"): void {
  m[counter]++;
  a[counter]++;
}

function setKnown(state: FieldState, cell: number, v: number): void {
  state.known[cell] = v ? 1 : 0;
  state.rejected[cell] = 0;
}

/** A join's tags as an object of tag → value; a list's entries read as tags with the value "". */
function tagRecord(tags: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(tags)) {
    for (const t of tags) if (typeof t === "string") out[t] = "";
  } else if (tags && typeof tags === "object") {
    for (const [k, v] of Object.entries(tags as Record<string, unknown>)) out[k] = typeof v === "string" ? v : String(v);
  }
  return out;
}
