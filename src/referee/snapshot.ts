import type { BoardSnapshot } from "./board";
import type { GroupsSnapshot } from "./groups";
import type { Agent, MachineSnapshot } from "./seats";
import type { PlayStatus } from "./state";
import type { RefereeEvent } from "./types";

/**
 * The referee's whole play state as plain JSON data, so that the Durable Object can restore
 * from the newest snapshot plus the writes after it instead of replaying the whole day.
 * Integers and strings only (no floats); the long per-cell arrays are run-length packed.
 * What the referee is built from (the field, the seed, the rules) is not in it: a snapshot
 * is restored together with the same `RefereeInit`, on the tiles the field had when it was taken.
 */
export interface RefereeSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  gameId: string;
  G: number;
  revision: number;
  status: PlayStatus;
  grown: number;
  /** The `close` event once the field closed (`close()` answers it again). */
  closeEvent: RefereeEvent | null;
  board: BoardSnapshot;
  agents: Agent[];
  machines: MachineSnapshot[];
  groups: GroupsSnapshot;
  /** `stateDigest()` when taken: a restore must reproduce it, so a damaged snapshot is refused. */
  digest: string;
}

/**
 * Format 2 added the per-tile status and per-cell change revisions of scoped conflicts; format 3
 * the agent that last changed each cell (a retract's conflict, SPEC §4.9). A snapshot of an older
 * format is refused, and the Durable Object then replays its whole log once (the next stored
 * write takes a fresh snapshot).
 */
export const SNAPSHOT_FORMAT = "mosaic-referee-snapshot-3";
