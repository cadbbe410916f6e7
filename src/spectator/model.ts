/**
 * The spectator's model of one field and the reducer over its public events (docs/spectator.md).
 *
 * One model serves the live page (a snapshot, then batches from the live feed), the replay of an
 * archive (a model at revision 0 built from the archive's tiles, then its events one by one) and
 * the server (which keeps one at the head to answer snapshots and to know which tiles each event
 * makes visible under fog). It knows only what the public log says: no solution, no givens
 * before a reveal, and under fog only the geometry of tiles some group has reached.
 *
 * This class is what its users hold: the state (`field-state.ts`) read-only, the reducer
 * (`reducer.ts`), snapshots (`model-snapshot.ts`). Its arrays are the state's own, not copies.
 */
import { FieldState } from "./field-state";
import { applyEvent } from "./reducer";
import { groupLists, snapshotOf, stateFromSnapshot } from "./model-snapshot";
import { SOLVED, type AgentState, type FieldStatus, type MachineState, type ModelHeader, type ReadonlyInt32Array, type ReadonlyInt8Array, type ReadonlyUint8Array } from "./model-types";
import type { LogHead, MeetingRecord, PublicEvent, RingRecord, SpectatorSnapshot, TileGeometry } from "./types";

export { HIDDEN, REVEALED, SOLVED, REJECTED_WRONG, REJECTED_GUESS, SpectatorError, type FieldStatus, type ModelHeader, type AgentState, type MachineState } from "./model-types";

export class SpectatorModel {
  private readonly state: FieldState;

  /** A model at revision 0 of a field (or, given a state, the model of that state). */
  constructor(header: ModelHeader | FieldState) {
    this.state = header instanceof FieldState ? header : new FieldState(header);
  }

  get gameId(): string {
    return this.state.gameId;
  }
  get G(): number {
    return this.state.G;
  }
  get fog(): boolean {
    return this.state.fog;
  }
  get rules(): SpectatorSnapshot["rules"] {
    return this.state.rules;
  }
  get status(): FieldStatus {
    return this.state.status;
  }
  get revision(): number {
    return this.state.revision;
  }
  get head(): Readonly<LogHead> {
    return this.state.head;
  }
  get updatedAt(): number {
    return this.state.updatedAt;
  }
  get grown(): number {
    return this.state.grown;
  }
  get tilesTotal(): number {
    return this.state.tilesTotal;
  }
  get solvedCount(): number {
    return this.state.solvedCount;
  }
  get totalReward(): number {
    return this.state.totalReward;
  }

  /** Per tile, indexed by id: HIDDEN, REVEALED or SOLVED. */
  get tileStatus(): ReadonlyUint8Array {
    return this.state.tileStatus;
  }
  /** Per tile: the solver's agent index, -1 none. */
  get solver(): ReadonlyInt32Array {
    return this.state.solver;
  }
  /** Per tile: the revealer's agent index, -1 none. */
  get revealer(): ReadonlyInt32Array {
    return this.state.revealer;
  }
  /** Per tile: reached by some group (SPEC §5): a seed, revealed or solved, or overlapping such a tile. */
  get reached(): ReadonlyUint8Array {
    return this.state.reached;
  }
  /** Known value per cell, -1 unknown. */
  get known(): ReadonlyInt8Array {
    return this.state.known;
  }
  /** 0, REJECTED_WRONG or REJECTED_GUESS for cells whose last verdict was a rejection. */
  get rejected(): ReadonlyUint8Array {
    return this.state.rejected;
  }
  /** Agents in join order (an agent's index is its place here). */
  get agents(): ReadonlyArray<Readonly<AgentState>> {
    return this.state.agents;
  }
  /** Machines in first-join order. */
  get machines(): ReadonlyArray<Readonly<MachineState>> {
    return this.state.machines;
  }
  get meetings(): readonly MeetingRecord[] {
    return this.state.meetings;
  }
  get rings(): readonly RingRecord[] {
    return this.state.rings;
  }

  // ---- geometry -------------------------------------------------------------------------------

  /** Learn tiles' geometry (idempotent; ids may be ahead of `tilesTotal` until their ring grows). */
  addTiles(tiles: Iterable<TileGeometry>): void {
    this.state.addTiles(tiles);
  }

  tile(id: number): TileGeometry | undefined {
    return this.state.tile(id);
  }

  /** May this spectator see the tile (it exists, its geometry is known, and under fog it was reached)? */
  visible(id: number): boolean {
    return this.state.visible(id);
  }

