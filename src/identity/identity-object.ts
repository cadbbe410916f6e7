import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { AccountBook, type AccountRef, type AccountView, type BookResult } from "./account-book";
import { SPENT_PROOF_MESSAGE } from "./messages";
import { VOUCH_TTL_MS, type Vouch } from "./vouched-tokens";
import { accessVouch, addAccess, dropAccess } from "./oauth-access";
import { judgeRefresh, recordRefresh, type RefreshVerdict } from "./oauth-refresh";
import { addGrant, completeSignIn, dropGrant, grantVouch, holdsOnlySignIns, openSignIn, pageView, readSignIn, sweepSignIns, type PageView, type SignInClaim, type SignInRecord, type SignInState } from "./oauth-store";

/**
 * Identity of one machine (SPEC §8): its first-seen key, display name, hashed bearer tokens and the
 * single-use signatures it has spent. One instance per machine id (`env.IDENTITY.getByName(machineId)`):
 * every check a request needs concerns exactly one machine, so sharding by machine id makes each check
 * a single serialized, atomic SQLite transaction without a global hot spot (every /mcp request resolves
 * its bearer token here).
 *
 * The object trusts its caller (the Worker) to have verified signatures; it owns the state that makes
 * them meaningful: first key wins, tokens are replaced, proofs and signed requests are spent once.
 * Tokens arrive only as SHA-256 hashes, so nothing stored here can be turned back into a token.
 */

/** A field object's stub, told of replaced and revoked tokens. */
type FieldStub = ReturnType<Env["FIELDS"]["getByName"]>;

export type ClaimResult = { ok: true } | { ok: false; code: "identity"; message: string };
export type SpendResult = ClaimResult | { ok: false; code: "replayed"; message: string };

/** Replaced token hashes kept so a client can be told "replaced" rather than "unknown". */
const REPLACED_KEPT = 8;

/** Fields that asked for a vouch longer ago than their trust lasts (plus clock slack) need no word of a new token. */
const WATCH_MS = VOUCH_TTL_MS + 60_000;
/** Attempts to tell one field of a new token before the mint gives up with an error. */
const REVOKE_ATTEMPTS = 3;

