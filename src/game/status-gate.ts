import type { RefereeError } from "../referee/types";
import type { FieldContext } from "./field-context";
import { fail, type FieldStatus } from "./field-types";

/**
 * The status gates of a field: what the outside sees, and whether a write (join, reveal, commit,
 * retract, close) or a read may proceed. Every entry point asks here, so refusals read the same.
 */

/** `playing` in storage means "generated"; the referee knows whether it is solved or closed. */
export function storedStatus(f: FieldContext): FieldStatus {
  return f.store.getMeta<FieldStatus>("status") ?? "missing";
}

export function currentStatus(f: FieldContext): FieldStatus {
  const stored = storedStatus(f);
  if (stored === "playing" && f.referee) return f.referee.status as FieldStatus;
  return stored;
}

export type Gate = { ok: true } | { ok: false; error: RefereeError };

/** The field must exist, be generated and loaded; with `read` false it must also not be closed. */
export function playable(f: FieldContext, read = false): Gate {
  const status = storedStatus(f);
  if (status === "missing") return fail("missing", "no such game: check list_games (games nobody joins expire after 30 minutes)");
  if (status === "generating") {
    const created = f.store.getMeta<number>("created") ?? Date.now();
    return fail("generating", `the field is still generating (${Math.floor((Date.now() - created) / 1000)} s so far): poll observe until its status is playing`);
  }
  if (status === "failed") return fail("failed", f.store.getMeta<string>("failure") ?? "generation failed");
  if (!f.referee) return fail("failed", `the field could not be loaded: ${f.loadError ?? "unknown error"}`);
  if (!read && f.referee.status === "closed") return fail("closed", closedMessage(f), f.referee.revision);
  return { ok: true };
}

/** Gate of the write path: joins, plays and the close itself. */
export function writeGate(f: FieldContext): Gate {
  return playable(f, false);
}

/** Gate of the close: the field must be loaded; closing a closed field again is allowed (a no-op). */
export function closeGate(f: FieldContext): Gate {
  return playable(f, true);
}

/** Gate of reads that need the referee (observe). */
export function readGate(f: FieldContext): Gate {
  return playable(f, true);
}

/** Why a write is refused on a closed field; for a daily field, where its archive is and what to play instead. */
function closedMessage(f: FieldContext): string {
  const day = f.store.getMeta<string>("day");
  if (day === undefined) return "this field is closed: writes are refused";
  const closedAt = f.store.getMeta<number>("closed_at");
  const when = closedAt !== undefined ? ` at ${new Date(closedAt).toISOString().slice(0, 16).replace("T", " ")} UTC` : "";
  return `the day ${day} is closed${when}: no more writes are accepted. Its archive is (or will shortly be) at /api/archives/day-${day}.json.gz; call list_games for today's field.`;
}
