import { DurableObject } from "cloudflare:workers";
import { createFieldGenerator, type FieldParams } from "../engine";
import { seedCommit, sha256Hex } from "../engine/commitments";
import type { Field } from "../engine/types";
import type { Env } from "../env";
import { Referee } from "../referee";
import type { FieldRules, ObserveQuery, RefereeError, RefereeEvent, SeatDetails, WriteInput } from "../referee/types";
import { chainEvent } from "./chain";
import { FieldStore, type StoredInput } from "./field-store";
import { forgetGame, type GameSummary } from "./registry";
import { RegistryReporter } from "./registry-reporter";
import { rebuildReferee, SNAPSHOT_EVERY, type RefereeBase } from "./replay";
import { generateRingYielding, growthReason, nextTimer, type GrowPolicy } from "./growth";
import { randomSecret } from "./secrets";

/** Status of a field as the outside sees it; `missing` = never created or expired. */
export type FieldStatus = GameSummary["status"] | "missing";

/** Every answer of the object: plain data (RPC), never a thrown error. */
export type Outcome<T = Record<string, unknown>> = { ok: true; answer: T } | { ok: false; error: RefereeError };

/** Generation parameters without the seed (the seed stays secret; the parameters are public). */
export type FieldShape = Omit<FieldParams, "seed">;

export interface CreateArgs {
  gameId: string;
  params: FieldShape;
  rules: FieldRules;
  /** The side, derived at the edge for grid and field kinds (the engine's result is authoritative). */
  G: number;
  /** The secret the field is generated from; only its commitment is public. */
  seed: string;
  /** Growth policy of a growing field (SPEC §5), applied by the alarm. */
  grow?: GrowPolicy;
}

/** A join after the edge proved the caller's machine (or, in development mode, did not). */
export interface JoinArgs extends SeatDetails {
  machineId: string;
  /** Hand out an `agent_secret` (proof joins: the client cannot set an Authorization header). */
  issueSecret: boolean;
}

type PlayInput = Extract<WriteInput, { type: "reveal" | "commit" | "retract" }>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A reveal/commit/retract plus how the caller proves the agent's machine. */
export interface WriteArgs {
  input: DistributiveOmit<PlayInput, "machineId">;
  /** The machine proven by a bearer token, when the request had one. */
  machineId?: string;
  /** The agent's secret from a proof join, when the request had no token. */
  agentSecret?: string;
}

export interface Manifest {
  game_id: string;
  status: FieldStatus;
  kind: string;
  params: FieldShape;
  rules: FieldRules;
  G: number;
  tiles_total: number;
  created: number;
  seed_commit: string;
  log_head: { hash: string; revision: number };
  /** Rings grown so far; for growing fields also the policy and, once it stopped, why. */
  grown: number;
  growth?: { policy: GrowPolicy; next_at?: number; ended?: string };
}

/** Games nobody joins are removed this long after creation (SPEC §6). */
export const EXPIRY_MS = 30 * 60_000;
const MAX_EVENTS_PAGE = 1_000;

/**
 * One Durable Object per game_id (SPEC §13). It owns the field's storage and its referee:
 *
 * - `create` stores the parameters and arms an alarm; the alarm generates the field in small
 *   steps that yield to the event loop, so observe keeps answering `generating` meanwhile.
 * - Every write is judged by the pure referee, chained onto the log and stored in one
 *   synchronous block (no `await` between judge and store), so writes are serialised, atomic,
 *   and durable before they are answered (the output gate holds the answer until then).
 * - On wake the object reloads the field, restores the newest referee snapshot and replays the
 *   stored inputs after it (all of them without a readable snapshot); the referee is
 *   deterministic, so this rebuilds exactly the state before eviction.
 */
