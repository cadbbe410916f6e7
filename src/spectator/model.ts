/**
 * The spectator's model of one field and the reducer over its public events (docs/spectator.md).
 *
 * One model serves the live page (a snapshot, then batches from the live feed), the replay of an
 * archive (a model at revision 0 built from the archive's tiles, then its events one by one) and
 * the server (which keeps one at the head to answer snapshots and to know which tiles each event
 * makes visible under fog). It knows only what the public log says: no solution, no givens
 * before a reveal, and under fog only the geometry of tiles some group has reached.
 */
import { decodeGaps, encodeGaps, packCells, packTiles, unpackCells, unpackTiles } from "./codec";
import { TileCoverage } from "./coverage";
import {
  SNAPSHOT_FORMAT,
  zeroCounters,
  type CommitEvent,
  type GrowEvent,
  type HealthSummary,
  type JoinEvent,
  type LogHead,
  type MeetRecord,
  type MeetingRecord,
  type RingRecord,
  type PublicEvent,
  type RetractEvent,
  type RevealEvent,
  type SnapshotAgent,
  type SnapshotMachine,
  type SpectatorSnapshot,
  type TileGeometry,
} from "./types";

export const HIDDEN = 0;
export const REVEALED = 1;
export const SOLVED = 2;
const STATUS_CHARS = "hrs";

/** Rejection marks of a still unknown cell. */
export const REJECTED_WRONG = 1;
export const REJECTED_GUESS = 2;

export type FieldStatus = SpectatorSnapshot["status"];

export interface ModelHeader {
  gameId: string;
  G: number;
  fog: boolean;
  /** Tiles the field has at revision 0 (before any ring grew). */
  tilesTotal: number;
  rules?: SpectatorSnapshot["rules"];
  /** The chain's starting point (SPEC §9): the head before the first event. */
  seedCommit?: string;
}

/** An event the model cannot apply: out of order, or naming what does not exist. */
export class SpectatorError extends Error {
  constructor(
    message: string,
    readonly kind: "gap" | "malformed",
  ) {
    super(message);
  }
}

export interface AgentState extends SnapshotAgent {
  index: number;
}

export type MachineState = SnapshotMachine & { index: number; sessions: string[]; agents: number[] };

const NEW_HEALTH: HealthSummary = { state: "healthy", rate_bp: 0, committed: 0, wrong: 0, window: 0 };

export class SpectatorModel {
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

  /** Geometry by tile id (undefined: not known to this spectator). */
  private readonly geometry: Array<TileGeometry | undefined> = [];
  tileStatus: Uint8Array = new Uint8Array(0);
  solver: Int32Array = new Int32Array(0);
  revealer: Int32Array = new Int32Array(0);
  /** Reached by some group (SPEC §5): a seed, revealed or solved, or overlapping such a tile. */
  reached: Uint8Array = new Uint8Array(0);
  private isSeed: Uint8Array = new Uint8Array(0);
  /** Known value per cell, -1 unknown. */
  readonly known: Int8Array;
  /** 0, REJECTED_WRONG or REJECTED_GUESS for cells whose last verdict was a rejection. */
  readonly rejected: Uint8Array;
  /** Shared with the model's clones until one of them learns a new tile (copy on write). */
  private coverage: TileCoverage;
  private coverageShared = false;

  readonly agents: AgentState[] = [];
  readonly machines: MachineState[] = [];
  private readonly agentIndex = new Map<string, number>();
  private readonly machineIndex = new Map<string, number>();
  /** Union-find over agent indices; a root is its group's lowest member. */
  private readonly parent: number[] = [];
  readonly meetings: MeetingRecord[] = [];
  readonly rings: RingRecord[] = [];

