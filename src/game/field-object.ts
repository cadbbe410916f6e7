import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { FieldContext, type CommitListener } from "./field-context";
import { growWhenDue } from "./field-growth";
import { settleSoon } from "./field-settle";
import { snapshotWhenDue } from "./field-snapshots";
import { create, runAlarm } from "./field-lifecycle";
import * as reads from "./field-reads";
import { openStorage, safeRestore } from "./field-restore";
import { FieldStore } from "./field-store";
import type { CallerOutcome, CreateArgs, FieldStatus, JoinArgs, LogHead, Manifest, ObserveArgs, Outcome, WriteArgs } from "./field-types";
import * as writes from "./field-writes";
import { publicRead, type PublicAnswer, type PublicQuery } from "./public-reads";
import { closeAndArchive, closeIfDayEnded, type DayClosed } from "./day-close";
import { importPart, type ImportPart } from "./day-import";
import { RegistryReporter } from "./registry-reporter";
import { LiveDuties, type SpectatorAnswer } from "../live/live-duties";
import type { UsageRow } from "../live/live-store";
import { FaultHook, type FaultPlan } from "./fault-hook";
import type { RelayOpening } from "../live/live-feed";

export type { CallerOutcome, CreateArgs, FieldShape, FieldStatus, JoinArgs, LogHead, Manifest, ObserveArgs, Outcome, WriteArgs } from "./field-types";
export { agentMachine } from "./field-types";
export { EXPIRY_MS } from "./field-lifecycle";

/**
 * One Durable Object per game_id (SPEC §13): a thin RPC surface over the field's duties, each in
 * its own module sharing one `FieldContext`:
 *
 * - `field-lifecycle` — create, generation on the alarm, expiry, the alarm schedule;
 * - `field-growth` — growing rings (SPEC §5);
 * - `write-path` — judge → chain → store, synchronously, and the commit hook;
 * - `field-writes` — join, reveal/commit/retract with the proof of machine, close;
 * - `field-callers` — the machine a bearer token proves, from vouches the field holds;
 * - `field-reads` — observe, status, manifest, events, the registry row;
 * - `public-reads` — the public API's reads as JSON text with ETags;
 * - `field-restore` — rebuilding memory from storage on wake and after a failed write;
 * - `field-snapshots` — referee snapshots, taken in the background after the answers;
 * - `status-gate` — what may proceed in which status.
 *
 * Duties that react to the log (growth scheduling, the live feed, …) subscribe to
 * `FieldContext.onCommitted` in the constructor.
 */
