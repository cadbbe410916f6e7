/**
 * The spectator model's state, written only by its reducer (`reducer.ts`) and its snapshot
 * restore (`model-snapshot.ts`); `SpectatorModel` hands it to its users read-only. Holds the
 * queries both of them need: geometry, visibility, agents.
 */
import { Groups } from "../referee/groups";
import { SpectatorError, type AgentState, type FieldStatus, type MachineState, type ModelHeader } from "./model-types";
import { TileGeometryIndex } from "./tile-geometry";
import type { LogHead, MeetingRecord, PublicEvent, RingRecord, SpectatorSnapshot, TileGeometry } from "./types";

export class FieldState {
  readonly gameId: string;
  readonly G: number;
  readonly fog: boolean;
  readonly rules: SpectatorSnapshot["rules"];
  status: FieldStatus;
  revision = 0;
  head: LogHead;
  updatedAt = 0;
  grown = 0;
  tilesTotal: number;
  solvedCount = 0;
  totalReward = 0;

  readonly geometry: TileGeometryIndex;
  /** Per tile, indexed by id (grown as tiles come into being). */
  tileStatus: Uint8Array = new Uint8Array(0);
  solver: Int32Array = new Int32Array(0);
  revealer: Int32Array = new Int32Array(0);
  /** Reached by some group (SPEC §5): a seed, revealed or solved, or overlapping such a tile. */
  reached: Uint8Array = new Uint8Array(0);
  isSeed: Uint8Array = new Uint8Array(0);
  /** Known value per cell, -1 unknown. */
  readonly known: Int8Array;
  /** 0, REJECTED_WRONG or REJECTED_GUESS for cells whose last verdict was a rejection. */
  readonly rejected: Uint8Array;

  readonly agents: AgentState[] = [];
  readonly machines: MachineState[] = [];
  readonly agentIndex = new Map<string, number>();
  readonly machineIndex = new Map<string, number>();
  /** The agents' groups: the referee's union-find over agent indices (only its membership is used). */
  groups: Groups = new Groups();
  readonly meetings: MeetingRecord[] = [];
  readonly rings: RingRecord[] = [];

  /** A state at revision 0 of a field; with `copyOf`, an independent copy of that state instead. */
  constructor(header: ModelHeader, copyOf?: FieldState) {
    this.gameId = header.gameId;
    this.G = header.G;
    this.fog = header.fog;
    this.rules = header.rules ?? null;
    this.tilesTotal = header.tilesTotal;
    this.status = header.tilesTotal === 0 ? "solved" : "playing";
    this.head = { hash: header.seedCommit ?? "", rev: 0 };
    if (copyOf) {
      this.known = copyOf.known.slice();
      this.rejected = copyOf.rejected.slice();
      this.geometry = new TileGeometryIndex(this.G, copyOf.geometry);
      this.copyRest(copyOf);
      return;
    }
    this.known = new Int8Array(this.G * this.G).fill(-1);
    this.rejected = new Uint8Array(this.G * this.G);
    this.geometry = new TileGeometryIndex(this.G);
    this.ensureTiles(header.tilesTotal);
  }

  /**
   * An independent copy (replay checkpoints): applying events to one never changes the other. A
   * direct copy of the state, not a snapshot's round trip: at G = 1000 that rebuilt 8 MB of
   * coverage per checkpoint.
   */
  copy(): FieldState {
    return new FieldState({ gameId: this.gameId, G: this.G, fog: this.fog, tilesTotal: this.tilesTotal, rules: this.rules }, this);
  }

  /** Everything but the cell arrays and the geometry, copied from `from` into this new state. */
  private copyRest(from: FieldState): void {
    this.status = from.status;
    this.revision = from.revision;
    this.head = { ...from.head };
    this.updatedAt = from.updatedAt;
    this.grown = from.grown;
    this.solvedCount = from.solvedCount;
    this.totalReward = from.totalReward;
    this.tileStatus = from.tileStatus.slice();
    this.solver = from.solver.slice();
    this.revealer = from.revealer.slice();
    this.reached = from.reached.slice();
    this.isSeed = from.isSeed.slice();
    for (const a of from.agents) this.agents.push({ ...a, tags: { ...a.tags } });
    for (const m of from.machines) this.machines.push({ ...m, health: { ...m.health }, sessions: [...m.sessions], agents: [...m.agents] });
    for (const [k, v] of from.agentIndex) this.agentIndex.set(k, v);
    for (const [k, v] of from.machineIndex) this.machineIndex.set(k, v);
    this.groups = Groups.fromSnapshot(from.groups.snapshot());
    for (const m of from.meetings) this.meetings.push({ ...m, with: [...m.with] });
    for (const r of from.rings) this.rings.push({ ...r });
  }

