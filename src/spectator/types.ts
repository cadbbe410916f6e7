/**
 * The spectator's vocabulary (docs/spectator.md): the public chained events as the reducer reads
 * them, tile geometry, the compact snapshot and the live feed's messages. Plain data only, so the
 * same module runs in the browser, in Node and in workerd.
 */
import type { Rect, TileShape } from "../engine/types";
import type { PlayStatus } from "../referee/state";

export type { Rect };

/** A tile's public geometry: box, rectangles relative to the box, ambiguity class. */
export interface TileGeometry extends TileShape {
  m: number;
}

export type HealthState = "healthy" | "warning" | "dead";

/** The integer health summary a commit event carries (SPEC §4.8; rate in basis points). */
export interface HealthSummary {
  state: HealthState;
  rate_bp: number;
  committed: number;
  wrong: number;
  window: number;
}

export interface MeetRecord {
  with: string[];
}

/**
 * One public event (SPEC §9 "Events"), as chained in the log: `prev`/`hash` are present on the
 * live feed and in archives, absent on events straight from the referee (tests).
 */
export type PublicEvent = JoinEvent | RevealEvent | CommitEvent | RetractEvent | GrowEvent | CloseEvent;

interface EventBase {
  rev: number;
  at: number;
  prev?: string;
  hash?: string;
}

export interface JoinEvent extends EventBase {
  type: "join";
  agent: string;
  machine: string;
  session: string;
  name: string;
  model: string;
  harness: string;
  harness_source: string;
  /** A list of tags (read as `tag → ""`) or an object of tag → value. */
  tags: string[] | Record<string, string>;
  verified: boolean;
  seed_tile: number | null;
}

export interface RevealEvent extends EventBase {
  type: "reveal";
  agent: string;
  intent: string;
  tile: number;
  /** The tile's givens as `[cell id, value]`; they become known. */
  givens: Array<[number, number]>;
  solved: number[];
  meets: MeetRecord[];
  reward: number;
}

export interface CommitEvent extends EventBase {
  type: "commit";
  agent: string;
  intent: string;
  accepted: Array<{ id: number; v: number; class: "forced" | "guess"; rule?: string }>;
  rejected: Array<{ id: number; reason: "wrong" | "guess" }>;
  ignored: Array<{ id: number; reason: string }>;
  unevaluated: number[];
  solved: number[];
  meets: MeetRecord[];
  reward: number;
  health?: HealthSummary;
  died?: boolean;
}

export interface RetractEvent extends EventBase {
  type: "retract";
  agent: string;
  intent: string;
  retracted: number[];
  ignored: Array<{ id: number; reason: string }>;
}

export interface GrowEvent extends EventBase {
  type: "grow";
  ring: number;
  first_tile: number;
  tiles: number;
}

export interface CloseEvent extends EventBase {
  type: "close";
  solved: number;
  tiles_total: number;
}

export interface LogHead {
  hash: string;
  rev: number;
}

/**
 * Tile geometry in columns (snapshots and live batches). `ids` are ascending ids as gaps from 0
 * (decode by cumulative sum); `rects` is flat: per tile a count `n`, then `4n` integers
 * `lx, ly, w, h`; `n = 0` stands for the single rectangle covering the whole box.
 */
export interface PackedTiles {
  ids: number[];
  x0: number[];
  y0: number[];
  w: number[];
  h: number[];
  /** One digit per tile. */
  m: string;
  rects: number[];
}

/** Per-tile play state aligned with a snapshot's `tiles` columns. */
export interface PackedTileState {
  /** One character per tile: `h` hidden, `r` revealed, `s` solved. */
  status: string;
  /** Agent index of the solver, -1 when unsolved. */
  solver: number[];
  /** Agent index of the revealer, -1 when hidden. */
  revealer: number[];
}

/**
 * A set of cells with values: alternating run lengths over cell ids 0…G²-1, starting with an
 * unknown run (possibly 0), the trailing unknown run left out; `values` holds one bit per known
 * cell in ascending order, most significant bit first, as base64.
 */
export interface PackedCells {
  runs: number[];
  values: string;
}

