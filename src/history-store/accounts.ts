import type { Env } from "../env";

/**
 * The account each machine belongs to (SPEC §8.2), asked when a day is recorded. The one seam
 * between the history and the identity object's accounts: until accounts exist, every machine
 * has none. A lookup that fails must answer null for that machine, never fail the recording.
 */
export async function accountsOf(_env: Env, machineIds: readonly string[]): Promise<Map<string, string | null>> {
  return new Map(machineIds.map((id) => [id, null]));
}
