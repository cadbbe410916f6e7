// The accounts' storage (SPEC §8.2), held by one identity object, `env.IDENTITY.getByName(ACCOUNTS_OBJECT)`.
//
// One object for every account: "a machine is in at most one account" is then a primary key on one
// table, and every link is one SQLite transaction with no cross-object protocol. Account changes are
// rare and never on the path of a tool call; the leaderboard reads accounts through a per-field
// cache (src/live/account-refs.ts), so this object sees about one read per field and minute.
// Like the per-machine objects it trusts its caller to have verified signatures; it owns what makes
// them meaningful: membership, the single use of signed requests and invitations.

import type { AccountRef } from "../spectator/types";

/** The name of the identity object that holds the accounts (machine ids start with `m-`, so no machine has it). */
export const ACCOUNTS_OBJECT = "accounts";

export type { AccountRef };

export interface AccountView extends AccountRef {
  created_at: number;
  machines: Array<{ machine_id: string; joined_at: number }>;
}

export type BookRefusalCode = "replayed" | "in_account" | "not_member" | "missing" | "stale";
export type BookResult = { ok: true; account: AccountRef } | { ok: false; code: BookRefusalCode; message: string };

/** One signed request (or invitation) as the book spends it: its digest and when it could no longer verify. */
export interface Spendable {
  digest: string;
  expiresAtMs: number;
}

const REPLAYED = "replayed request: this signed request was already used; sign a fresh one (a new ts)";

export class AccountBook {
  private hasSchema: boolean;

  constructor(private readonly sql: SqlStorage) {
    this.hasSchema = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'accounts'").toArray().length > 0;
  }

