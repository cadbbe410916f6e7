import type { Field } from "../engine/types";
import { Board, HIDDEN, ORIGIN_GIVEN, STATUS_NAMES, type TileStatusName } from "./board";
import { closedError } from "./access";
import { commit } from "./commit";
import { digestState, runSteps } from "./digest";
import type { ForcingOracleFactory } from "./forcing";
import { defaultForcing } from "./default-forcing";
import { Groups } from "./groups";
import { grow, type GrowInput } from "./grow";
import type { HealthReport } from "./health";
import { join } from "./join";
import { agentList, observe, totals, type ObserveResult } from "./observe";
import { retract } from "./retract";
import { publicTiles, type PublicTilesView } from "./public-view";
import { reveal } from "./reveal";
import { Seats } from "./seats";
import { SNAPSHOT_FORMAT, type RefereeSnapshot } from "./snapshot";
import { captureState, encodeCapture } from "./snapshot-steps";
import type { PlayStatus, HandlerResult, RefereeState } from "./state";
import type { FieldRules, ObserveQuery, RefereeError, RefereeEvent, WriteInput, WriteResult } from "./types";
import { bad, isRecord } from "./validate";

export interface RefereeInit {
  gameId: string;
  seed: string;
  field: Field;
  rules: FieldRules;
  /** Propagation used to classify forced cells; the engine's Propagator by default. */
  forcing?: ForcingOracleFactory;
}

/**
 * The referee of one field: pure, synchronous, deterministic in (state, input, atMs). The
 * Durable Object feeds it validated writes in order and stores the inputs; re-applying them to a
 * fresh Referee rebuilds the same state, answers and events (restore after eviction, audit).
 */
export class Referee {
  private state: RefereeState;
  private closeEvent: RefereeEvent | null = null;

  constructor(init: RefereeInit) {
    const rules: FieldRules = { guess: init.rules.guess, depth: init.rules.depth, fog: init.rules.fog };
    const oracle = (init.forcing ?? defaultForcing)(init.field.G, rules.depth);
    this.state = {
      gameId: init.gameId,
      seed: init.seed,
      rules,
      board: new Board(init.field, oracle),
      seats: new Seats(),
      groups: new Groups(),
      revision: 0,
      status: init.field.tiles.length === 0 ? "solved" : "playing",
      grown: 0,
    };
  }

  get revision(): number {
    return this.state.revision;
  }

  get status(): PlayStatus {
    return this.state.status;
  }

  /** The field's side: cell id = y·G + x. */
  get G(): number {
    return this.state.board.G;
  }

  get rules(): FieldRules {
    return { ...this.state.rules };
  }

  /** Judge one write. On ok with an event, state changed and the revision rose by one. */
  apply(input: WriteInput, atMs: number): WriteResult {
    if (!isRecord(input)) return { ok: false, error: bad("a write must be an object with a type") };
    if (!Number.isSafeInteger(atMs)) return { ok: false, error: bad("atMs must be an integer (unix milliseconds)") };
    if (this.state.status === "closed") return { ok: false, error: closedError(this.state) };
    const result = this.judge(input, atMs);
    if (!result) return { ok: false, error: bad(`unknown write type ${String((input as { type?: unknown }).type)}`) };
    if (!result.ok) return result;
    // Every write's answer says whether it changed the field (SPEC §4.9).
    // G too, so a text for a model can name cell ids by their coordinates (SPEC §6).
    const answer = { ...result.answer, changed: result.changed, G: this.state.board.G };
    if (!result.changed) return { ok: true, answer, event: null };
    const rev = ++this.state.revision;
    this.state.board.stampTouched(rev);
    const event: RefereeEvent = { rev, type: input.type, at: atMs };
    if (input.type !== "join") event.agent = input.agent;
    Object.assign(event, result.event);
    return { ok: true, answer, event };
  }