export class FieldObject extends DurableObject<Env> {
  private readonly store: FieldStore;
  private referee: Referee | null = null;
  /** The field as generated and grown so far (tiles of every ring, the whole solution). */
  private field: Field | null = null;
  /** Tiles revealed so far (a tile is revealed once; solved tiles were revealed first). */
  private revealed = 0;
  private growing: Promise<void> | null = null;
  private head = { hash: "", revision: 0 };
  private generation: Promise<void> | null = null;
  private progress = { done: 0, total: 0 };
  private readonly registry: RegistryReporter;
  private loadError: string | null = null;
  /** Revision of the newest stored referee snapshot (0: none). */
  private snapshotRev = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new FieldStore(ctx.storage.sql);
    this.registry = new RegistryReporter(env, () => this.summary(), (p) => ctx.waitUntil(p));
    ctx.blockConcurrencyWhile(async () => {
      this.store.migrate();
      this.safeRestore();
    });
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  /** Registers a new field and schedules its generation; answers at once. */
  async create(args: CreateArgs): Promise<Outcome<{ game_id: string; status: "generating"; G: number }>> {
    if (this.store.getMeta<string>("game_id") !== undefined) {
      return fail("bad_input", `game ${args.gameId} already exists`);
    }
    const commit = await seedCommit(args.seed);
    if (this.store.getMeta<string>("game_id") !== undefined) return fail("bad_input", `game ${args.gameId} already exists`);
    const now = Date.now();
    this.ctx.storage.transactionSync(() => {
      this.store.setMeta("game_id", args.gameId);
      this.store.setMeta("params", args.params);
      this.store.setMeta("rules", args.rules);
      if (args.grow) this.store.setMeta("grow_policy", args.grow);
      this.store.setMeta("seed", args.seed);
      this.store.setMeta("seed_commit", commit);
      this.store.setMeta("created", now);
      this.store.setMeta("expires_at", now + EXPIRY_MS);
      this.store.setMeta("G", args.G);
      this.store.setMeta("status", "generating");
    });
    this.head = { hash: commit, revision: 0 };
    await this.ctx.storage.setAlarm(now);
    await this.registry.now();
    return { ok: true, answer: { game_id: args.gameId, status: "generating", G: args.G } };
  }

  /**
   * One alarm serves every schedule (at-least-once, so each branch is idempotent): generation,
   * expiry of unjoined fields, and growth. It re-arms itself for the earliest next duty.
   */
  override async alarm(): Promise<void> {
    const status = this.storedStatus();
    if (status === "missing") return;
    if (status === "generating") {
      this.generation ??= this.generate().finally(() => (this.generation = null));
      await this.generation;
    } else {
      if (await this.expireIfIdle()) return;
      if (this.growthReason()) {
        this.growing ??= this.grow().finally(() => (this.growing = null));
        await this.growing;
      }
    }
    await this.armAlarm();
  }

  /** Sets the alarm for the earliest pending duty, or clears it. */
  private async armAlarm(): Promise<void> {
    const status = this.storedStatus();
    if (status === "missing") return;
    const now = Date.now();
    const times: number[] = [];
    if (status === "generating") times.push(now);
    if (status !== "generating" && this.store.agentCount() === 0) times.push(this.store.getMeta<number>("expires_at") ?? now);
    if (this.canGrow()) {
      if (this.growthReason()) times.push(now);
      const next = this.store.getMeta<number>("next_grow_at");
      if (next !== undefined) times.push(next);
    }
    if (times.length > 0) await this.ctx.storage.setAlarm(Math.min(...times));
    else await this.ctx.storage.deleteAlarm();
  }

