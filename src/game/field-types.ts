import type { FieldParams } from "../engine";
import type { BearerClaim } from "../identity/vouched-tokens";
import type { FieldRules, ObserveQuery, RefereeError, SeatDetails, WriteInput } from "../referee/types";
import type { GrowPolicy } from "./growth";
import type { GameSummary } from "./registry";
import { MACHINE_ID_RE, splitAgentId } from "../referee/agent-id";
import type { XyCommit, XyRetract } from "../referee/coordinates";

/** The shapes a field object speaks over RPC: plain data in, plain data out. */

/** Status of a field as the outside sees it; `missing` = never created or expired. */
export type FieldStatus = GameSummary["status"] | "missing";

/** Every answer of the object: plain data (RPC), never a thrown error. */
export type Outcome<T = Record<string, unknown>> = { ok: true; answer: T } | { ok: false; error: RefereeError };

/** A refusal, as an outcome. */
export type Refusal = { ok: false; error: RefereeError };

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
  /** The daily field (SPEC §9): its UTC date and when it closes. It never expires unjoined. */
  day?: DayInfo;
}

export interface DayInfo {
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  /** Unix ms when the day ends and the field closes itself (the next UTC midnight); null: only when told. */
  closesAt: number | null;
}

/**
 * A join, its machine proven by the edge (a proof join; in development mode, not at all) or by the
 * field itself from the request's bearer token.
 */
export interface JoinArgs extends SeatDetails {
  machineId: string;
  /** Hand out an `agent_secret` (proof joins: the client cannot set an Authorization header). */
  issueSecret: boolean;
  /**
   * The request's bearer token, hashed, naming `machineId`: the field proves it before seating, and
   * keeps the identity object's vouch for the agent's writes (field-callers.ts).
   */
  bearer?: BearerClaim;
}

type PlayInput = Extract<WriteInput, { type: "reveal" | "commit" | "retract" }>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Common = { agent: string; expectedRevision: number; intent: string };

/** A commit or retract naming its cells by coordinates: the field turns them into ids (it knows G). */
export type XyInput = (Common & { type: "commit"; xy: XyCommit }) | (Common & { type: "retract"; xy: XyRetract });

/** A reveal/commit/retract plus how the caller proves the agent's machine. */
export interface WriteArgs {
  input: DistributiveOmit<PlayInput, "machineId"> | XyInput;
  /** The request's bearer token, hashed, for the field to check (field-callers.ts). */
  bearer?: BearerClaim;
  /** A machine the caller already proved (in-process callers and tests). */
  machineId?: string;
  /** The agent's secret from a proof join, when the request had no token. */
  agentSecret?: string;
}

/** A read's perspective: a machine already proven, or a bearer token for the field to check (refused when not current); neither is a spectator. */
export interface ObserveArgs extends ObserveQuery {
  callerMachineId?: string;
  bearer?: BearerClaim;
}

/** An answer plus the machine the call's token proved, when it proved one (the usage meter counts the call for it). */
export type CallerOutcome<T = Record<string, unknown>> = Outcome<T> & { caller?: string };

/** The head of the hash-chained log: the newest event's hash and revision (SPEC §9). */
export interface LogHead {
  hash: string;
  rev: number;
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
  /** When play opened (creation); for the daily field also when it closes (else null). */
  opened_at: number;
  closes_at: number | null;
  /** The close event's time, once closed. */
  closed_at?: number;
  /** The daily field's UTC date. */
  day?: string;
  seed_commit: string;
  /** hex(SHA-256(key)) of the tile hashes' key (absent on fields stored before keys existed). */
  hash_key_commit?: string;
  log_head: LogHead;
  /** Rings grown so far (`grown`, the name list_games uses, is the same number). */
  rings: number;
  grown: number;
  growth?: { policy: GrowPolicy; next_at?: number; ended?: string };
  /** Released after the close only (SPEC §9): the seed and the tile hashes' key, hex. */
  day_seed?: string;
  day_key?: string;
  /** The day's archive once written: its public path and size in bytes. */
  archive?: { url: string; bytes: number };
}

export function fail(code: RefereeError["code"], message: string, revision?: number): Refusal {
  return { ok: false, error: revision === undefined ? { code, message } : { code, message, revision } };
}

/** The machine part of an agent id `<machine_id>/<session>`, or null when malformed (sessions may hold spaces and non-ASCII). */
export function agentMachine(agent: string): string | null {
  const parts = splitAgentId(agent);
  return parts && MACHINE_ID_RE.test(parts.machineId) ? parts.machineId : null;
}

/** The refusal of an agent id without the form `<machine_id>/<session>`: writes and reads word it alike. */
export function malformedAgent(agent: string): Extract<Outcome, { ok: false }> {
  return fail("bad_input", `agent must be "<machine_id>/<session>" as join returned it, got ${JSON.stringify(agent.slice(0, 100))}`);
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
