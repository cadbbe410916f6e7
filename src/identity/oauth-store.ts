// The identity object's share of signing in from hosted clients (SPEC §8.1), as plain SQL over
// the object's storage, so the object itself only gains thin methods.
//
// Two kinds of instance use these tables:
// - a machine's object (named by its machine id) keeps the hashes of its OAuth grants' secrets,
//   so a field proves a signed-in call by the same vouch it asks for a bearer token;
// - a sign-in request's object (named `oauth-request:<id>`) keeps one pending consent, so that its
//   approval is taken exactly once whichever way it comes (browser key, key file, token).
import { newestEpoch } from "./oauth-access";
import type { Vouch } from "./vouched-tokens";

/** What a consent page and the key-file CLI are shown, and what the approval completes. */
export interface SignInRecord {
  id: string;
  /** The OAuth request as the provider parsed it (JSON), completed once the machine approves. */
  request: string;
  /** Who asks: the metadata document's host or the registered client's, and its self-declared name. */
  client: { id: string; host: string; name: string | null; kind: "metadata-document" | "registered"; redirectHost: string };
  createdAt: number;
  expiresAt: number;
  /** The origin the sign-in was opened at: its approval completes there only (issuer and resource name it). */
  origin?: string;
  /** SHA-256 of the consent page's secret: only the page that holds it learns the outcome and the redirect. */
  secretHash?: string;
  /** A metadata-document client's checked record (JSON) as fetched at the start, valid for the whole sign-in. */
  metadataClient?: string;
}

export type SignInState =
  | { status: "pending"; record: SignInRecord }
  | { status: "approved"; record: SignInRecord; machineId: string; redirectTo: string | null }
  | { status: "expired" };

export type SignInClaim = { ok: true; record: SignInRecord } | { ok: false; code: "missing" | "expired" | "replayed"; message: string };

function hasTable(sql: SqlStorage, name: string): boolean {
  return sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).toArray().length > 0;
}

function ensureSignIns(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS signin_requests (
    id TEXT PRIMARY KEY, record TEXT NOT NULL, expires_at INTEGER NOT NULL,
    machine_id TEXT, redirect_to TEXT)`);
}

export function openSignIn(sql: SqlStorage, record: SignInRecord): void {
  ensureSignIns(sql);
  sql.exec("INSERT OR IGNORE INTO signin_requests (id, record, expires_at) VALUES (?, ?, ?)", record.id, JSON.stringify(record), record.expiresAt);
}

export function readSignIn(sql: SqlStorage, id: string, nowMs: number): SignInState | null {
  if (!hasTable(sql, "signin_requests")) return null;
  const row = sql
    .exec<{ record: string; expires_at: number; machine_id: string | null; redirect_to: string | null }>(
      "SELECT record, expires_at, machine_id, redirect_to FROM signin_requests WHERE id = ?",
      id,
    )
    .toArray()[0];
  if (!row) return null;
  // Expired first: an approved request past its expiry no longer hands out its code.
  if (row.expires_at <= nowMs) return { status: "expired" };
  const record = JSON.parse(row.record) as SignInRecord;
  if (row.machine_id !== null) return { status: "approved", record, machineId: row.machine_id, redirectTo: row.redirect_to };
  return { status: "pending", record };
}

/**
 * Completes the request for `machineId` with the client's redirect: only once, and only while it
 * is pending. When the page itself approved (it sent its secret), the redirect was handed to it
 * in the answer and is not kept; otherwise it waits for the page's next look, once.
 */
export function completeSignIn(sql: SqlStorage, id: string, machineId: string, redirectTo: string, delivered: boolean, nowMs: number): SignInClaim {
  const state = readSignIn(sql, id, nowMs);
  const refused = notPending(state, id);
  if (refused) return refused;
  sql.exec("UPDATE signin_requests SET machine_id = ?, redirect_to = ? WHERE id = ?", machineId, delivered ? null : redirectTo, id);
  return { ok: true, record: (state as { record: SignInRecord }).record };
}

/** Why a request can no longer be approved, or null while it can. */
export function notPending(state: SignInState | null, id: string): Extract<SignInClaim, { ok: false }> | null {
  if (state === null) return { ok: false, code: "missing", message: `no sign-in request ${id} is waiting here (it may have been made on another server)` };
  if (state.status === "expired") return { ok: false, code: "expired", message: `sign-in request ${id} expired: start the sign-in again from your client` };
  if (state.status === "approved") return { ok: false, code: "replayed", message: `replayed approval: sign-in request ${id} was already approved; an approval is taken once` };
  return null;
}

export type PageView = SignInState | { status: "forbidden" } | null;

/**
 * What the consent page holding the secret (its SHA-256 is `secretHash`) learns: pending, or
 * approved with the redirect, which is handed out this once and then forgotten.
 */
export function pageView(sql: SqlStorage, id: string, secretHash: string, nowMs: number): PageView {
  const state = readSignIn(sql, id, nowMs);
  if (state === null || state.status === "expired") return state;
  if (!state.record.secretHash || state.record.secretHash !== secretHash) return { status: "forbidden" };
  if (state.status === "approved" && state.redirectTo !== null) sql.exec("UPDATE signin_requests SET redirect_to = NULL WHERE id = ?", id);
  return state;
}

/**
 * Drops expired requests; the earliest expiry of those left (for the object's next alarm), or
 * null when none is left.
 */
export function sweepSignIns(sql: SqlStorage, nowMs: number): number | null {
  if (!hasTable(sql, "signin_requests")) return null;
  sql.exec("DELETE FROM signin_requests WHERE expires_at <= ?", nowMs);
  return sql.exec<{ next: number | null }>("SELECT MIN(expires_at) AS next FROM signin_requests").one().next;
}

/** Whether the object holds sign-in requests and nothing else: such an object may delete itself. */
export function holdsOnlySignIns(sql: SqlStorage): boolean {
  const tables = sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'").toArray();
  return tables.every((t) => t.name === "signin_requests");
}

/** Records a grant of this machine: `hash` is SHA-256 of the grant's secret, which only its tokens unwrap. */
export function addGrant(sql: SqlStorage, grant: { ref: string; machineId: string; hash: string; nowMs: number }): void {
  sql.exec("CREATE TABLE IF NOT EXISTS oauth_grants (ref TEXT PRIMARY KEY, machine_id TEXT NOT NULL, hash TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL)");
  sql.exec("INSERT OR REPLACE INTO oauth_grants (ref, machine_id, hash, created_at) VALUES (?, ?, ?, ?)", grant.ref, grant.machineId, grant.hash, grant.nowMs);
}

/** Forgets a grant: its secret vouches for nothing from now on. True when it was held. */
export function dropGrant(sql: SqlStorage, ref: string): boolean {
  if (!hasTable(sql, "oauth_grants")) return false;
  return sql.exec("DELETE FROM oauth_grants WHERE ref = ?", ref).rowsWritten > 0;
}

/**
 * A grant secret's vouch, for a hash that is no bearer token of the machine. Its epoch is the
 * machine's newest token's, so a field holding it drops it when a token is minted and asks again
 * (and gets it again: minting does not revoke grants, SPEC §8.1).
 */
export function grantVouch(sql: SqlStorage, hash: string): Vouch {
  if (!hasTable(sql, "oauth_grants")) return { status: "unknown" };
  const row = sql.exec<{ machine_id: string }>("SELECT machine_id FROM oauth_grants WHERE hash = ?", hash).toArray()[0];
  if (!row) return { status: "unknown" };
  return { status: "current", machineId: row.machine_id, epoch: newestEpoch(sql) };
}