export class FieldObject extends DurableObject<Env> {
  private readonly context: FieldContext;
  /** Spectators: the model at the head, the live feed, snapshot, leaderboard (src/live). */
  private readonly live: LiveDuties;
  /** Test-only failure injection (MOSAIC_FAULTS=1): see fault-hook.ts. */
  private readonly faults: FaultHook;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.faults = new FaultHook(env.MOSAIC_FAULTS === "1", (reason) => ctx.abort(reason), () => ctx.storage.sync());
    this.context = new FieldContext(ctx, env, new FieldStore(ctx.storage.sql), (f) => new RegistryReporter(env, () => reads.summary(f), (p) => ctx.waitUntil(p)));
    this.live = new LiveDuties(this.context);
    this.subscribe(() => growWhenDue(this.context));
    this.subscribe((event) => this.live.onCommitted(event));
    this.subscribe(() => snapshotWhenDue(this.context));
    this.subscribe(() => settleSoon(this.context));
    ctx.blockConcurrencyWhile(async () => {
      await openStorage(this.context);
      safeRestore(this.context);
    });
  }

  /** Where duties plug into the log: called after each durable write, ring and close. */
  private subscribe(listener: CommitListener): void {
    this.context.onCommitted(listener);
  }

  // ---- lifecycle ----

  async create(args: CreateArgs): Promise<Outcome<{ game_id: string; status: "generating"; G: number }>> {
    return create(this.context, args);
  }

  override async alarm(): Promise<void> {
    await closeIfDayEnded(this.context);
    await runAlarm(this.context);
  }

  // ---- writes ----

  async joinable(): Promise<Outcome<{ status: FieldStatus }>> {
    return writes.joinable(this.context);
  }

  async join(args: JoinArgs): Promise<CallerOutcome> {
    return this.faults.around("join", () => writes.join(this.context, args));
  }

  async write(args: WriteArgs): Promise<CallerOutcome> {
    return this.faults.around("write", () => writes.write(this.context, args));
  }

  /** The machine's identity object: tokens of `machineId` before `epoch` were replaced (src/identity/vouched-tokens.ts). */
  async revokeTokens(machineId: string, epoch: number): Promise<void> {
    this.context.vouched.revoke(machineId, epoch);
  }

  /** The machine's identity object: these access tokens of `machineId` were revoked (a sign-in's grant, SPEC §8.1). */
  async forgetTokens(machineId: string, tokenHashes: string[], untilMs: number): Promise<void> {
    this.context.vouched.forget(machineId, tokenHashes, untilMs, Date.now());
  }

  /** Ends play (the daily field at the end of its day): recorded as a `close` event. */
  async close(): Promise<Outcome<{ revision: number; status: string }>> {
    return writes.close(this.context);
  }

  /** Closes a daily field and writes its archive to R2 (idempotent: src/game/day-close.ts). */
  async closeDay(): Promise<Outcome<DayClosed>> {
    return closeAndArchive(this.context);
  }

  /** Development only: loads a day recorded elsewhere (the close benchmark's synthetic day). */
  async devImport(part: ImportPart): Promise<Outcome<{ status: string; revision: number }>> {
    if (this.env.MOSAIC_DEV !== "1") return { ok: false, error: { code: "bad_input", message: "imports exist in development mode only" } };
    return importPart(this.context, part);
  }

  // ---- reads ----

  async observe(args: ObserveArgs): Promise<CallerOutcome> {
    return this.faults.around("observe", () => reads.observeAsCaller(this.context, args));
  }

  async status(): Promise<{ status: FieldStatus; revision: number; failure?: string }> {
    return reads.status(this.context);
  }

  async manifest(): Promise<Outcome<Manifest>> {
    return this.faults.around("manifest", () => reads.manifest(this.context));
  }

  /** A public API read (manifest, hashes, tiles of a rect, events) as JSON text with its ETag. */
  async publicRead(query: PublicQuery, ifNoneMatch: string | null = null): Promise<PublicAnswer> {
    return this.faults.around("publicRead", () => publicRead(this.context, query, ifNoneMatch));
  }

  /** The public event log after revision `afterRev` (oldest first, at most 1,000). */
  async events(afterRev = 0, limit?: number): Promise<Outcome<{ events: Array<Record<string, unknown>>; log_head: LogHead }>> {
    return this.faults.around("events", () => reads.events(this.context, afterRev, limit));
  }

  // ---- spectators (src/live) ----

  /** `GET /api/games/:id/live`: the WebSocket upgrade of the live feed. */
  override async fetch(request: Request): Promise<Response> {
    return this.live.feed.accept(request);
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    this.live.feed.message(ws, message);
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.live.feed.close(ws, code, reason);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.live.feed.close(ws, 1011, "error");
  }

  /** A relay's spectator connects (src/live/relay-object.ts): subscribes the relay, answers the socket's opening. */
  async relayJoin(relay: string, from: number): Promise<RelayOpening> {
    return this.live.feed.relayJoin(relay, from);
  }

  /** The events a relay missed, after revision `from`. */
  async relayCatchUp(from: number): Promise<{ head: number; messages: string[] }> {
    return this.live.feed.relayCatchUp(from);
  }

  /** A relay's last socket closed. */
  async relayLeave(relay: string): Promise<void> {
    this.live.feed.relayLeave(relay);
  }

  async spectatorSnapshot(ifNoneMatch: string | null = null): Promise<SpectatorAnswer> {
    return this.faults.around("spectatorSnapshot", () => this.live.snapshot(ifNoneMatch));
  }

  async leaderboard(ifNoneMatch: string | null = null): Promise<SpectatorAnswer> {
    return this.live.leaderboard(ifNoneMatch);
  }

  async analysis(ifNoneMatch: string | null = null): Promise<SpectatorAnswer> {
    return this.live.analysis(ifNoneMatch);
  }

  /** Tests only (refused unless MOSAIC_FAULTS=1): make later calls of one method fail (fault-hook.ts). */
  async injectFault(plan: FaultPlan): Promise<{ ok: true } | { ok: false; error: { code: "bad_input"; message: string } }> {
    return this.faults.arm(plan);
  }

  /** Tool calls and bytes served per machine, batched by the MCP layer. */
  async recordUsage(rows: UsageRow[]): Promise<void> {
    this.live.recordUsage(rows);
  }
}
