// The refresh tokens of a machine's OAuth grants as its identity object records them, for reuse
// detection (SPEC §8.1, RFC 9700 §4.14.2): the hash of every refresh token issued, and when its
// successor was issued. A replaced token presented again within the retry window is let through
// once (a client that lost the answer); any other presentation of it means it leaked, and the
// grant is revoked. Plain SQL over the object's storage; the object keeps thin methods.

/** How long after its successor a refresh token may still be presented, once (SPEC: at most 60 s). */
export const REFRESH_RETRY_MS = 60_000;
/** Replaced tokens kept per grant: older ones are long refused by the provider, which keeps only the last. */
const REPLACED_KEPT = 64;

export type RefreshVerdict = "unknown" | "current" | "retry" | "reused";

function hasRefresh(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'oauth_refresh'").toArray().length > 0;
}

/**
 * What a presented refresh token is: unknown here, the grant's current one, a retry within the
 * window (counted: a second one is reuse), or reused. Writes only to count the one retry.
 */
export function judgeRefresh(sql: SqlStorage, hash: string, nowMs: number): RefreshVerdict {
  if (!hasRefresh(sql)) return "unknown";
  const row = sql.exec<{ replaced_at: number | null; retried: number }>("SELECT replaced_at, retried FROM oauth_refresh WHERE hash = ?", hash).toArray()[0];
  if (!row) return "unknown";
  if (row.replaced_at === null) return "current";
  if (row.retried === 0 && nowMs - row.replaced_at <= REFRESH_RETRY_MS) {
    sql.exec("UPDATE oauth_refresh SET retried = 1 WHERE hash = ?", hash);
    return "retry";
  }
  return "reused";
}

/**
 * Records a refresh token the provider issued for `grantId`; every other token of the grant is
 * replaced from now (the one presented, when the issue was a refresh, is recorded as replaced if
 * it was unknown here). Nothing is recorded for a grant revoked meanwhile.
 */
export function recordRefresh(sql: SqlStorage, token: { grantId: string; hash: string; presentedHash: string | null; nowMs: number }): boolean {
  sql.exec(`CREATE TABLE IF NOT EXISTS oauth_refresh (
    hash TEXT PRIMARY KEY, grant_id TEXT NOT NULL, issued_at INTEGER NOT NULL, replaced_at INTEGER, retried INTEGER NOT NULL DEFAULT 0)`);
  const revoked = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'oauth_revoked'").toArray().length > 0
    && sql.exec("SELECT 1 FROM oauth_revoked WHERE grant_id = ?", token.grantId).toArray().length > 0;
  if (revoked) return false;
  if (token.presentedHash !== null) {
    sql.exec("INSERT OR IGNORE INTO oauth_refresh (hash, grant_id, issued_at, replaced_at) VALUES (?, ?, ?, ?)", token.presentedHash, token.grantId, token.nowMs, token.nowMs);
  }
  sql.exec("UPDATE oauth_refresh SET replaced_at = ? WHERE grant_id = ? AND replaced_at IS NULL", token.nowMs, token.grantId);
  sql.exec("INSERT OR REPLACE INTO oauth_refresh (hash, grant_id, issued_at) VALUES (?, ?, ?)", token.hash, token.grantId, token.nowMs);
  sql.exec(
    `DELETE FROM oauth_refresh WHERE grant_id = ? AND replaced_at IS NOT NULL AND hash NOT IN
      (SELECT hash FROM oauth_refresh WHERE grant_id = ? AND replaced_at IS NOT NULL ORDER BY replaced_at DESC LIMIT ?)`,
    token.grantId,
    token.grantId,
    REPLACED_KEPT,
  );
  return true;
}

/** Whether any refresh token of the grant was recorded here. */
export function knowsRefreshOf(sql: SqlStorage, grantId: string): boolean {
  return hasRefresh(sql) && sql.exec("SELECT 1 FROM oauth_refresh WHERE grant_id = ? LIMIT 1", grantId).toArray().length > 0;
}

/** Forgets a revoked grant's refresh tokens. */
export function dropRefresh(sql: SqlStorage, grantId: string): void {
  if (hasRefresh(sql)) sql.exec("DELETE FROM oauth_refresh WHERE grant_id = ?", grantId);
}