/** A session; its counters are its own share of its machine's (health stays the machine's). */
export interface SnapshotAgent extends PlayCounters {
  id: string;
  /** Index into `machines`. */
  machine: number;
  session: string;
  name: string;
  model: string;
  harness: string;
  harness_source: string;
  tags: Record<string, string>;
  verified: boolean;
  seed: number | null;
  joined_at: number;
  joined_rev: number;
}

/** What a machine and each of its sessions count alike (SPEC §11). */
export interface PlayCounters {
  reward: number;
  solved: number;
  accepted: number;
  forced: number;
  guesses: number;
  wrong: number;
  rejected_guesses: number;
  retractions: number;
}

/** Counters at a join. */
export function zeroCounters(): PlayCounters {
  return { reward: 0, solved: 0, accepted: 0, forced: 0, guesses: 0, wrong: 0, rejected_guesses: 0, retractions: 0 };
}

export interface SnapshotMachine extends PlayCounters {
  id: string;
  /** Display name: the identity's name when the server knows it, else the first join's `name`. */
  name: string;
  health: HealthSummary;
  died_at: number | null;
  died_rev: number | null;
}

export interface MeetingRecord {
  rev: number;
  at: number;
  /** The agent whose solve made the groups meet. */
  agent: string;
  /** The members of the group it met. */
  with: string[];
}

/** A ring the field grew (its `grow` event), so a page opened later can still mark it. */
export interface RingRecord {
  ring: number;
  rev: number;
  first_tile: number;
  tiles: number;
}

export const SNAPSHOT_FORMAT = "mosaic-spectator-v1";

/**
 * Everything a spectator needs at one revision (docs/spectator.md). `scope: "public"` holds the
 * geometry a spectator may see (under fog only reached tiles); `scope: "full"` holds every
 * existing tile's geometry (the server's own checkpoints; replays of a published archive).
 */
export interface SpectatorSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  scope: "public" | "full";
  game_id: string;
  G: number;
  status: PlayStatus;
  revision: number;
  log_head: LogHead;
  /** `at` of the newest event (0 before the first). */
  updated_at: number;
  fog: boolean;
  rules: { guess: string; depth: number; fog: boolean } | null;
  grown: number;
  tiles_total: number;
  tiles: PackedTiles & PackedTileState;
  known: PackedCells;
  /** Cells whose latest verdict was a rejection and that are still unknown, as gaps. */
  rejected: { wrong: number[]; guess: number[] };
  agents: SnapshotAgent[];
  machines: SnapshotMachine[];
  /** Groups as lists of agent indices, each ascending, ordered by their lowest member. */
  groups: number[][];
  meetings: MeetingRecord[];
  /** The rings grown, in log order (absent from snapshots written before it was added). */
  rings?: RingRecord[];
  totals: { reward: number; solved: number };
}

/** Server → spectator messages on `GET /api/games/:id/live` (docs/spectator.md). */
export type LiveMessage =
  | {
      type: "events";
      events: PublicEvent[];
      /** Geometry of tiles that became visible with these events (reached under fog, grown otherwise). */
      tiles?: PackedTiles;
      log_head: LogHead;
    }
  | { type: "resync"; reason: string; log_head: LogHead }
  | { type: "hello"; game_id: string; from: number; log_head: LogHead; status: string; fog: boolean };

/** An account as leaderboards show it (SPEC §8.2). */
export interface AccountRef {
  id: string;
  name: string;
}

/** One leaderboard row (SPEC §11), computable at any revision from the events. */
export interface LeaderboardRow {
  rank: number;
  machine: string;
  name: string;
  /** The account the machine is linked to (SPEC §8.2), null when none or not looked up (a replay). */
  account: AccountRef | null;
  sessions: string[];
  agents: string[];
  models: string[];
  harnesses: string[];
  reward: number;
  /** Tiles solved. */
  tiles: number;
  /** Cells accepted (a recommit after a retraction counts again). */
  cells: number;
  /** Cells judged: accepted + wrong + refused guesses. */
  committed: number;
  forced: number;
  /** forced / cells, 0 without cells. */
  forced_share: number;
  guesses: number;
  wrong: number;
  rejected_guesses: number;
  retractions: number;
  health: HealthSummary;
  died_at: number | null;
  died_rev: number | null;
}