  private ensureSchema(): void {
    if (this.hasSchema) return;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS accounts (
      id TEXT PRIMARY KEY, name TEXT NOT NULL, name_ts INTEGER NOT NULL, created_by TEXT NOT NULL, created_at INTEGER NOT NULL)`);
    // machine_id is the key: a machine is in at most one account.
    this.sql.exec(`CREATE TABLE IF NOT EXISTS account_members (
      machine_id TEXT PRIMARY KEY, account_id TEXT NOT NULL, invited_by TEXT, joined_at INTEGER NOT NULL)`);
    this.sql.exec("CREATE INDEX IF NOT EXISTS account_members_by_account ON account_members (account_id)");
    this.sql.exec("CREATE TABLE IF NOT EXISTS account_signatures (digest TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)");
    this.hasSchema = true;
  }

  create(args: { accountId: string; name: string; ts: number; machineId: string; request: Spendable; nowMs: number }): BookResult {
    this.ensureSchema();
    const replayed = this.replayed([args.request], args.nowMs);
    if (replayed) return replayed;
    const inAccount = this.refuseIfMember(args.machineId);
    if (inAccount) return inAccount;
    this.sql.exec("INSERT INTO accounts (id, name, name_ts, created_by, created_at) VALUES (?, ?, ?, ?, ?)", args.accountId, args.name, args.ts, args.machineId, args.nowMs);
    this.sql.exec("INSERT INTO account_members (machine_id, account_id, joined_at) VALUES (?, ?, ?)", args.machineId, args.accountId, args.nowMs);
    this.spend([args.request]);
    return { ok: true, account: { id: args.accountId, name: args.name } };
  }

  /** Links `joiner` to the account: the invitation's signer must be a member now, and each signature is spent once. */
  join(args: { accountId: string; inviter: string; joiner: string; invitation: Spendable; request: Spendable; nowMs: number }): BookResult {
    this.ensureSchema();
    const replayed = this.replayed([args.request], args.nowMs);
    if (replayed) return replayed;
    if (this.replayed([args.invitation], args.nowMs)) {
      return { ok: false, code: "replayed", message: "replayed invitation: this invitation was already accepted once; ask a member for a new one ('account invite')" };
    }
    const account = this.ref(args.accountId);
    if (!account) return missing(args.accountId);
    if (this.accountOf(args.inviter) !== args.accountId) {
      return { ok: false, code: "not_member", message: `invitation refused: its signer ${args.inviter} is not a member of ${args.accountId} (a forged invitation, or its signer left); only a member can invite` };
    }
    const inAccount = this.refuseIfMember(args.joiner);
    if (inAccount) return inAccount;
    this.sql.exec("INSERT INTO account_members (machine_id, account_id, invited_by, joined_at) VALUES (?, ?, ?, ?)", args.joiner, args.accountId, args.inviter, args.nowMs);
    this.spend([args.request, args.invitation]);
    return { ok: true, account };
  }

  /** Unlinks `machineId`, on a request signed by that machine or by another member of the account. */
  unlink(args: { accountId: string; signer: string; machineId: string; request: Spendable; nowMs: number }): BookResult {
    this.ensureSchema();
    const replayed = this.replayed([args.request], args.nowMs);
    if (replayed) return replayed;
    const account = this.ref(args.accountId);
    if (!account) return missing(args.accountId);
    if (this.accountOf(args.machineId) !== args.accountId) {
      return { ok: false, code: "not_member", message: `machine ${args.machineId} is not in account ${args.accountId}` };
    }
    if (args.signer !== args.machineId && this.accountOf(args.signer) !== args.accountId) {
      return { ok: false, code: "not_member", message: `the signer ${args.signer} is neither ${args.machineId} nor a member of ${args.accountId}` };
    }
    this.sql.exec("DELETE FROM account_members WHERE machine_id = ?", args.machineId);
    this.spend([args.request]);
    return { ok: true, account };
  }

  /** Renames the account on a member's request; a request older than the last applied name is refused. */
  rename(args: { accountId: string; signer: string; name: string; ts: number; request: Spendable; nowMs: number }): BookResult {
    this.ensureSchema();
    const replayed = this.replayed([args.request], args.nowMs);
    if (replayed) return replayed;
    const row = this.sql.exec<{ name_ts: number }>("SELECT name_ts FROM accounts WHERE id = ?", args.accountId).toArray()[0];
    if (!row) return missing(args.accountId);
    if (this.accountOf(args.signer) !== args.accountId) return { ok: false, code: "not_member", message: `the signer ${args.signer} is not a member of ${args.accountId}` };
    if (args.ts <= row.name_ts) return { ok: false, code: "stale", message: `stale timestamp: a name signed at ts ${row.name_ts} was already applied; sign a newer one` };
    this.sql.exec("UPDATE accounts SET name = ?, name_ts = ? WHERE id = ?", args.name, args.ts, args.accountId);
    this.spend([args.request]);
    return { ok: true, account: { id: args.accountId, name: args.name } };
  }

  /** The account and its machines (oldest member first), or null when there is no such account. */
  view(accountId: string): AccountView | null {
    if (!this.hasSchema) return null;
    const row = this.sql.exec<{ name: string; created_at: number }>("SELECT name, created_at FROM accounts WHERE id = ?", accountId).toArray()[0];
    if (!row) return null;
    const machines = this.sql
      .exec<{ machine_id: string; joined_at: number }>("SELECT machine_id, joined_at FROM account_members WHERE account_id = ? ORDER BY joined_at, machine_id", accountId)
      .toArray()
      .map((m) => ({ machine_id: m.machine_id, joined_at: m.joined_at }));
    return { id: accountId, name: row.name, created_at: row.created_at, machines };
  }

  /** Each machine's account now, or null: one indexed lookup per machine. */
  accountsOf(machineIds: readonly string[]): Record<string, AccountRef | null> {
    const out: Record<string, AccountRef | null> = {};
    for (const id of machineIds) {
      if (!this.hasSchema) {
        out[id] = null;
        continue;
      }
      const row = this.sql
        .exec<{ id: string; name: string }>("SELECT a.id, a.name FROM account_members m JOIN accounts a ON a.id = m.account_id WHERE m.machine_id = ?", id)
        .toArray()[0];
      out[id] = row ? { id: row.id, name: row.name } : null;
    }
    return out;
  }

  private accountOf(machineId: string): string | null {
    return this.sql.exec<{ account_id: string }>("SELECT account_id FROM account_members WHERE machine_id = ?", machineId).toArray()[0]?.account_id ?? null;
  }

  private ref(accountId: string): AccountRef | null {
    const row = this.sql.exec<{ name: string }>("SELECT name FROM accounts WHERE id = ?", accountId).toArray()[0];
    return row ? { id: accountId, name: row.name } : null;
  }

  private refuseIfMember(machineId: string): BookResult | null {
    const current = this.accountOf(machineId);
    if (current === null) return null;
    return {
      ok: false,
      code: "in_account",
      message: `machine ${machineId} is already in account ${current}; a machine is in one account at a time, so unlink it first ('account unlink')`,
    };
  }

  /** A refusal when any of the signatures was spent; expired records are swept first (they could never verify again). */
  private replayed(items: readonly Spendable[], nowMs: number): BookResult | null {
    this.sql.exec("DELETE FROM account_signatures WHERE expires_at < ?", nowMs);
    for (const item of items) {
      if (this.sql.exec("SELECT 1 FROM account_signatures WHERE digest = ?", item.digest).toArray().length > 0) return { ok: false, code: "replayed", message: REPLAYED };
    }
    return null;
  }

  private spend(items: readonly Spendable[]): void {
    for (const item of items) this.sql.exec("INSERT INTO account_signatures (digest, expires_at) VALUES (?, ?)", item.digest, item.expiresAtMs);
  }
}

function missing(accountId: string): BookResult {
  return { ok: false, code: "missing", message: `no account ${accountId} exists here` };
}
