/** What `playAgent` takes and what it returns. */
import type { ExpandPolicy } from "./choices";

export type FieldKind = "scatter" | "grid" | "field";

export interface NewField {
  kind: FieldKind;
  /** Side in cells (scatter, grid); the server derives it for `field`. */
  G?: number;
  seed?: string;
  n?: number;
  chunks?: number;
  chunk_g?: number;
  rules?: { guess?: "accept" | "reject"; depth?: number; fog?: boolean };
  grow?: { every_minutes?: number; frontier_coverage?: number };
}

export interface AgentOptions {
  /** The server: its origin (http://127.0.0.1:8787) or its /mcp URL. */
  url: string | URL;
  /** Join this field… */
  game?: string;
  /** …or start one (local servers); with neither, join the newest playing field. */
  newField?: NewField;
  /** The first session's name (default "1"); further seats are `<session>.2`, `<session>.3`. */
  session?: string;
  /** Seats this run may take on the field (1..3, default 3): a new one when the current frontier is empty. */
  maxSessions?: number;
  /** The key file (default as the identity CLI: $MOSAIC_IDENTITY, $MOSAIC_CONFIG_HOME, ~/.config/mosaic/identity.json). */
  identityFile?: string;
  name?: string;
  /** Self-reported at join (default "none"). */
  model?: string;
  tags?: Record<string, string>;
  /**
   * Share work with the other agents by rules all compute alike (agent/share.ts; default true).
   * false: every agent works whatever it proves, as agents written by others do (benchmarks).
   */
  coordinate?: boolean;
  /** Reveal policy among equally informative tiles: toward open space (default) or toward other agents. */
  expand?: ExpandPolicy;
  /** Per call (default 30 s). */
  timeoutMs?: number;
  /** How long a call whose connection dropped is retried, e.g. while the server restarts (default 60 s). */
  retrySeconds?: number;
  /**
   * A pause before each tool call, in milliseconds (default 0): the turn a model takes to read an
   * answer and choose its next call. Load benchmarks set it to play at a model's pace.
   */
  turnMs?: number;
  /** Waiting for a generating field (default 600 s). */
  generationSeconds?: number;
  /** How long to keep watching with nothing to do (empty frontier, waiting for growth or a merge; default 20 s). */
  idleSeconds?: number;
  /** Hard limit on the whole run (default 3600 s). */
  maxSeconds?: number;
  /** Progress lines (one per action); silent when absent. */
  log?: (line: string) => void;
  /** Stops the run at the next call boundary. */
  signal?: AbortSignal;
}

export type StopReason = "solved" | "closed" | "failed" | "no_frontier" | "stuck" | "dead" | "time" | "aborted" | "error";

export interface AgentSummary {
  game_id: string;
  /** Every seat this run played, first one first. */
  agents: string[];
  machine_id: string;
  reason: StopReason;
  error?: string;
  /** Tiles this run solved, and the cells they hold. */
  tiles: number;
  reward: number;
  /** MCP tool calls. */
  calls: number;
  /** Wall time of the answered calls in milliseconds (median, 95th percentile, slowest). */
  call_ms: { p50: number; p95: number; max: number };
  reveals: number;
  commits: number;
  /** Cells accepted, and of those the ones the referee classified forced. */
  accepted: number;
  forced: number;
  forced_share: number;
  /** Cells committed without proof (one per truly ambiguous tile state). */
  guesses: number;
  /** Cells the referee rejected as wrong. */
  wrong: number;
  conflicts: number;
  revision: number;
  seconds: number;
}
