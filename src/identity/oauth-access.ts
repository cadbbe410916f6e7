// A machine's OAuth access tokens as its identity object records them (SPEC §8.1): the hash of
// each token the provider issued for one of its grants, with the grant and the expiry, so that a
// field proves a signed-in call by the same vouch as a bearer token, without the provider's KV
// record. Plain SQL over the object's storage; the object keeps thin methods.
import { dropRefresh } from "./oauth-refresh";
import type { Vouch } from "./vouched-tokens";

/** A revoked grant is remembered this long, so that a refresh crossing the revocation records nothing. */
const REVOKED_KEPT_MS = 24 * 3_600_000;

function ensureAccess(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS oauth_access (hash TEXT PRIMARY KEY, grant_id TEXT NOT NULL, machine_id TEXT NOT NULL, expires_at INTEGER NOT NULL)");
  sql.exec("CREATE TABLE IF NOT EXISTS oauth_revoked (grant_id TEXT PRIMARY KEY, revoked_at INTEGER NOT NULL)");
}

function hasAccess(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'oauth_access'").toArray().length > 0;
}

/** The newest bearer token's epoch (0 without one): a mint then drops the vouch, which is given again. */
export function newestEpoch(sql: SqlStorage): number {
  const hasTokens = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tokens'").toArray().length > 0;
  return hasTokens ? (sql.exec<{ epoch: number | null }>("SELECT MAX(rowid) AS epoch FROM tokens").one().epoch ?? 0) : 0;
}

/** Records an issued access token; false (nothing kept) when its grant was revoked meanwhile. */
export function addAccess(sql: SqlStorage, token: { hash: string; grantId: string; machineId: string; expiresAtMs: number; nowMs: number }): boolean {
  ensureAccess(sql);
  if (sql.exec("SELECT 1 FROM oauth_revoked WHERE grant_id = ?", token.grantId).toArray().length > 0) return false;
  // Expired rows can never vouch again.
  sql.exec("DELETE FROM oauth_access WHERE expires_at <= ?", token.nowMs);
  sql.exec(
    "INSERT OR REPLACE INTO oauth_access (hash, grant_id, machine_id, expires_at) VALUES (?, ?, ?, ?)",
    token.hash,
    token.grantId,
    token.machineId,
    token.expiresAtMs,
  );
  return true;
}

/** The vouch of an access token's hash: current until it expires, else unknown. */
export function accessVouch(sql: SqlStorage, hash: string, nowMs: number): Vouch {
  if (!hasAccess(sql)) return { status: "unknown" };
  const row = sql.exec<{ machine_id: string; expires_at: number }>("SELECT machine_id, expires_at FROM oauth_access WHERE hash = ?", hash).toArray()[0];
  if (!row || row.expires_at <= nowMs) return { status: "unknown" };
  return { status: "current", machineId: row.machine_id, epoch: newestEpoch(sql), untilMs: row.expires_at };
}

/**
 * Drops the access tokens of a revoked grant (remembered as revoked), or one revoked token.
 * Returns the hashes dropped and when the last of them would have expired.
 */
export function dropAccess(sql: SqlStorage, what: { grantId: string } | { hash: string }, nowMs: number): { hashes: string[]; untilMs: number } {
  // One token of an object that never recorded any: nothing to drop, and nothing is written.
  if (!("grantId" in what) && !hasAccess(sql)) return { hashes: [], untilMs: nowMs };
  ensureAccess(sql);
  const [where, value] = "grantId" in what ? ["grant_id", what.grantId] : ["hash", what.hash];
  const rows = sql.exec<{ hash: string; expires_at: number }>(`SELECT hash, expires_at FROM oauth_access WHERE ${where} = ?`, value).toArray();
  sql.exec(`DELETE FROM oauth_access WHERE ${where} = ?`, value);
  if ("grantId" in what) {
    sql.exec("DELETE FROM oauth_revoked WHERE revoked_at < ?", nowMs - REVOKED_KEPT_MS);
    sql.exec("INSERT OR REPLACE INTO oauth_revoked (grant_id, revoked_at) VALUES (?, ?)", what.grantId, nowMs);
    dropRefresh(sql, what.grantId);
  }
  return { hashes: rows.map((r) => r.hash), untilMs: Math.max(nowMs, ...rows.map((r) => r.expires_at)) };
}
