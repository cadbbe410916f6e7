import type { Field } from "../engine/types";
import type { Referee } from "./referee";
import type { RefereeError, RefereeEvent, WriteInput } from "./types";

/**
 * A state change as the log records it: a write, a grown ring (its tiles named by position in the
 * field) or the close. Replaying these in order onto a fresh referee rebuilds the field's state —
 * the field object on wake-up, the auditor from an archive.
 */
export type LoggedInput = WriteInput | { type: "close" } | { type: "grow"; ring: number; first: number; count: number };

export type LoggedResult = { ok: true; event: RefereeEvent | null } | { ok: false; error: RefereeError };

/** Applies one logged state change at its time; `field` holds every tile grown so far and the whole solution. */
export function applyLogged(referee: Referee, field: Field, input: LoggedInput, at: number): LoggedResult {
  if (input.type === "close") return { ok: true, event: referee.close(at) };
  if (input.type === "grow") {
    const tiles = field.tiles.slice(input.first, input.first + input.count);
    const grown = referee.grow({ ring: input.ring, tiles, solution: field.solution }, at);
    return grown.ok ? { ok: true, event: grown.event } : grown;
  }
  const result = referee.apply(input, at);
  return result.ok ? { ok: true, event: result.event } : result;
}