  /** The handler of the write's type; null for an unknown type. */
  private judge(input: WriteInput, atMs: number): HandlerResult | null {
    switch (input.type) {
      case "join":
        return join(this.state, input, atMs);
      case "reveal":
        return reveal(this.state, input);
      case "commit":
        return commit(this.state, input, atMs);
      case "retract":
        return retract(this.state, input);
      default:
        return null;
    }
  }

  observe(query: ObserveQuery & { callerMachineId?: string }): ObserveResult {
    return observe(this.state, query);
  }

  /** What anyone may see of a rectangle (fog respected; see public-view.ts). */
  publicTiles(x: number, y: number, w: number, h: number): PublicTilesView {
    return publicTiles(this.state, x, y, w, h);
  }

  /** The day ended: writes are refused with `closed` from now on. Idempotent. */
  close(atMs: number): RefereeEvent {
    if (this.closeEvent) return this.closeEvent;
    const rev = ++this.state.revision;
    this.state.status = "closed";
    this.closeEvent = { rev, type: "close", at: atMs, solved: this.state.board.solvedOrder.length, tiles_total: this.state.board.tileCount };
    return this.closeEvent;
  }

  /**
   * Growth (SPEC §5): append a ring's tiles. A state change (one revision, a `grow` event); on
   * replay it must be applied at the same position among the writes.
   */
  grow(input: GrowInput, atMs: number): { ok: true; event: RefereeEvent } | { ok: false; error: RefereeError } {
    if (this.state.status === "closed") return { ok: false, error: closedError(this.state) };
    if (!Number.isSafeInteger(atMs)) return { ok: false, error: bad("atMs must be an integer (unix milliseconds)") };
    const result = grow(this.state, input);
    if (!result.ok) return result;
    const rev = ++this.state.revision;
    this.state.board.stampTouched(rev);
    return { ok: true, event: { rev, type: "grow", at: atMs, ...result.event } };
  }

  get grown(): number {
    return this.state.grown;
  }

  // ---- snapshots: restore without replaying the whole day ----

  /** The whole play state as plain JSON data (see snapshot.ts). Call between writes. */
  snapshot(): RefereeSnapshot {
    return runSteps(this.snapshotInSteps().steps);
  }

  /**
   * The same snapshot, taken in bounded steps so its cost can stay off the answers of writes: the
   * state is captured now (a cheap copy; call between writes), and each `steps.next()` does a
   * bounded part of the encoding. Writes applied between steps do not change the result: it is
   * the state at `revision`. Done when `next()` returns the snapshot.
   */
  snapshotInSteps(): { revision: number; steps: Generator<void, RefereeSnapshot, void> } {
    const capture = captureState(this.state, this.closeEvent);
    return { revision: capture.revision, steps: encodeCapture(capture) };
  }

  /**
   * A referee in the state `snapshot` recorded: the same digest, answers and later events as the
   * one it was taken from. `init.field` must hold exactly the tiles the field had then (grown
   * rings included) and the same solution. Throws on a snapshot that does not fit or is damaged.
   */
  static restore(init: RefereeInit, snapshot: RefereeSnapshot): Referee {
    if (snapshot?.format !== SNAPSHOT_FORMAT) throw new Error("not a referee snapshot of a known format");
    if (snapshot.gameId !== init.gameId || snapshot.G !== init.field.G) throw new Error("the snapshot belongs to another field");
    const referee = new Referee(init);
    const { board } = referee.state;
    board.load(snapshot.board);
    const seats = Seats.fromSnapshot(snapshot);
    const groups = Groups.fromSnapshot(snapshot.groups);
    if (groups.size !== seats.agents.length) throw new Error("the snapshot's groups do not match its agents");
    referee.state = {
      ...referee.state,
      seats,
      groups,
      revision: snapshot.revision,
      status: snapshot.status,
      grown: snapshot.grown,
    };
    referee.closeEvent = snapshot.closeEvent && { ...snapshot.closeEvent };
    if (referee.stateDigest() !== snapshot.digest) throw new Error("the snapshot is damaged: its state digest does not match");
    return referee;
  }

