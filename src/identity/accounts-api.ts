// Worker-side reads of accounts (SPEC §8.2) for the rest of the service: leaderboards, history, routes.
import type { Env } from "../env";
import { ACCOUNTS_OBJECT, type AccountRef } from "./account-book";
import { ACCOUNT_ID_RE } from "./account-messages";
import { displayNames } from "./api";
import { MACHINE_ID_RE } from "../referee/agent-id";
import { identityStub } from "./stub";

export type { AccountRef } from "./account-book";

/** The public view of an account: its name and its machines with their display names. */
export interface AccountDocument {
  id: string;
  name: string;
  created_at: string;
  machines: Array<{ machine_id: string; name: string | null; joined_at: string }>;
}

/**
 * Each machine's account now (`{id, name}`), or null when it is in none: one call to the accounts
 * object for all of them. Ids that are not machine ids map to null without being looked up.
 */
export async function accountsOf(env: Env, machineIds: string[]): Promise<Record<string, AccountRef | null>> {
  const valid = [...new Set(machineIds.filter((id) => MACHINE_ID_RE.test(id)))];
  const found: Record<string, AccountRef | null> = valid.length ? await identityStub(env, ACCOUNTS_OBJECT).accountsOf(valid) : {};
  const out: Record<string, AccountRef | null> = {};
  for (const id of machineIds) out[id] = found[id] ?? null;
  return out;
}

/** The account's public document, or null when there is none (a malformed id included). */
export async function accountDocument(env: Env, accountId: string): Promise<AccountDocument | null> {
  if (!ACCOUNT_ID_RE.test(accountId)) return null;
  const view = await identityStub(env, ACCOUNTS_OBJECT).accountView(accountId);
  if (!view) return null;
  const names = await displayNames(env, view.machines.map((m) => m.machine_id));
  return {
    id: view.id,
    name: view.name,
    created_at: new Date(view.created_at).toISOString(),
    machines: view.machines.map((m) => ({ machine_id: m.machine_id, name: names.get(m.machine_id) ?? null, joined_at: new Date(m.joined_at).toISOString() })),
  };
}