  /** A model at revision 0 of a field; with `copyOf`, an independent copy of that model instead (`clone`). */
  constructor(header: ModelHeader, copyOf?: SpectatorModel) {
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
      // Which tiles cover each cell is most of a model's memory (8 bytes a cell) and only grows
      // with new geometry, which a replay's checkpoints never learn: share it until one does.
      this.coverage = copyOf.coverage;
      this.coverageShared = copyOf.coverageShared = true;
      this.copyState(copyOf);
      return;
    }
    this.known = new Int8Array(this.G * this.G).fill(-1);
    this.rejected = new Uint8Array(this.G * this.G);
    this.coverage = new TileCoverage(this.G);
    this.ensureTiles(header.tilesTotal);
  }

  // ---- geometry -------------------------------------------------------------------------------

  /** Learn tiles' geometry (idempotent; ids may be ahead of `tilesTotal` until their ring grows). */
  addTiles(tiles: Iterable<TileGeometry>): void {
    for (const t of tiles) {
      if (!Number.isSafeInteger(t.id) || t.id < 0) throw new SpectatorError(`tile id ${String(t.id)} is not valid`, "malformed");
      if (this.geometry[t.id]) continue;
      if (t.x0 < 0 || t.y0 < 0 || t.x0 + t.w > this.G || t.y0 + t.h > this.G) throw new SpectatorError(`tile ${t.id} lies outside the field`, "malformed");
      this.ensureTiles(t.id + 1);
      this.geometry[t.id] = t;
      if (this.coverageShared) {
        this.coverage = this.coverage.clone();
        this.coverageShared = false;
      }
      this.coverage.add(t);
    }
  }

  tile(id: number): TileGeometry | undefined {
    return id < this.tilesTotal ? this.geometry[id] : undefined;
  }

  /** May this spectator see the tile (it exists, its geometry is known, and under fog it was reached)? */
  visible(id: number): boolean {
    return id >= 0 && id < this.tilesTotal && this.geometry[id] !== undefined && (!this.fog || this.reached[id] === 1);
  }

  /** Visible tiles, ascending. */
  visibleTiles(): number[] {
    const out: number[] = [];
    for (let t = 0; t < this.tilesTotal; t++) if (this.visible(t)) out.push(t);
    return out;
  }

  /** Known existing tiles covering a cell (for hover and hit tests). */
  tilesAt(cell: number): number[] {
    if (!Number.isSafeInteger(cell) || cell < 0 || cell >= this.G * this.G) return [];
    return this.coverage.tilesAt(cell).filter((t) => t < this.tilesTotal);
  }

  /** Known existing tiles sharing a cell with tile `id`, ascending. */
  neighbours(id: number): number[] {
    const t = this.geometry[id];
    return t ? this.coverage.neighbours(t).filter((n) => n < this.tilesTotal) : [];
  }

  /**
   * Tiles an event may make visible, whether or not they were visible already: a join's seed, a
   * reveal's tile and its neighbours, a ring's tiles, among those visible now. A server catching a
   * spectator up over old events sends their geometry with them (reach only grows, so they are
   * visible at the head too).
   */
  candidateTiles(event: PublicEvent): number[] {
    let ids: number[] = [];
    if (event.type === "join" && event.seed_tile !== null) ids = [event.seed_tile];
    else if (event.type === "reveal") ids = [event.tile, ...this.neighbours(event.tile)];
    else if (event.type === "grow") for (let t = event.first_tile; t < event.first_tile + event.tiles; t++) ids.push(t);
    return ids.filter((t) => this.visible(t));
  }

  private ensureTiles(n: number): void {
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

  // ---- the reducer ----------------------------------------------------------------------------

  /**
   * Apply the next event (its `rev` must be `revision + 1`). Returns the tiles that became visible
   * to this spectator through it (under fog: newly reached; otherwise a ring's new tiles).
   */
  apply(event: PublicEvent): number[] {
    if (!event || typeof event !== "object") throw new SpectatorError("an event must be an object", "malformed");
    if (event.rev !== this.revision + 1) {
      throw new SpectatorError(`event rev ${String(event.rev)} does not follow revision ${this.revision}`, "gap");
    }
    if (this.status === "closed") throw new SpectatorError(`event rev ${event.rev} comes after the close`, "malformed");
    try {
      this.check(event);
    } catch (err) {
      if (err instanceof SpectatorError) throw err;
      throw new SpectatorError(`event rev ${event.rev} (${String(event.type)}) is malformed: ${String(err)}`, "malformed");
    }
    const newly: number[] = [];
    switch (event.type) {
      case "join":
        this.applyJoin(event, newly);
        break;
      case "reveal":
        this.applyReveal(event, newly);
        break;
      case "commit":
        this.applyCommit(event);
        break;
      case "retract":
        this.applyRetract(event);
        break;
      case "grow":
        this.applyGrow(event, newly);
        break;
      case "close":
        this.status = "closed";
        break;
      default:
        throw new SpectatorError(`unknown event type ${String((event as { type?: unknown }).type)}`, "malformed");
    }
    this.revision = event.rev;
    this.updatedAt = event.at;
    if (typeof event.hash === "string") this.head = { hash: event.hash, rev: event.rev };
    else this.head = { hash: this.head.hash, rev: event.rev };
    return newly;
  }

  /** Apply events in order, skipping those at or below the current revision (already applied). */
  applyAll(events: Iterable<PublicEvent>): void {
    for (const e of events) if (e.rev > this.revision) this.apply(e);
  }

  /** Refuse an event that names what does not exist, before anything changes. */
  private check(e: PublicEvent): void {
    const cells = (ids: Iterable<number>): void => {
      for (const c of ids) this.checkCell(c, e.rev);
    };
    switch (e.type) {
      case "join":
        if (this.agentIndex.has(e.agent)) throw new SpectatorError(`agent ${e.agent} joined twice`, "malformed");
        if (e.seed_tile !== null && e.seed_tile !== undefined) this.checkTile(e.seed_tile, e.rev);
        return;
      case "reveal":
        this.agentOf(e);
        this.checkTile(e.tile, e.rev);
        cells((e.givens ?? []).map((p) => p[0]));
        this.checkCredit(e);
        return;
      case "commit":
        this.agentOf(e);
        cells(e.accepted.map((c) => c.id));
        cells(e.rejected.map((c) => c.id));
        this.checkCredit(e);
        return;
      case "retract":
        this.agentOf(e);
        cells(e.retracted);
        return;
      case "grow":
        if (e.first_tile !== this.tilesTotal || !Number.isSafeInteger(e.tiles) || e.tiles < 0) {
          throw new SpectatorError(`ring ${e.ring} starts at tile ${e.first_tile}, expected ${this.tilesTotal}`, "malformed");
        }
        return;
      default:
        return;
    }
  }

  private checkCredit(e: RevealEvent | CommitEvent): void {
    const seen = new Set<number>();
    for (const t of e.solved) {
      this.checkTile(t, e.rev);
      if (this.tileStatus[t] === SOLVED || seen.has(t)) throw new SpectatorError(`tile ${t} solved twice (rev ${e.rev})`, "malformed");
      seen.add(t);
    }
    for (const meet of e.meets) for (const other of meet.with) {
      if (!this.agentIndex.has(other)) throw new SpectatorError(`rev ${e.rev}: meeting with unknown agent ${other}`, "malformed");
    }
  }

  private applyJoin(e: JoinEvent, newly: number[]): void {
    let mi = this.machineIndex.get(e.machine);
    if (mi === undefined) {
      mi = this.machines.length;
      this.machines.push({
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
      this.machineIndex.set(e.machine, mi);
    }
    const index = this.agents.length;
    const seed = e.seed_tile ?? null;
    this.agents.push({
      index,
      id: e.agent,
      machine: mi,
      session: e.session,
      name: e.name,
      model: e.model,
      harness: e.harness,
      harness_source: e.harness_source,
      tags: normaliseTags(e.tags),
      verified: e.verified,
      seed,
      joined_at: e.at,
      joined_rev: e.rev,
      ...zeroCounters(),
    });
    this.agentIndex.set(e.agent, index);
    this.parent.push(index);
    const m = this.machines[mi];
    m.sessions.push(e.session);
    m.agents.push(index);
    if (seed !== null) {
      this.isSeed[seed] = 1;
      this.markReached(seed, newly);
    }
  }

  private applyReveal(e: RevealEvent, newly: number[]): void {
    const a = this.agentOf(e);
    this.tileStatus[e.tile] = REVEALED;
    this.revealer[e.tile] = a.index;
    for (const pair of e.givens ?? []) this.setKnown(pair[0], pair[1]);
    this.markReached(e.tile, newly);
    for (const n of this.neighbours(e.tile)) this.markReached(n, newly);
    this.credit(a, e);
  }

  private applyCommit(e: CommitEvent): void {
    const a = this.agentOf(e);
    const m = this.machines[a.machine];
    for (const c of e.accepted) {
      this.setKnown(c.id, c.v);
      m.accepted++;
      a.accepted++;
      if (c.class === "forced") {
        m.forced++;
        a.forced++;
      } else {
        m.guesses++;
        a.guesses++;
      }
    }
    for (const r of e.rejected) {
      if (r.reason === "wrong") {
        m.wrong++;
        a.wrong++;
      } else {
        m.rejected_guesses++;
        a.rejected_guesses++;
      }
      if (this.known[r.id] === -1) this.rejected[r.id] = r.reason === "wrong" ? REJECTED_WRONG : REJECTED_GUESS;
    }
    if (e.health) m.health = { state: e.health.state, rate_bp: e.health.rate_bp, committed: e.health.committed, wrong: e.health.wrong, window: e.health.window };
    if (e.died && m.died_at === null) {
      m.died_at = e.at;
      m.died_rev = e.rev;
    }
    this.credit(a, e);
  }

  private applyRetract(e: RetractEvent): void {
    const a = this.agentOf(e);
    for (const id of e.retracted) this.known[id] = -1;
    this.machines[a.machine].retractions += e.retracted.length;
    a.retractions += e.retracted.length;
  }

  private applyGrow(e: GrowEvent, newly: number[]): void {
    this.ensureTiles(e.first_tile + e.tiles);
    this.tilesTotal = e.first_tile + e.tiles;
    this.grown++;
    this.rings.push({ ring: e.ring, rev: e.rev, first_tile: e.first_tile, tiles: e.tiles });
    for (let t = e.first_tile; t < this.tilesTotal; t++) {
      if (!this.fog && this.geometry[t]) newly.push(t);
      if (this.neighbours(t).some((n) => this.tileStatus[n] !== HIDDEN)) this.markReached(t, this.fog ? newly : []);
    }
    if (e.tiles > 0 && this.status === "solved") this.status = "playing";
  }

  /** Solved tiles, reward and meetings of a reveal or commit, credited to its agent. */
  private credit(a: AgentState, e: RevealEvent | CommitEvent): void {
    const m = this.machines[a.machine];
    for (const t of e.solved) {
      this.tileStatus[t] = SOLVED;
      this.solver[t] = a.index;
      this.solvedCount++;
    }
    a.solved += e.solved.length;
    m.solved += e.solved.length;
    a.reward += e.reward;
    m.reward += e.reward;
    this.totalReward += e.reward;
    for (const meet of e.meets as MeetRecord[]) {
      this.meetings.push({ rev: e.rev, at: e.at, agent: a.id, with: [...meet.with] });
      for (const other of meet.with) this.union(a.index, this.agentIndex.get(other) as number);
    }
    if (this.solvedCount === this.tilesTotal && this.status === "playing") this.status = "solved";
  }

  private setKnown(cell: number, v: number): void {
    this.known[cell] = v ? 1 : 0;
    this.rejected[cell] = 0;
  }

  private markReached(t: number, newly: number[]): void {
    if (this.reached[t]) return;
    this.reached[t] = 1;
    if (this.fog && this.visible(t)) newly.push(t);
  }

  private agentOf(e: { agent: string; rev: number }): AgentState {
    const i = this.agentIndex.get(e.agent);
    if (i === undefined) throw new SpectatorError(`rev ${e.rev}: unknown agent ${String(e.agent)}`, "malformed");
    return this.agents[i];
  }

  private checkTile(t: number, rev: number): void {
    if (!Number.isSafeInteger(t) || t < 0 || t >= this.tilesTotal) throw new SpectatorError(`rev ${rev}: tile ${String(t)} does not exist`, "malformed");
  }

  private checkCell(c: number, rev: number): void {
    if (!Number.isSafeInteger(c) || c < 0 || c >= this.G * this.G) throw new SpectatorError(`rev ${rev}: cell ${String(c)} is outside the field`, "malformed");
  }

  // ---- groups ---------------------------------------------------------------------------------

  find(agent: number): number {
    let r = agent;
    while (this.parent[r] !== r) r = this.parent[r];
    while (this.parent[agent] !== r) {
      const next = this.parent[agent];
      this.parent[agent] = r;
      agent = next;
    }
    return r;
  }

  private union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra < rb) this.parent[rb] = ra;
    else if (rb < ra) this.parent[ra] = rb;
  }

  /** Groups as lists of agent indices, each ascending, ordered by their lowest member. */
  groups(): number[][] {
    const byRoot = new Map<number, number[]>();
    for (let i = 0; i < this.agents.length; i++) {
      const r = this.find(i);
      const list = byRoot.get(r);
      if (list) list.push(i);
      else byRoot.set(r, [i]);
    }
    return [...byRoot.values()];
  }

  /** The id of the agent's group: its lowest-indexed member's agent id (as the referee names it). */
  groupId(agentId: string): string | null {
    const i = this.agentIndex.get(agentId);
    return i === undefined ? null : this.agents[this.find(i)].id;
  }

  agent(agentId: string): AgentState | undefined {
    const i = this.agentIndex.get(agentId);
    return i === undefined ? undefined : this.agents[i];
  }

  machine(machineId: string): MachineState | undefined {
    const i = this.machineIndex.get(machineId);
    return i === undefined ? undefined : this.machines[i];
  }

  /** Set a machine's display name (the identity's, which wins over the join's `name`). */
  setDisplayName(machineId: string, name: string): void {
    const m = this.machine(machineId);
    if (m) m.name = name;
  }

  /**
   * The frontier of the agent's group (SPEC §4.2), sorted: members' unsolved seeds and every
   * unsolved tile sharing a cell with a tile the group solved.
   */
  frontierOf(agentId: string): number[] | null {
    const i = this.agentIndex.get(agentId);
    if (i === undefined) return null;
    const root = this.find(i);
    const out = new Set<number>();
    for (const a of this.agents) {
      if (a.seed !== null && this.find(a.index) === root && this.tileStatus[a.seed] !== SOLVED) out.add(a.seed);
    }
    for (let t = 0; t < this.tilesTotal; t++) {
      if (this.tileStatus[t] !== SOLVED || this.find(this.solver[t]) !== root) continue;
      for (const n of this.neighbours(t)) if (this.tileStatus[n] !== SOLVED) out.add(n);
    }
    return [...out].sort((a, b) => a - b);
  }

  // ---- snapshots ------------------------------------------------------------------------------

  /**
   * The state as a compact snapshot. `public`: the geometry this spectator may see (under fog,
   * reached tiles only); `full`: every existing tile this model knows.
   */
  snapshot(scope: "public" | "full" = "public"): SpectatorSnapshot {
    const listed: TileGeometry[] = [];
    for (let t = 0; t < this.tilesTotal; t++) {
      const g = this.geometry[t];
      if (g && (scope === "full" || this.visible(t))) listed.push(g);
    }
    let status = "";
    const solver: number[] = [];
    const revealer: number[] = [];
    for (const g of listed) {
      status += STATUS_CHARS[this.tileStatus[g.id]];
      solver.push(this.solver[g.id]);
      revealer.push(this.revealer[g.id]);
    }
    const wrong: number[] = [];
    const guess: number[] = [];
    for (let c = 0; c < this.rejected.length; c++) {
      if (this.rejected[c] === REJECTED_WRONG) wrong.push(c);
      else if (this.rejected[c] === REJECTED_GUESS) guess.push(c);
    }
    return {
      format: SNAPSHOT_FORMAT,
      scope,
      game_id: this.gameId,
      G: this.G,
      status: this.status,
      revision: this.revision,
      log_head: { ...this.head },
      updated_at: this.updatedAt,
      fog: this.fog,
      rules: this.rules,
      grown: this.grown,
      tiles_total: this.tilesTotal,
      tiles: { ...packTiles(listed), status, solver, revealer },
      known: packCells(this.known),
      rejected: { wrong: encodeGaps(wrong), guess: encodeGaps(guess) },
      agents: this.agents.map(({ index: _index, ...a }) => ({ ...a, tags: { ...a.tags } })),
      machines: this.machines.map(({ index: _index, sessions: _s, agents: _a, ...m }) => ({ ...m, health: { ...m.health } })),
      groups: this.groups(),
      meetings: this.meetings.map((m) => ({ ...m, with: [...m.with] })),
      rings: this.rings.map((r) => ({ ...r })),
      totals: { reward: this.totalReward, solved: this.solvedCount },
    };
  }

  /** A model in exactly the state a snapshot recorded; throws on one that does not fit. */
  static fromSnapshot(s: SpectatorSnapshot): SpectatorModel {
    if (s?.format !== SNAPSHOT_FORMAT) throw new SpectatorError("not a spectator snapshot of a known format", "malformed");
    const model = new SpectatorModel({ gameId: s.game_id, G: s.G, fog: s.fog, tilesTotal: s.tiles_total, rules: s.rules, seedCommit: s.log_head.hash });
    const tiles = unpackTiles(s.tiles);
    if (s.tiles.status.length !== tiles.length || s.tiles.solver.length !== tiles.length || s.tiles.revealer.length !== tiles.length) {
      throw new SpectatorError("snapshot tile columns differ in length", "malformed");
    }
    model.addTiles(tiles);
    tiles.forEach((t, i) => {
      if (t.id >= s.tiles_total) throw new SpectatorError(`snapshot lists tile ${t.id} beyond tiles_total`, "malformed");
      const st = STATUS_CHARS.indexOf(s.tiles.status[i]);
      if (st < 0) throw new SpectatorError(`snapshot tile ${t.id} has an unknown status`, "malformed");
      model.tileStatus[t.id] = st;
      model.solver[t.id] = s.tiles.solver[i];
      model.revealer[t.id] = s.tiles.revealer[i];
    });
    model.known.set(unpackCells(s.known, s.G * s.G));
    for (const c of decodeGaps(s.rejected.wrong)) model.rejected[c] = REJECTED_WRONG;
    for (const c of decodeGaps(s.rejected.guess)) model.rejected[c] = REJECTED_GUESS;
    s.machines.forEach((m, index) => {
      model.machines.push({ ...m, index, sessions: [], agents: [], health: { ...m.health } });
      model.machineIndex.set(m.id, index);
    });
    s.agents.forEach((a, index) => {
      const m = model.machines[a.machine];
      if (!m) throw new SpectatorError(`snapshot agent ${a.id} names no machine`, "malformed");
      model.agents.push({ ...a, index, tags: { ...a.tags } });
      model.agentIndex.set(a.id, index);
      model.parent.push(index);
      m.sessions.push(a.session);
      m.agents.push(index);
      if (a.seed !== null) model.isSeed[a.seed] = 1;
    });
    for (const g of s.groups) for (const member of g) model.union(g[0], member);
    model.meetings.push(...s.meetings.map((m) => ({ ...m, with: [...m.with] })));
    model.rings.push(...(s.rings ?? []).map((r) => ({ ...r })));
    model.status = s.status;
    model.revision = s.revision;
    model.head = { ...s.log_head };
    model.updatedAt = s.updated_at;
    model.grown = s.grown;
    model.totalReward = s.totals.reward;
    model.solvedCount = s.totals.solved;
    model.recomputeReached();
    return model;
  }

  /** Reach from the state: seeds, revealed and solved tiles, and their known neighbours. */
  private recomputeReached(): void {
    this.reached.fill(0);
    for (let t = 0; t < this.tilesTotal; t++) if (this.isSeed[t] || this.tileStatus[t] !== HIDDEN) this.reached[t] = 1;
    // Neighbours meet only in shared cells: a shared cell of an open tile reaches every tile on it.
    this.coverage.forEachShared((tiles) => {
      if (!tiles.some((t) => t < this.tilesTotal && this.tileStatus[t] !== HIDDEN)) return;
      for (const t of tiles) if (t < this.tilesTotal) this.reached[t] = 1;
    });
  }

  /**
   * An independent copy (replay checkpoints): applying events to one never changes the other. A
   * direct copy of the state, not a snapshot's round trip: at G = 1000 that rebuilt 8 MB of
   * coverage per checkpoint.
   */
  clone(): SpectatorModel {
    return new SpectatorModel({ gameId: this.gameId, G: this.G, fog: this.fog, tilesTotal: this.tilesTotal, rules: this.rules }, this);
  }

  /** Everything but the cell arrays and the coverage, copied from `from` into this new model. */
  private copyState(from: SpectatorModel): void {
    this.status = from.status;
    this.revision = from.revision;
    this.head = { ...from.head };
    this.updatedAt = from.updatedAt;
    this.grown = from.grown;
    this.solvedCount = from.solvedCount;
    this.totalReward = from.totalReward;
    // Geometry records are never changed once learnt; the list is (sparse under fog, so by index).
    for (let t = 0; t < from.geometry.length; t++) this.geometry[t] = from.geometry[t];
    this.tileStatus = from.tileStatus.slice();
    this.solver = from.solver.slice();
    this.revealer = from.revealer.slice();
    this.reached = from.reached.slice();
    this.isSeed = from.isSeed.slice();
    for (const a of from.agents) this.agents.push({ ...a, tags: { ...a.tags } });
    for (const m of from.machines) this.machines.push({ ...m, health: { ...m.health }, sessions: [...m.sessions], agents: [...m.agents] });
    for (const [k, v] of from.agentIndex) this.agentIndex.set(k, v);
    for (const [k, v] of from.machineIndex) this.machineIndex.set(k, v);
    this.parent.push(...from.parent);
    for (const m of from.meetings) this.meetings.push({ ...m, with: [...m.with] });
    for (const r of from.rings) this.rings.push({ ...r });
  }
}

/** Tags as an object of tag → value; a list's entries read as tags with the value "". */
export function normaliseTags(tags: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(tags)) {
    for (const t of tags) if (typeof t === "string") out[t] = "";
  } else if (tags && typeof tags === "object") {
    for (const [k, v] of Object.entries(tags as Record<string, unknown>)) out[k] = typeof v === "string" ? v : String(v);
  }
  return out;
}
