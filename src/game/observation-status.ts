/**
 * The observation of a field that cannot be played (SPEC §4.7, §6): still generating, or failed.
 * Not an error: the reference's poll loop (`observe {game_id}` until `status` is `playing`) reads
 * `observation.status` and keeps polling or gives up. `seconds` counts from the field's creation.
 */
export type StatusObservation = {
  game_id: string;
  status: "generating" | "failed";
  seconds: number;
  revision: number;
  /** Why a failed field failed. */
  error?: string;
  /** Generation progress (steps done of the planned total) while generating. */
  progress?: { done: number; total: number };
};

export function statusObservation(args: {
  gameId: string;
  status: "generating" | "failed";
  createdMs: number;
  nowMs: number;
  revision: number;
  error?: string;
  progress?: { done: number; total: number };
}): { observation: StatusObservation } {
  const observation: StatusObservation = {
    game_id: args.gameId,
    status: args.status,
    seconds: Math.max(0, Math.floor((args.nowMs - args.createdMs) / 1000)),
    revision: args.revision,
  };
  if (args.error !== undefined) observation.error = args.error;
  if (args.progress !== undefined) observation.progress = { ...args.progress };
  return { observation };
}
