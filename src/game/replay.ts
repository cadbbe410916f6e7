import type { Field } from "../engine/types";
import type { Referee } from "../referee";
import type { StoredInput } from "./field-store";

/**
 * Rebuilds a field's referee from storage (SPEC §13: restore after eviction). The referee starts
 * from the generated tiles and is fed every stored input in order with its stored time; grown
 * rings come back at their place in the log with their tiles read from the stored field. (The
 * stored solution already holds later rings' cells; no tile covers them until their ring is
 * replayed, so verdicts are unchanged.) Throws when the replay disagrees with the stored revisions.
 */
export function replay(
  field: Field,
  initialTiles: number,
  newReferee: (field: Field) => Referee,
  inputs: Iterable<{ at: number; rev: number; input: StoredInput }>,
): { referee: Referee; revealed: number } {
  const referee = newReferee({ G: field.G, tiles: field.tiles.slice(0, initialTiles), solution: field.solution });
  let revealed = 0;
  for (const { at, rev, input } of inputs) {
    if (input.type === "close") {
      referee.close(at);
    } else if (input.type === "grow") {
      const tiles = field.tiles.slice(input.first, input.first + input.count);
      const result = referee.grow({ ring: input.ring, tiles, solution: field.solution }, at);
      if (!result.ok) throw new Error(`replay diverged at revision ${rev}: ${result.error.message}`);
    } else {
      const result = referee.apply(input, at);
      if (!result.ok) throw new Error(`replay diverged at revision ${rev}: ${result.error.message}`);
      if (input.type === "reveal") revealed++;
    }
    if (referee.revision !== rev) throw new Error(`replay diverged: revision ${referee.revision}, stored ${rev}`);
  }
  return { referee, revealed };
}