  // ---- geometry -------------------------------------------------------------------------------

  /** Learn tiles' geometry (idempotent; ids may be ahead of `tilesTotal` until their ring grows). */
  addTiles(tiles: Iterable<TileGeometry>): void {
    for (const t of tiles) {
      if (!Number.isSafeInteger(t.id) || t.id < 0) throw new SpectatorError(`tile id ${String(t.id)} is not valid`, "malformed");
      if (this.geometry.get(t.id)) continue;
      if (t.x0 < 0 || t.y0 < 0 || t.x0 + t.w > this.G || t.y0 + t.h > this.G) throw new SpectatorError(`tile ${t.id} lies outside the field`, "malformed");
      this.ensureTiles(t.id + 1);
      this.geometry.add(t);
    }
  }

  /** Room in the per-tile arrays for tiles `0 … n-1`. */
  ensureTiles(n: number): void {
    if (n <= this.tileStatus.length) return;
    const cap = Math.max(n, this.tileStatus.length * 2, 64);
    const grow8 = (a: Uint8Array): Uint8Array => {
      const b = new Uint8Array(cap);
      b.set(a);
      return b;
    };
    const grow32 = (a: Int32Array): Int32Array => {
      const b = new Int32Array(cap).fill(-1);
      b.set(a);
      return b;
    };
    this.tileStatus = grow8(this.tileStatus);
    this.reached = grow8(this.reached);
    this.isSeed = grow8(this.isSeed);
    this.solver = grow32(this.solver);
    this.revealer = grow32(this.revealer);
  }

  tile(id: number): TileGeometry | undefined {
    return id < this.tilesTotal ? this.geometry.get(id) : undefined;
  }

  /** May this spectator see the tile (it exists, its geometry is known, and under fog it was reached)? */
  visible(id: number): boolean {
    return id >= 0 && id < this.tilesTotal && this.geometry.get(id) !== undefined && (!this.fog || this.reached[id] === 1);
  }

  /** Known existing tiles sharing a cell with tile `id`, ascending. */
  neighbours(id: number): number[] {
    const t = this.geometry.get(id);
    return t ? this.geometry.neighbours(t).filter((n) => n < this.tilesTotal) : [];
  }

  /** Known existing tiles covering a cell (for hover and hit tests). */
  tilesAt(cell: number): number[] {
    if (!Number.isSafeInteger(cell) || cell < 0 || cell >= this.G * this.G) return [];
    return this.geometry.tilesAt(cell).filter((t) => t < this.tilesTotal);
  }

  /** Mark a tile reached; under fog, a tile that became visible so is added to `newly`. */
  markReached(t: number, newly: number[]): void {
    if (this.reached[t]) return;
    this.reached[t] = 1;
    if (this.fog && this.visible(t)) newly.push(t);
  }

  // ---- agents ---------------------------------------------------------------------------------

  /** The agent an event names; refuses one that never joined. */
  agentOf(e: { agent: string; rev: number }): AgentState {
    const i = this.agentIndex.get(e.agent);
    if (i === undefined) throw new SpectatorError(`rev ${e.rev}: unknown agent ${String(e.agent)}`, "malformed");
    return this.agents[i];
  }

  /** Seat a new agent at the next index, alone in its group. */
  addAgent(agent: AgentState): void {
    this.agents.push(agent);
    this.agentIndex.set(agent.id, agent.index);
    this.groups.add(agent.index, null);
    const m = this.machines[agent.machine];
    m.sessions.push(agent.session);
    m.agents.push(agent.index);
  }

  /** Tiles an event may make visible (see `SpectatorModel.candidateTiles`). */
  candidateTiles(event: PublicEvent): number[] {
    let ids: number[] = [];
    if (event.type === "join" && event.seed_tile !== null) ids = [event.seed_tile];
    else if (event.type === "reveal") ids = [event.tile, ...this.neighbours(event.tile)];
    else if (event.type === "grow") for (let t = event.first_tile; t < event.first_tile + event.tiles; t++) ids.push(t);
    return ids.filter((t) => this.visible(t));
  }
}