  /** Visible tiles, ascending. */
  visibleTiles(): number[] {
    const out: number[] = [];
    for (let t = 0; t < this.state.tilesTotal; t++) if (this.state.visible(t)) out.push(t);
    return out;
  }

  /** Known existing tiles covering a cell (for hover and hit tests). */
  tilesAt(cell: number): number[] {
    return this.state.tilesAt(cell);
  }

  /** Known existing tiles sharing a cell with tile `id`, ascending. */
  neighbours(id: number): number[] {
    return this.state.neighbours(id);
  }

  /**
   * Tiles an event may make visible, whether or not they were visible already: a join's seed, a
   * reveal's tile and its neighbours, a ring's tiles, among those visible now. A server catching a
   * spectator up over old events sends their geometry with them (reach only grows, so they are
   * visible at the head too).
   */
  candidateTiles(event: PublicEvent): number[] {
    return this.state.candidateTiles(event);
  }

  // ---- the reducer ----------------------------------------------------------------------------

  /**
   * Apply the next event (its `rev` must be `revision + 1`). Returns the tiles that became visible
   * to this spectator through it (under fog: newly reached; otherwise a ring's new tiles).
   */
  apply(event: PublicEvent): number[] {
    return applyEvent(this.state, event);
  }

  /** Apply events in order, skipping those at or below the current revision (already applied). */
  applyAll(events: Iterable<PublicEvent>): void {
    for (const e of events) if (e.rev > this.state.revision) applyEvent(this.state, e);
  }

  // ---- agents and groups ----------------------------------------------------------------------

  /** Groups as lists of agent indices, each ascending, ordered by their lowest member. */
  groups(): number[][] {
    return groupLists(this.state);
  }

  /** The id of the agent's group: its lowest-indexed member's agent id (as the referee names it). */
  groupId(agentId: string): string | null {
    const i = this.state.agentIndex.get(agentId);
    return i === undefined ? null : this.state.agents[this.state.groups.group(i).members[0]].id;
  }

  agent(agentId: string): Readonly<AgentState> | undefined {
    const i = this.state.agentIndex.get(agentId);
    return i === undefined ? undefined : this.state.agents[i];
  }

  machine(machineId: string): Readonly<MachineState> | undefined {
    const i = this.state.machineIndex.get(machineId);
    return i === undefined ? undefined : this.state.machines[i];
  }

  /** Set a machine's display name (the identity's, which wins over the join's `name`). */
  setDisplayName(machineId: string, name: string): void {
    const i = this.state.machineIndex.get(machineId);
    if (i !== undefined) this.state.machines[i].name = name;
  }

  /**
   * The frontier of the agent's group (SPEC §4.2), sorted: members' unsolved seeds and every
   * unsolved tile sharing a cell with a tile the group solved.
   */
  frontierOf(agentId: string): number[] | null {
    const { agents, groups, tileStatus, solver, tilesTotal } = this.state;
    const i = this.state.agentIndex.get(agentId);
    if (i === undefined) return null;
    const root = groups.find(i);
    const out = new Set<number>();
    for (const a of agents) {
      if (a.seed !== null && groups.find(a.index) === root && tileStatus[a.seed] !== SOLVED) out.add(a.seed);
    }
    for (let t = 0; t < tilesTotal; t++) {
      if (tileStatus[t] !== SOLVED || groups.find(solver[t]) !== root) continue;
      for (const n of this.state.neighbours(t)) if (tileStatus[n] !== SOLVED) out.add(n);
    }
    return [...out].sort((a, b) => a - b);
  }

  // ---- snapshots and copies -------------------------------------------------------------------

  /**
   * The state as a compact snapshot. `public`: the geometry this spectator may see (under fog,
   * reached tiles only); `full`: every existing tile this model knows.
   */
  snapshot(scope: "public" | "full" = "public"): SpectatorSnapshot {
    return snapshotOf(this.state, scope);
  }

  /** A model in exactly the state a snapshot recorded; throws on one that does not fit. */
  static fromSnapshot(s: SpectatorSnapshot): SpectatorModel {
    return new SpectatorModel(stateFromSnapshot(s));
  }

  /**
   * An independent copy (replay checkpoints): applying events to one never changes the other. A
   * direct copy of the state, not a snapshot's round trip: at G = 1000 that rebuilt 8 MB of
   * coverage per checkpoint.
   */
  clone(): SpectatorModel {
    return new SpectatorModel(this.state.copy());
  }
}
