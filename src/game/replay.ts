import type { Field } from "../engine/types";
import { Referee, type RefereeInit, type RefereeSnapshot } from "../referee";
import { applyLogged } from "../referee/logged-input";
import type { StoredInput } from "./field-store";

/**
 * A snapshot of the referee is taken (in the background, after the answer: field-snapshots.ts)
 * once this many events have been stored since the last one, so a wake-up replays about this many
 * writes at most after restoring it (docs/game.md has the measured costs behind the choice).
 */
export const SNAPSHOT_EVERY = 128;

/** What the referee is built from, apart from the field (from the object's stored meta). */
export type RefereeBase = Omit<RefereeInit, "field">;

/**
 * Rebuilds a field's referee from storage (SPEC §13: restore after eviction). It starts from the
 * newest snapshot when one is given and readable, else from the generated tiles, and is fed every
 * stored input after that point in order with its stored time; grown rings come back at their
 * place in the log with their tiles read from the stored field. (The stored solution already holds
 * later rings' cells; no tile covers them until their ring is replayed, so verdicts are unchanged.)
 * Throws when the replay disagrees with the stored revisions.
 */
export function rebuildReferee(
  field: Field,
  initialTiles: number,
  base: RefereeBase,
  snapshot: { rev: number; data: Uint8Array } | undefined,
  inputsAfter: (rev: number) => Iterable<{ at: number; rev: number; input: StoredInput }>,
): { referee: Referee; fromSnapshot: number | null } {
  const restored = snapshot ? fromSnapshot(field, base, snapshot) : null;
  if (restored && snapshot) {
    try {
      replay(restored, field, inputsAfter(snapshot.rev));
      return { referee: restored, fromSnapshot: snapshot.rev };
    } catch (err) {
      console.error("the log after the referee snapshot does not replay onto it; replaying the whole log", err);
    }
  }
  const referee = new Referee({ ...base, field: { G: field.G, tiles: field.tiles.slice(0, initialTiles), solution: field.solution } });
  replay(referee, field, inputsAfter(0));
  return { referee, fromSnapshot: null };
}

/** The referee of a stored snapshot, or null (logged) when it cannot be read: then the whole log is replayed. */
function fromSnapshot(field: Field, base: RefereeBase, snapshot: { rev: number; data: Uint8Array }): Referee | null {
  try {
    const data = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(snapshot.data)) as RefereeSnapshot;
    const tiles = data?.board?.tiles;
    if (!Number.isSafeInteger(tiles) || tiles > field.tiles.length) throw new Error("the snapshot's tile count does not fit the stored field");
    const referee = Referee.restore({ ...base, field: { G: field.G, tiles: field.tiles.slice(0, tiles), solution: field.solution } }, data);
    if (referee.revision !== snapshot.rev) throw new Error(`the snapshot is at revision ${referee.revision}, stored as ${snapshot.rev}`);
    return referee;
  } catch (err) {
    console.error("the referee snapshot is unreadable; replaying the whole log", err);
    return null;
  }
}

/** Feeds stored inputs to the referee in order, checking each stored revision. */
function replay(referee: Referee, field: Field, inputs: Iterable<{ at: number; rev: number; input: StoredInput }>): void {
  for (const { at, rev, input } of inputs) {
    const result = applyLogged(referee, field, input, at);
    if (!result.ok) throw new Error(`replay diverged at revision ${rev}: ${result.error.message}`);
    if (referee.revision !== rev) throw new Error(`replay diverged: revision ${referee.revision}, stored ${rev}`);
  }
}
