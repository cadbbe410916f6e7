import type { Env } from "../env";
import { accountsOf as identityAccountsOf } from "../identity/accounts-api";

/**
 * The account each machine belongs to (SPEC §8.2), asked when a day is recorded: the one seam
 * between the history and the identity object's accounts. A lookup that fails answers null for
 * every machine, so an unreachable identity object never fails the recording.
 */
export async function accountsOf(env: Env, machineIds: readonly string[]): Promise<Map<string, string | null>> {
  try {
    const found = await identityAccountsOf(env, [...machineIds]);
    return new Map(machineIds.map((id) => [id, found[id]?.id ?? null]));
  } catch (error) {
    console.warn(JSON.stringify({ at: "history.accountsOf", error: String(error) }));
    return new Map(machineIds.map((id) => [id, null]));
  }
}