  // ---- read helpers for the Durable Object, the spectator and the archive ----

  /** Tiles revealed so far (solved tiles included: a tile is revealed before it is solved). */
  revealedTiles(): number {
    const { status } = this.state.board;
    let n = 0;
    for (let t = 0; t < status.length; t++) if (status[t] !== HIDDEN) n++;
    return n;
  }


  agents(): Array<Record<string, unknown>> {
    return agentList(this.state);
  }

  totals(): { reward: number; solved: number } {
    return totals(this.state);
  }

  tilesTotal(): number {
    return this.state.board.tileCount;
  }

  /** A tile's status, who revealed and who solved it (agent ids), or null for a bad id. */
  tileStatus(id: number): { status: TileStatusName; revealed_by: string | null; agent: string | null; changed_at: number } | null {
    const b = this.state.board;
    if (!Number.isSafeInteger(id) || id < 0 || id >= b.tileCount) return null;
    const name = (i: number): string | null => (i >= 0 ? this.state.seats.agents[i].id : null);
    return { status: STATUS_NAMES[b.status[id]], revealed_by: name(b.revealer[id]), agent: name(b.solver[id]), changed_at: b.changedAt[id] };
  }

  /** Every known cell, ascending, with its value and whether it is a given. */
  knownCells(): { ids: number[]; values: string } {
    const b = this.state.board;
    const ids: number[] = [];
    let values = "";
    for (let c = 0; c < b.known.length; c++) {
      if (b.known[c] === -1) continue;
      ids.push(c);
      values += b.known[c] ? "1" : "0";
    }
    return { ids, values };
  }

  /** A cell's known value (-1 unknown) and where it came from: "given", a machine id, or null. */
  cell(id: number): { value: -1 | 0 | 1; origin: string | null } | null {
    const b = this.state.board;
    if (!b.inField(id)) return null;
    const o = b.origin[id];
    return { value: b.known[id] as -1 | 0 | 1, origin: o === ORIGIN_GIVEN ? "given" : o >= 0 ? this.state.seats.machines[o].id : null };
  }

  health(machineId: string): HealthReport | null {
    return this.state.seats.machine(machineId)?.health.report() ?? null;
  }

  /** Sorted frontier of the agent's group, or null for an unknown agent. */
  frontier(agentId: string): number[] | null {
    const a = this.state.seats.agent(agentId);
    return a ? this.state.groups.frontierOf(a.index) : null;
  }

  /** Agent ids of the agent's group (itself included), or null for an unknown agent. */
  groupOf(agentId: string): string[] | null {
    const a = this.state.seats.agent(agentId);
    return a ? this.state.groups.group(a.index).members.map((i) => this.state.seats.agents[i].id) : null;
  }

  /** One row per machine for scores and the analysis (SPEC §9, §11). */
  machines(): Array<Record<string, unknown>> {
    const { seats } = this.state;
    return seats.machines.map((m) => ({
      machine: m.id,
      sessions: [...m.sessions],
      agents: m.agents.map((i) => seats.agents[i].id),
      models: [...new Set(m.agents.map((i) => seats.agents[i].model))],
      harnesses: [...new Set(m.agents.map((i) => seats.agents[i].harness))],
      reward: m.reward,
      solved: m.solved,
      accepted: m.accepted,
      forced: m.forced,
      guesses: m.guesses,
      wrong: m.wrong,
      retractions: m.retractions,
      health: m.health.report(),
    }));
  }

  /**
   * Works out now the propagation the last writes left pending (the lines of a revealed tile, the
   * rule stages around committed cells), which the next commit would otherwise do first. Changes
   * no answer, event or state: a caller may settle between any two writes, or never.
   */
  settle(): void {
    this.state.board.oracle.settle?.();
  }

  /** A short hash of the whole play state: equal digests mean equal states (tests, replay checks). */
  stateDigest(): string {
    return digestState(this.state, this.closeEvent !== null);
  }
}
