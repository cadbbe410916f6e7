/**
 * The referee's contract with the field's Durable Object (and with the auditor, who replays
 * the same inputs). Everything here is plain data: the referee is pure and deterministic, so
 * re-applying the stored inputs in order rebuilds exactly the same state and verdicts.
 */

export type ErrorCode =
  | "missing"
  | "generating"
  | "failed"
  | "identity"
  | "token"
  | "proof"
  | "not_seated"
  | "not_your_agent"
  | "off_frontier"
  | "solved"
  | "conflict"
  | "too_large"
  | "bad_input"
  | "dead"
  | "closed";

export interface RefereeError {
  code: ErrorCode;
  message: string;
  revision?: number;
  /** On a conflict: the tiles holding `cells` whose status changed after its expected_revision (ascending). */
  tiles?: number[];
  /**
   * On a conflict (SPEC §4.9): a commit's cells known since with the other value, or a retract's
   * cells another session of its machine committed or retracted since (ascending).
   */
  cells?: number[];
  /** On a conflict: those of `cells` that are known now, as [cell_id, value] (the others were retracted). */
  known?: number[][];
}

export interface FieldRules {
  guess: "accept" | "reject";
  depth: 0 | 1 | 2;
  fog: boolean;
}

/** An agent's free tags (SPEC §6.1, §11): an object of string → string, as the reference takes. */
export type Tags = Record<string, string>;

/**
 * What a join records about the agent it seats (SPEC §4.1, §6), besides its machine. (A type, not
 * an interface, so that a join input still counts as a plain record.)
 */
export type SeatDetails = {
  session: string;
  name: string;
  model: string;
  harness: string;
  harnessSource: "transport" | "argument" | "unknown";
  /** Free tags, string → string (a join input may still carry the older list form). */
  tags: Tags;
  verified: boolean;
};

/** A write as the referee sees it, after the edge has validated shapes and proven the caller's machine. */
export type WriteInput =
  | ({
      type: "join";
      /** The proven machine of the caller. */
      machineId: string;
    } & SeatDetails)
  | { type: "reveal"; machineId: string; agent: string; expectedRevision: number; tile: number; intent: string }
  | { type: "commit"; machineId: string; agent: string; expectedRevision: number; cells: Array<[number, 0 | 1]>; intent: string }
  | { type: "retract"; machineId: string; agent: string; expectedRevision: number; cells: number[]; intent: string };

/**
 * One entry of the public event log (SPEC §9). Integers, strings, booleans, arrays and objects
 * only (no floats), so its canonical JSON is the same everywhere. `prev`/`hash` are added by
 * the Durable Object when it chains the log.
 */
export interface RefereeEvent {
  rev: number;
  type: "join" | "reveal" | "commit" | "retract" | "grow" | "close";
  /** Unix milliseconds, supplied by the caller of apply(). */
  at: number;
  agent?: string;
  intent?: string;
  [detail: string]: unknown;
}

/** A public event as stored in the log: chained with `prev` and its own `hash` (SPEC §9). */
export type ChainedEvent = RefereeEvent & { prev: string; hash: string };

/**
 * `event` is null when the write was answered but changed nothing (a rejoin, a repeated reveal,
 * a commit whose cells were all ignored): the revision did not move and nothing is logged. Every
 * answer carries `changed: true|false` saying which (SPEC §4.9).
 */
export type WriteResult =
  | { ok: true; answer: Record<string, unknown>; event: RefereeEvent | null }
  | { ok: false; error: RefereeError };

/** observe scopes (SPEC §4.7). */
export interface ObserveQuery {
  /** With `rect`, sets whose fog view and health apply; alone, the `{agent}` scope. */
  agent?: string;
  rect?: [number, number, number, number];
  full?: boolean;
}
