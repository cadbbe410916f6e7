import type { Env } from "../env";
import { accountsOf } from "../identity/accounts-api";
import type { AccountRef } from "../spectator";

/** How long a machine's looked-up account is trusted before it is asked again. */
const ACCOUNT_TTL_MS = 60_000;

/**
 * Machines' accounts (SPEC §8.2) for the leaderboard and the analysis: asked of the accounts object
 * at most once a minute per machine, all stale machines in one call. A lookup that fails keeps what
 * was known (or none): the leaderboard is still served.
 */
export class AccountRefs {
  private readonly cache = new Map<string, { account: AccountRef | null; at: number }>();

  constructor(private readonly env: Env) {}

  async of(machineIds: readonly string[]): Promise<Record<string, AccountRef | null>> {
    const now = Date.now();
    const stale = machineIds.filter((id) => {
      const c = this.cache.get(id);
      return !c || now - c.at > ACCOUNT_TTL_MS;
    });
    if (stale.length > 0) {
      try {
        const found = await accountsOf(this.env, stale);
        for (const id of stale) this.cache.set(id, { account: found[id] ?? null, at: now });
      } catch (err) {
        console.error("account lookup failed", err);
      }
    }
    const out: Record<string, AccountRef | null> = {};
    for (const id of machineIds) out[id] = this.cache.get(id)?.account ?? null;
    return out;
  }
}
