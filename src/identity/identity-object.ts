import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

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

export type ClaimResult = { ok: true } | { ok: false; code: "identity"; message: string };
export type SpendResult = ClaimResult | { ok: false; code: "replayed"; message: string };
export type TokenStatus = { status: "current"; machineId: string } | { status: "replaced" | "unknown" };

/** Replaced token hashes kept so a client can be told "replaced" rather than "unknown". */
const REPLACED_KEPT = 8;

export class IdentityObject extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** Tables are created on the first write, so lookups of unknown machines (forged tokens) store nothing. */
  private hasSchema: boolean;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.hasSchema = this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'machines'").toArray().length > 0;
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
   * Mints atomically: claims the key, spends the signed request, marks older tokens replaced and stores
   * the new token's hash. No await inside, so it is one SQLite transaction.
   */
  mintToken(args: { machineId: string; publicKey: string; tokenHash: string; requestDigest: string; expiresAtMs: number; nowMs: number }): SpendResult {
    const spent = this.spend(args.machineId, args.publicKey, args.requestDigest, "auth", args.expiresAtMs, args.nowMs);
    if (!spent.ok) return spent;
    this.sql.exec("UPDATE tokens SET replaced_at = ? WHERE machine_id = ? AND replaced_at IS NULL", args.nowMs, args.machineId);
    this.sql.exec("INSERT INTO tokens (hash, machine_id, created_at) VALUES (?, ?, ?)", args.tokenHash, args.machineId, args.nowMs);
    this.sql.exec(
      `DELETE FROM tokens WHERE replaced_at IS NOT NULL AND hash NOT IN
        (SELECT hash FROM tokens WHERE replaced_at IS NOT NULL ORDER BY replaced_at DESC, created_at DESC LIMIT ?)`,
      REPLACED_KEPT,
    );
    return { ok: true };
  }

  resolveToken(tokenHash: string): TokenStatus {
    if (!this.hasSchema) return { status: "unknown" };
    const row = this.sql
      .exec<{ machine_id: string; replaced_at: number | null }>("SELECT machine_id, replaced_at FROM tokens WHERE hash = ?", tokenHash)
      .toArray()[0];
    if (!row) return { status: "unknown" };
    if (row.replaced_at !== null) return { status: "replaced" };
    return { status: "current", machineId: row.machine_id };
  }

  /** Claims the key and spends a join proof; a proof already spent is refused. */
  consumeProof(args: { machineId: string; publicKey: string; proofDigest: string; expiresAtMs: number; nowMs: number }): SpendResult {
    return this.spend(args.machineId, args.publicKey, args.proofDigest, "join", args.expiresAtMs, args.nowMs);
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

  private spend(machineId: string, publicKey: string, digest: string, kind: string, expiresAtMs: number, nowMs: number): SpendResult {
    const claim = this.claimKey(machineId, publicKey, nowMs);
    if (!claim.ok) return claim;
    // Expired records can never match again (their timestamps are outside the window): drop them.
    this.sql.exec("DELETE FROM used_signatures WHERE expires_at < ?", nowMs);
    const seen = this.sql.exec("SELECT 1 FROM used_signatures WHERE digest = ?", digest).toArray().length > 0;
    if (seen) {
      const what = kind === "join" ? "replayed proof: this join proof was already used; sign a new one (a proof for the same game, key, minute and session is always the same, so sign for the next minute or use another session)" : "replayed request: this signed request was already used; sign a fresh one (a new ts)";
      return { ok: false, code: "replayed", message: what };
    }
    this.sql.exec("INSERT INTO used_signatures (digest, kind, expires_at) VALUES (?, ?, ?)", digest, kind, expiresAtMs);
    return { ok: true };
  }
}
