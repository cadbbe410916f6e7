import type { Board } from "./board";
import type { Groups } from "./groups";
import type { Seats } from "./seats";
import type { FieldRules, RefereeError } from "./types";

/** Where play stands on a field the referee holds (the object's own lifecycle status is `FieldStatus`, src/game). */
export type PlayStatus = "playing" | "solved" | "closed";

/** Everything a write handler reads and changes. */
export interface RefereeState {
  readonly gameId: string;
  readonly seed: string;
  readonly rules: FieldRules;
  readonly board: Board;
  readonly seats: Seats;
  readonly groups: Groups;
  revision: number;
  status: PlayStatus;
  /** Growth rings applied so far (SPEC §5). */
  grown: number;
}

/** What a handler returns: an error, or an answer plus the event detail when state changed. */
export type HandlerResult =
  | { ok: false; error: RefereeError }
  | { ok: true; answer: Record<string, unknown>; changed: false }
  | { ok: true; answer: Record<string, unknown>; changed: true; event: Record<string, unknown> };