  /**
   * Generates the field. Idempotent: nothing is stored until the whole field is ready, and then
   * in one transaction that replaces anything a previous (interrupted) attempt left.
   */
  private async generate(): Promise<void> {
    const params: FieldParams = { ...this.store.getMeta<FieldShape>("params")!, seed: this.store.getMeta<string>("seed")! };
    let field: Field;
    let referee: Referee;
    try {
      const generator = createFieldGenerator(params);
      this.progress = generator.progress();
      while (!(await generator.step())) {
        this.progress = generator.progress();
        // A macrotask yield: lets queued requests (observe: "generating") run between steps.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      field = generator.result();
      referee = new Referee({ ...this.refereeBase(), field });
    } catch (err) {
      if (this.storedStatus() !== "generating") return;
      this.ctx.storage.transactionSync(() => {
        this.store.setMeta("status", "failed");
        this.store.setMeta("failure", `generation failed: ${err instanceof Error ? err.message : String(err)}`);
      });
      await this.registry.now();
      return;
    }
    if (this.storedStatus() !== "generating") return;
    const policy = this.store.getMeta<GrowPolicy>("grow_policy");
    const now = Date.now();
    this.ctx.storage.transactionSync(() => {
      this.store.saveField(field);
      this.store.setMeta("G", field.G);
      this.store.setMeta("tiles_total", field.tiles.length);
      this.store.setMeta("initial_tiles", field.tiles.length);
      this.store.setMeta("generated_at", now);
      const next = policy ? nextTimer(policy, now) : undefined;
      if (next !== undefined) this.store.setMeta("next_grow_at", next);
      this.store.setMeta("status", "playing");
    });
    this.referee = referee;
    this.field = field;
    this.revealed = 0;
    await this.registry.now();
  }

  /** A field nobody joined within EXPIRY_MS is deleted and leaves the registry. True when it did. */
  private async expireIfIdle(): Promise<boolean> {
    if (this.store.agentCount() > 0) return false;
    if (Date.now() < (this.store.getMeta<number>("expires_at") ?? 0)) return false;
    const gameId = this.store.getMeta<string>("game_id");
    await this.ctx.storage.deleteAll();
    this.store.migrate();
    this.referee = null;
    this.field = null;
    this.head = { hash: "", revision: 0 };
    if (gameId) await forgetGame(this.env, gameId);
    return true;
  }

  // ---- growth (SPEC §5) ---------------------------------------------------------------------

  private canGrow(): boolean {
    return (
      this.referee !== null &&
      this.referee.status !== "closed" &&
      this.store.getMeta<GrowPolicy>("grow_policy") !== undefined &&
      this.store.getMeta<string>("growth_ended") === undefined
    );
  }

  private growthReason(): string | null {
    if (!this.canGrow()) return null;
    return growthReason(this.store.getMeta<GrowPolicy>("grow_policy")!, {
      now: Date.now(),
      nextGrowAt: this.store.getMeta<number>("next_grow_at"),
      revealed: this.revealed,
      tilesTotal: this.field!.tiles.length,
      allSolved: this.referee!.status === "solved",
    });
  }

  /**
   * Grows one ring. The ring is a pure function of (seed, parameters, ring index, field so far),
   * so a retried alarm regenerates the same ring; it is applied and stored in one synchronous
   * block, like a write, and replayed on wake at the same position in the log.
   */
  private async grow(): Promise<void> {
    const referee = this.referee!;
    const field = this.field!;
    const ring = referee.grown + 1;
    const params: FieldParams = { ...this.store.getMeta<FieldShape>("params")!, seed: this.store.getMeta<string>("seed")! };
    let result: Awaited<ReturnType<typeof generateRingYielding>>;
    try {
      result = await generateRingYielding(params.seed, params, ring, field);
    } catch (err) {
      this.store.setMeta("growth_ended", `ring ${ring} failed: ${err instanceof Error ? err.message : String(err)}`);
      console.error("ring generation failed", err);
      return;
    }
    // Something may have changed while the ring was generated (a restore, the field closed).
    if (this.referee !== referee || referee.grown + 1 !== ring || referee.status === "closed") return;
    if (result.tiles.length === 0) {
      this.store.setMeta("growth_ended", `ring ${ring}: no room on the canvas`);
      this.registry.soon();
      return;
    }
    const at = Date.now();
    const statusBefore = referee.status;
    try {
      const grown = referee.grow({ ring, tiles: result.tiles, solution: result.solution }, at);
      if (!grown.ok) {
        this.store.setMeta("growth_ended", `ring ${ring} refused: ${grown.error.message}`);
        return;
      }
      const first = field.tiles.length;
      const policy = this.store.getMeta<GrowPolicy>("grow_policy")!;
      this.persist({ type: "grow", ring, first, count: result.tiles.length }, grown.event, at, null, () => {
        this.store.appendTiles(result.tiles);
        this.store.saveSolution(result.solution);
        this.store.setMeta("tiles_total", first + result.tiles.length);
        const next = nextTimer(policy, at);
        if (next !== undefined) this.store.setMeta("next_grow_at", next);
        if (!result.room) this.store.setMeta("growth_ended", `ring ${ring}: the canvas is full`);
      });
      this.field = { G: field.G, tiles: [...field.tiles, ...result.tiles], solution: result.solution };
    } catch (err) {
      this.recover(err);
      return;
    }
    if (referee.status !== statusBefore) this.registry.soon();
    else this.registry.batched();
  }

  /** Ends play (the daily field at the end of its day): recorded as a `close` event. */
  async close(): Promise<Outcome<{ revision: number; status: string }>> {
    const gate = this.playable();
    if (!gate.ok) return gate;
    const referee = this.referee!;
    if (referee.status === "closed") return { ok: true, answer: { revision: referee.revision, status: "closed" } };
    const at = Date.now();
    try {
      const event = referee.close(at);
      if (event) this.persist({ type: "close" }, event, at, null);
    } catch (err) {
      return this.recover(err);
    }
    this.registry.soon();
    return { ok: true, answer: { revision: referee.revision, status: referee.status } };
  }

  // ---- writes -------------------------------------------------------------------------------

  /**
   * The refusals a join can get without knowing who joins (missing, generating, failed, closed).
   * The edge asks this before verifying a join proof, because verifying spends the proof.
   */
  async joinable(): Promise<Outcome<{ status: FieldStatus }>> {
    const gate = this.playable();
    return gate.ok ? { ok: true, answer: { status: this.currentStatus() } } : gate;
  }

  async join(args: JoinArgs): Promise<Outcome> {
    const gate = this.playable();
    if (!gate.ok) return gate;
    const secret = args.issueSecret ? randomSecret() : null;
    const secretHash = secret ? await sha256Hex(secret) : null;
    // From here to the answer: synchronous, so judge and store form one transaction.
    const again = this.playable();
    if (!again.ok) return again;
    const { issueSecret: _issue, ...rest } = args;
    const input: WriteInput = { type: "join", ...rest };
    const result = this.apply(input, secretHash);
    if (!result.ok || !secret) return result;
    return { ok: true, answer: { ...result.answer, agent_secret: secret } };
  }

  async write(args: WriteArgs): Promise<Outcome> {
    const gate = this.playable();
    if (!gate.ok) return gate;
    const agent = args.input.agent;
    const machine = agentMachine(agent);
    if (machine === null) return fail("bad_input", `agent must be "<machine_id>/<session>", got ${JSON.stringify(agent.slice(0, 100))}`);
    if (args.machineId !== undefined) {
      if (machine !== args.machineId) {
        return fail("not_your_agent", `agent ${agent} belongs to machine ${machine}; your token proves ${args.machineId}. Write only as your own agents.`);
      }
    } else if (args.agentSecret !== undefined) {
      const stored = this.store.secretHash(agent);
      const given = await sha256Hex(args.agentSecret);
      if (stored === undefined) return fail("not_seated", `agent ${agent} is not seated on this field: join first.`);
      if (stored === null) {
        return fail("not_your_agent", `agent ${agent} was seated with a bearer token: its writes need that machine's 'Authorization: Bearer msc_…' header.`);
      }
      if (given !== stored) return fail("not_your_agent", `agent_secret does not match agent ${agent}: use the secret your join answered.`);
    } else {
      return fail("identity", "a write must prove its machine: send 'Authorization: Bearer msc_…' (see /identity) or the agent_secret your join answered.");
    }
    const again = this.playable();
    if (!again.ok) return again;
    return this.apply({ ...args.input, machineId: machine } as WriteInput, null);
  }

  /**
   * Judge, chain, store — synchronously. If anything throws after the referee changed its
   * memory, the referee is rebuilt from storage, so memory never runs ahead of what is durable.
   */
  private apply(input: WriteInput, secretHash: string | null): Outcome {
    const referee = this.referee!;
    const statusBefore = referee.status;
    const at = Date.now();
    try {
      const result = referee.apply(input, at);
      if (!result.ok) return { ok: false, error: result.error };
      const agent = input.type === "join" ? String(result.answer.agent) : input.agent;
      if (result.event) {
        this.persist(input, result.event, at, input.type === "join" ? { agent, machine: input.machineId, secretHash } : null);
        if (input.type === "reveal") this.revealed++;
      } else if (input.type === "join" && secretHash) this.store.upsertAgent(agent, input.machineId, secretHash, at);
      // Coverage or completion can make a growing field due: let the alarm grow it now.
      if (result.event && this.growthReason()) this.ctx.storage.setAlarm(Date.now()).catch((err) => console.error("setAlarm failed", err));
      // Status changes and new seats are reported at once; revisions are batched.
      if (referee.status !== statusBefore || (input.type === "join" && result.event)) this.registry.soon();
      else this.registry.batched();
      return { ok: true, answer: result.answer };
    } catch (err) {
      return this.recover(err);
    }
  }

  private persist(
    input: StoredInput,
    event: RefereeEvent,
    at: number,
    seat: { agent: string; machine: string; secretHash: string | null } | null,
    alsoStore?: () => void,
  ): void {
    const chained = chainEvent(this.head.hash, event);
    const snapshot = event.rev - this.snapshotRev >= SNAPSHOT_EVERY ? this.encodeSnapshot() : null;
    this.ctx.storage.transactionSync(() => {
      this.store.appendEvent({ rev: event.rev, at, input, event: chained.event, hash: chained.hash });
      if (seat) this.store.upsertAgent(seat.agent, seat.machine, seat.secretHash, at);
      alsoStore?.();
      if (snapshot) this.store.saveSnapshot(event.rev, snapshot);
    });
    this.head = { hash: chained.hash, revision: event.rev };
    if (snapshot) this.snapshotRev = event.rev;
  }

  /**
   * The referee's state after the write being stored, as the bytes of a snapshot. A snapshot is
   * only a shortcut for the next wake-up: if it cannot be built, the write is stored without one.
   */
  private encodeSnapshot(): Uint8Array | null {
    try {
      return new TextEncoder().encode(JSON.stringify(this.referee!.snapshot()));
    } catch (err) {
      console.error("referee snapshot failed; the write is stored without one", err);
      return null;
    }
  }

  private recover(err: unknown): Outcome<never> {
    console.error("field write failed; rebuilding from storage", err);
    this.safeRestore();
    return fail("bad_input", "the write could not be applied; nothing was changed");
  }

  // ---- reads --------------------------------------------------------------------------------

  async observe(query: ObserveQuery & { callerMachineId?: string }): Promise<Outcome> {
    const status = this.storedStatus();
    if (status === "generating") {
      const created = this.store.getMeta<number>("created") ?? Date.now();
      const gameId = this.store.getMeta<string>("game_id");
      const elapsed = Math.floor((Date.now() - created) / 1000);
      return {
        ok: true,
        answer: {
          game_id: gameId,
          status: "generating",
          elapsed_s: elapsed,
          progress: this.progress,
          // Also where a program reads every other observation (SPEC §6.1), so polling code needs one path.
          observation: { game_id: gameId, status: "generating", revision: 0, elapsed_s: elapsed },
        },
      };
    }
    const gate = this.playable(true);
    if (!gate.ok) return gate;
    try {
      const observed = this.referee!.observe(query) as unknown;
      if (isRecord(observed) && observed.ok === false && isRecord(observed.error)) return { ok: false, error: observed.error as unknown as RefereeError };
      const observation = isRecord(observed) && isRecord(observed.observation) ? observed.observation : observed;
      return { ok: true, answer: { observation } };
    } catch (err) {
      console.error("observe failed", err);
      return fail("bad_input", "the observation could not be built");
    }
  }

  async status(): Promise<{ status: FieldStatus; revision: number; failure?: string }> {
    const status = this.currentStatus();
    const failure = this.store.getMeta<string>("failure");
    return failure ? { status, revision: this.head.revision, failure } : { status, revision: this.head.revision };
  }

  async manifest(): Promise<Outcome<Manifest>> {
    const status = this.currentStatus();
    if (status === "missing") return fail("missing", "no such game");
    const params = this.store.getMeta<FieldShape>("params")!;
    return {
      ok: true,
      answer: {
        game_id: this.store.getMeta<string>("game_id")!,
        status,
        kind: params.kind,
        params,
        rules: this.store.getMeta<FieldRules>("rules")!,
        G: this.store.getMeta<number>("G") ?? 0,
        tiles_total: this.store.getMeta<number>("tiles_total") ?? 0,
        created: this.store.getMeta<number>("created")!,
        seed_commit: this.store.getMeta<string>("seed_commit")!,
        log_head: { ...this.head },
        grown: this.referee?.grown ?? 0,
        ...this.growthInfo(),
      },
    };
  }

  private growthInfo(): { growth?: Manifest["growth"] } {
    const policy = this.store.getMeta<GrowPolicy>("grow_policy");
    if (!policy) return {};
    const next = this.store.getMeta<number>("next_grow_at");
    const ended = this.store.getMeta<string>("growth_ended");
    return { growth: { policy, ...(next !== undefined ? { next_at: next } : {}), ...(ended !== undefined ? { ended } : {}) } };
  }

  /** The public event log after revision `afterRev` (oldest first, at most 1,000). */
  async events(afterRev = 0, limit = MAX_EVENTS_PAGE): Promise<Outcome<{ events: Array<Record<string, unknown>>; log_head: { hash: string; revision: number } }>> {
    if (this.currentStatus() === "missing") return fail("missing", "no such game");
    const page = Math.max(1, Math.min(MAX_EVENTS_PAGE, Math.floor(limit)));
    return { ok: true, answer: { events: this.store.events(Math.max(0, Math.floor(afterRev)), page), log_head: { ...this.head } } };
  }

  // ---- restore ------------------------------------------------------------------------------

  /**
   * Restore without ever throwing out of the constructor (which would reset the object on every
   * request): a field whose log cannot be replayed stays unloaded and answers `failed`.
   */
  private safeRestore(): void {
    try {
      this.restore();
      this.loadError = null;
    } catch (err) {
      this.referee = null;
      this.loadError = err instanceof Error ? err.message : String(err);
      console.error("field could not be restored", err);
    }
  }

  /**
   * Rebuilds memory from storage: the field, and a referee restored from the newest snapshot and
   * fed the stored inputs after it (every stored input when there is no readable snapshot).
   */
  private restore(): void {
    this.referee = null;
    this.field = null;
    this.snapshotRev = 0;
    const commit = this.store.getMeta<string>("seed_commit");
    this.head = this.store.head() ?? { hash: commit ?? "", revision: 0 };
    if (this.storedStatus() !== "playing") return;
    const field = this.store.loadField(this.store.getMeta<number>("G")!);
    const initial = this.store.getMeta<number>("initial_tiles") ?? field.tiles.length;
    const { referee, fromSnapshot } = rebuildReferee(field, initial, this.refereeBase(), this.store.latestSnapshot(), (rev) => this.store.inputs(rev));
    this.referee = referee;
    this.field = field;
    this.revealed = referee.revealedTiles();
    // Without a usable snapshot, the next stored write takes a fresh one.
    this.snapshotRev = fromSnapshot ?? 0;
  }

  private refereeBase(): RefereeBase {
    return {
      gameId: this.store.getMeta<string>("game_id")!,
      seed: this.store.getMeta<string>("seed")!,
      rules: this.store.getMeta<FieldRules>("rules")!,
    };
  }

  // ---- status -------------------------------------------------------------------------------

  /** `playing` in storage means "generated"; the referee knows whether it is solved or closed. */
  private storedStatus(): FieldStatus {
    return this.store.getMeta<FieldStatus>("status") ?? "missing";
  }

  private currentStatus(): FieldStatus {
    const stored = this.storedStatus();
    if (stored === "playing" && this.referee) return this.referee.status as FieldStatus;
    return stored;
  }

  /** Gate for writes (and, with `read`, observe): the field must exist and be generated. */
  private playable(read = false): { ok: true } | { ok: false; error: RefereeError } {
    const status = this.storedStatus();
    if (status === "missing") return fail("missing", "no such game: check list_games (games nobody joins expire after 30 minutes)");
    if (status === "generating") {
      const created = this.store.getMeta<number>("created") ?? Date.now();
      return fail("generating", `the field is still generating (${Math.floor((Date.now() - created) / 1000)} s so far): poll observe until its status is playing`);
    }
    if (status === "failed") return fail("failed", this.store.getMeta<string>("failure") ?? "generation failed");
    if (!this.referee) return fail("failed", `the field could not be loaded: ${this.loadError ?? "unknown error"}`);
    if (!read && this.referee.status === "closed") return fail("closed", "this field is closed: writes are refused");
    return { ok: true };
  }

  // ---- registry -----------------------------------------------------------------------------

  private summary(): (GameSummary & { created: number }) | null {
    const gameId = this.store.getMeta<string>("game_id");
    const status = this.currentStatus();
    if (!gameId || status === "missing") return null;
    return {
      game_id: gameId,
      created: this.store.getMeta<number>("created") ?? 0,
      status,
      revision: this.head.revision,
      G: this.store.getMeta<number>("G") ?? 0,
      tiles: this.store.getMeta<number>("tiles_total") ?? 0,
      grown: this.referee?.grown ?? 0,
      fog: this.store.getMeta<FieldRules>("rules")?.fog ?? false,
      agents: this.store.agentCount(),
    };
  }
}

function fail(code: RefereeError["code"], message: string, revision?: number): { ok: false; error: RefereeError } {
  return { ok: false, error: revision === undefined ? { code, message } : { code, message, revision } };
}

const AGENT_RE = /^(m-[0-9a-f]{16})\/([\x21-\x7e]{1,64})$/;

/** The machine part of an agent id `<machine_id>/<session>`, or null when malformed. */
export function agentMachine(agent: string): string | null {
  const m = AGENT_RE.exec(agent);
  return m ? m[1] : null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
