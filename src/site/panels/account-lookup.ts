import { getJson } from "../api";
import type { AccountRef } from "../../spectator";

/** How long a machine's account is trusted before it is asked again (the server caches a minute too). */
const TTL_MS = 60_000;
/** Machines per `GET /api/accounts?machine=…` (the route's limit). */
const BATCH = 200;

/**
 * The leaderboard's account column (SPEC §8.2): the live and replay pages rank machines from the
 * model, which knows nothing of accounts, so the panel asks `/api/accounts?machine=…` for the
 * machines it shows, at most once a minute each, and fills the column when the answer comes.
 */
export class AccountLookup {
  private readonly known = new Map<string, { account: AccountRef | null; at: number }>();
  private readonly pending = new Set<string>();

  constructor(private readonly onChange: () => void) {}

  get(machine: string): AccountRef | null {
    return this.known.get(machine)?.account ?? null;
  }

  /** Asks about the machines not known (or known too long ago); `onChange` runs when an answer changes something. */
  want(machines: readonly string[]): void {
    const now = Date.now();
    const ask = machines.filter((m) => !this.pending.has(m) && now - (this.known.get(m)?.at ?? -Infinity) > TTL_MS);
    for (let i = 0; i < ask.length; i += BATCH) void this.fetchBatch(ask.slice(i, i + BATCH));
  }

  private async fetchBatch(machines: string[]): Promise<void> {
    for (const m of machines) this.pending.add(m);
    try {
      const query = machines.map((m) => `machine=${encodeURIComponent(m)}`).join("&");
      const body = await getJson<{ accounts: Record<string, AccountRef | null> }>(`/api/accounts?${query}`);
      let changed = false;
      const at = Date.now();
      for (const m of machines) {
        const account = body.accounts[m] ?? null;
        if (JSON.stringify(account) !== JSON.stringify(this.known.get(m)?.account ?? null)) changed = true;
        this.known.set(m, { account, at });
      }
      if (changed) this.onChange();
    } catch {
      // No column is better than no leaderboard: asked again after the TTL.
      const at = Date.now();
      for (const m of machines) if (!this.known.has(m)) this.known.set(m, { account: null, at });
    } finally {
      for (const m of machines) this.pending.delete(m);
    }
  }
}