export class IdentityObject extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** Tables are created on the first write, so lookups of unknown machines (forged tokens) store nothing. */
  private hasSchema: boolean;
  /** Whether the table of fields holding a vouch exists (created by the first vouch; older objects lack it). */
  private hasWatchers: boolean;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    const tables = new Set(this.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").toArray().map((r) => r.name));
    this.hasSchema = tables.has("machines");
    this.hasWatchers = tables.has("token_watchers");
  }

  private ensureSchema(): void {
    if (this.hasSchema) return;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS machines (
      id TEXT PRIMARY KEY, public_key TEXT NOT NULL, name TEXT, name_ts INTEGER, created_at INTEGER NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS tokens (
      hash TEXT PRIMARY KEY, machine_id TEXT NOT NULL, created_at INTEGER NOT NULL, replaced_at INTEGER)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS used_signatures (
      digest TEXT PRIMARY KEY, kind TEXT NOT NULL, expires_at INTEGER NOT NULL)`);
    this.hasSchema = true;
  }

  /** Records `publicKey` as the machine's key if none is recorded; refuses a different one. */
  claimKey(machineId: string, publicKey: string, nowMs: number): ClaimResult {
    this.ensureSchema();
    const row = this.sql.exec<{ public_key: string }>("SELECT public_key FROM machines WHERE id = ?", machineId).toArray()[0];
    if (!row) {
      this.sql.exec("INSERT INTO machines (id, public_key, created_at) VALUES (?, ?, ?)", machineId, publicKey, nowMs);
      return { ok: true };
    }
    if (row.public_key !== publicKey) {
      return { ok: false, code: "identity", message: `key mismatch: machine ${machineId} is already registered with a different public key` };
    }
    return { ok: true };
  }

  /**
   * Mints: claims the key, spends the signed request, marks older tokens replaced and stores the new
   * token's hash, all before the first await, so as one SQLite transaction. Then every field that
   * holds a vouch for this machine is told that earlier tokens are replaced, before the mint is
   * answered (vouched-tokens.ts); when a field cannot be told, the mint fails and can be repeated.
   */
  async mintToken(args: { machineId: string; publicKey: string; tokenHash: string; requestDigest: string; expiresAtMs: number; nowMs: number }): Promise<SpendResult> {
    const spent = this.spend(args.machineId, args.publicKey, args.requestDigest, "auth", args.expiresAtMs, args.nowMs);
    if (!spent.ok) return spent;
    this.sql.exec("UPDATE tokens SET replaced_at = ? WHERE machine_id = ? AND replaced_at IS NULL", args.nowMs, args.machineId);
    this.sql.exec("INSERT INTO tokens (hash, machine_id, created_at) VALUES (?, ?, ?)", args.tokenHash, args.machineId, args.nowMs);
    this.sql.exec(
      `DELETE FROM tokens WHERE replaced_at IS NOT NULL AND hash NOT IN
        (SELECT hash FROM tokens WHERE replaced_at IS NOT NULL ORDER BY replaced_at DESC, created_at DESC LIMIT ?)`,
      REPLACED_KEPT,
    );
    const epoch = this.sql.exec<{ rowid: number }>("SELECT rowid FROM tokens WHERE hash = ?", args.tokenHash).one().rowid;
    await this.tellWatchers(args.machineId, epoch);
    return { ok: true };
  }

  /**
   * `resolveToken` for a field that will trust the answer for a while: the field is noted, so that
   * a new token minted meanwhile is announced to it. The epoch is the token's row id, which grows
   * with every mint (the newest row is never deleted).
   */
  vouch(tokenHash: string, field: string): Vouch {
    const vouch = this.resolveToken(tokenHash);
    if (vouch.status !== "current") return vouch;
    if (!this.hasWatchers) {
      this.sql.exec("CREATE TABLE IF NOT EXISTS token_watchers (field TEXT PRIMARY KEY, vouched_at INTEGER NOT NULL)");
      this.hasWatchers = true;
    }
    this.sql.exec("INSERT INTO token_watchers (field, vouched_at) VALUES (?, ?) ON CONFLICT (field) DO UPDATE SET vouched_at = excluded.vouched_at", field, Date.now());
    return vouch;
  }

  /** What this machine's object holds of a token: current (with its epoch), replaced, or unknown. */
  resolveToken(tokenHash: string): Vouch {
    if (!this.hasSchema) return { status: "unknown" };
    const row = this.sql
      .exec<{ rowid: number; machine_id: string; replaced_at: number | null }>("SELECT rowid, machine_id, replaced_at FROM tokens WHERE hash = ?", tokenHash)
      .toArray()[0];
    // Not a bearer token: perhaps the secret of one of the machine's OAuth grants, or one of
    // their access tokens (SPEC §8.1).
    if (!row) {
      const grant = grantVouch(this.sql, tokenHash);
      return grant.status === "unknown" ? accessVouch(this.sql, tokenHash, Date.now()) : grant;
    }
    if (row.replaced_at !== null) return { status: "replaced" };
    return { status: "current", machineId: row.machine_id, epoch: row.rowid };
  }

  /** Tells the fields that may hold a vouch for an earlier token that tokens before `epoch` are replaced. */
  private tellWatchers(machineId: string, epoch: number): Promise<void> {
    return this.tellFields("the new token", (field) => field.revokeTokens(machineId, epoch));
  }

  /** Tells every field that may hold a vouch of this machine's, each tried a few times. */
  private async tellFields(what: string, tell: (field: FieldStub) => Promise<void>): Promise<void> {
    if (!this.hasWatchers) return;
    this.sql.exec("DELETE FROM token_watchers WHERE vouched_at < ?", Date.now() - WATCH_MS);
    const fields = this.sql.exec<{ field: string }>("SELECT field FROM token_watchers").toArray().map((r) => r.field);
    await Promise.all(fields.map((field) => this.tellField(field, what, tell)));
  }

  private async tellField(field: string, what: string, tell: (field: FieldStub) => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        // A fresh stub per attempt: a stub that threw may be broken for good.
        await tell(this.env.FIELDS.getByName(field));
        return;
      } catch (err) {
        if (attempt >= REVOKE_ATTEMPTS) throw new Error(`field ${field} could not be told of ${what}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /** Claims the key and spends a join proof; a proof already spent is refused. */
  consumeProof(args: { machineId: string; publicKey: string; proofDigest: string; expiresAtMs: number; nowMs: number }): SpendResult {
    return this.spend(args.machineId, args.publicKey, args.proofDigest, "join", args.expiresAtMs, args.nowMs);
  }

  /** Whether a join proof was already spent (a read: creates nothing, spends nothing). */
  proofSpent(proofDigest: string, nowMs: number): boolean {
    if (!this.hasSchema) return false;
    return this.sql.exec("SELECT 1 FROM used_signatures WHERE digest = ? AND kind = 'join' AND expires_at >= ?", proofDigest, nowMs).toArray().length > 0;
  }

  /** Sets the display name from a signed request; requests older than the last applied one are refused. */
  setName(args: { machineId: string; publicKey: string; name: string; ts: number; requestDigest: string; expiresAtMs: number; nowMs: number }):
    | SpendResult
    | { ok: false; code: "stale"; message: string } {
    this.ensureSchema();
    const current = this.sql.exec<{ name_ts: number | null }>("SELECT name_ts FROM machines WHERE id = ?", args.machineId).toArray()[0];
    if (current && current.name_ts !== null && args.ts <= current.name_ts) {
      return { ok: false, code: "stale", message: `stale timestamp: a name request signed at ts ${current.name_ts} was already applied; sign a newer one` };
    }
    const spent = this.spend(args.machineId, args.publicKey, args.requestDigest, "name", args.expiresAtMs, args.nowMs);
    if (!spent.ok) return spent;
    this.sql.exec("UPDATE machines SET name = ?, name_ts = ? WHERE id = ?", args.name, args.ts, args.machineId);
    return { ok: true };
  }

  getName(machineId: string): string | null {
    if (!this.hasSchema) return null;
    const row = this.sql.exec<{ name: string | null }>("SELECT name FROM machines WHERE id = ?", machineId).toArray()[0];
    return row?.name ?? null;
  }

  /** Public facts about the machine, or null when it was never seen. */
  describe(machineId: string): { machineId: string; publicKey: string; name: string | null; createdAt: number } | null {
    if (!this.hasSchema) return null;
    const row = this.sql
      .exec<{ public_key: string; name: string | null; created_at: number }>("SELECT public_key, name, created_at FROM machines WHERE id = ?", machineId)
      .toArray()[0];
    return row ? { machineId, publicKey: row.public_key, name: row.name, createdAt: row.created_at } : null;
  }

  // Accounts (SPEC §8.2): only the object named ACCOUNTS_OBJECT holds them (account-book.ts).
  private book?: AccountBook;
  private get accounts(): AccountBook {
    return (this.book ??= new AccountBook(this.sql));
  }
  accountCreate(args: Parameters<AccountBook["create"]>[0]): BookResult {
    return this.accounts.create(args);
  }
  accountJoin(args: Parameters<AccountBook["join"]>[0]): BookResult {
    return this.accounts.join(args);
  }
  accountUnlink(args: Parameters<AccountBook["unlink"]>[0]): BookResult {
    return this.accounts.unlink(args);
  }
  accountRename(args: Parameters<AccountBook["rename"]>[0]): BookResult {
    return this.accounts.rename(args);
  }
  accountView(accountId: string): AccountView | null {
    return this.accounts.view(accountId);
  }
  /** Each machine's account, or null (the seam for leaderboards and history: use `accountsOf` of accounts-api.ts). */
  accountsOf(machineIds: string[]): Record<string, AccountRef | null> {
    return this.accounts.accountsOf(machineIds);
  }

  // Signing in from hosted clients (SPEC §8.1); the SQL lives in oauth-store.ts.

  /** On a sign-in request's own object: keeps the pending consent until it expires, when the alarm deletes it. */
  async openSignIn(record: SignInRecord): Promise<void> {
    sweepSignIns(this.sql, record.createdAt);
    openSignIn(this.sql, record);
    await this.ctx.storage.setAlarm(record.expiresAt);
  }

  /** Only sign-in request objects set alarms: expired requests go, and an object left empty deletes itself. */
  override async alarm(): Promise<void> {
    const next = sweepSignIns(this.sql, Date.now());
    if (next !== null) await this.ctx.storage.setAlarm(next);
    else if (holdsOnlySignIns(this.sql)) await this.ctx.storage.deleteAll();
  }

  signInState(id: string, nowMs: number): SignInState | null {
    return readSignIn(this.sql, id, nowMs);
  }

  /** Takes the approval once, with its redirect: a replayed or late one is refused. */
  completeSignIn(id: string, machineId: string, redirectTo: string, delivered: boolean, nowMs: number): SignInClaim {
    return completeSignIn(this.sql, id, machineId, redirectTo, delivered, nowMs);
  }

  /** What the consent page holding the secret learns; the redirect is handed out once. */
  signInPageView(id: string, secretHash: string, nowMs: number): PageView {
    return pageView(this.sql, id, secretHash, nowMs);
  }

  /** On a machine's object: a grant whose secret now proves the machine, as its bearer token does. */
  addGrant(grant: { ref: string; machineId: string; hash: string; nowMs: number }): void {
    addGrant(this.sql, grant);
  }

  dropGrant(ref: string): boolean {
    return dropGrant(this.sql, ref);
  }

  /** Records an access token the provider issued for one of this machine's grants (its hash only). */
  addAccessToken(token: { hash: string; grantId: string; machineId: string; expiresAtMs: number; nowMs: number }): boolean {
    return addAccess(this.sql, token);
  }

  /** What a presented refresh token is (oauth-refresh.ts): current, a retry within the window, reused, or unknown. */
  judgeRefresh(hash: string, nowMs: number): RefreshVerdict {
    return judgeRefresh(this.sql, hash, nowMs);
  }

  /** Records a refresh token the provider issued (its hash only); the grant's earlier ones are replaced. */
  recordRefresh(token: { grantId: string; hash: string; presentedHash: string | null; nowMs: number }): boolean {
    return recordRefresh(this.sql, token);
  }

  /**
   * Forgets a revoked grant's access tokens (or one revoked token) and tells every field that may
   * hold a vouch for them before answering, as a mint does: the next call with them is refused.
   */
  async revokeAccess(machineId: string, what: { grantId: string } | { hash: string }): Promise<number> {
    const { hashes, untilMs } = dropAccess(this.sql, what, Date.now());
    if (hashes.length > 0) await this.tellFields("a revoked sign-in", (field) => field.forgetTokens(machineId, hashes, untilMs));
    return hashes.length;
  }

  /** Spends a signed request of another kind (listing or revoking grants): first key wins, once only. */
  spendRequest(args: { machineId: string; publicKey: string; kind: string; requestDigest: string; expiresAtMs: number; nowMs: number }): SpendResult {
    return this.spend(args.machineId, args.publicKey, args.requestDigest, args.kind, args.expiresAtMs, args.nowMs);
  }

  private spend(machineId: string, publicKey: string, digest: string, kind: string, expiresAtMs: number, nowMs: number): SpendResult {
    const claim = this.claimKey(machineId, publicKey, nowMs);
    if (!claim.ok) return claim;
    // Expired records can never match again (their timestamps are outside the window): drop them.
    this.sql.exec("DELETE FROM used_signatures WHERE expires_at < ?", nowMs);
    const seen = this.sql.exec("SELECT 1 FROM used_signatures WHERE digest = ?", digest).toArray().length > 0;
    if (seen) {
      const what = kind === "join" ? SPENT_PROOF_MESSAGE : "replayed request: this signed request was already used; sign a fresh one (a new ts)";
      return { ok: false, code: "replayed", message: what };
    }
    this.sql.exec("INSERT INTO used_signatures (digest, kind, expires_at) VALUES (?, ?, ?)", digest, kind, expiresAtMs);
    return { ok: true };
  }
}
