// Client ID Metadata Documents (SPEC §8.1): a client whose `client_id` is a URL is described by the
// JSON document at that URL. Mosaic fetches it itself, with the guards the spec asks for, and
// stores the result as the provider's client record under that URL (the library reads clients
// named by a URL from `client:<url>` when its own fetcher is off): https only (http on loopback
// for a local server), public addresses only, no redirects, 5 KB, 5 s, cached for its lifetime.
import { shownName } from "../text/display-name";
import { isLocalOrigin } from "./provider";
import { isPrivateHost } from "./public-address";

export { isPrivateHost };

export const CIMD_MAX_BYTES = 5 * 1024;
export const CIMD_TIMEOUT_MS = 5_000;
const TTL_MIN_S = 300;
const TTL_MAX_S = 86_400;
const TTL_DEFAULT_S = 3_600;

export type CimdResult = { ok: true; record: ClientRecord; ttlSeconds: number } | { ok: false; message: string };

/** The provider's stored client shape (its storage schema's `client:<id>` record) for a public client. */
export interface ClientRecord {
  clientId: string;
  redirectUris: string[];
  clientName?: string;
  clientUri?: string;
  logoUri?: string;
  grantTypes: string[];
  responseTypes: string[];
  registrationDate: number;
  tokenEndpointAuthMethod: "none";
  authMethodExplicit: true;
}

/** Whether a `client_id` names a metadata document rather than a registered client. */
export function isMetadataUrl(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/** Refuses what may never be fetched: the URL's shape, and addresses that are not public. */
export function metadataUrlProblem(clientId: string, serverOrigin: string): string | null {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return "client_id is not a valid URL";
  }
  const local = isLocalOrigin(serverOrigin);
  const loopback = isLocalOrigin(url.origin);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local && loopback)) {
    return local ? "a client metadata URL must use https (or http on localhost for a local server)" : "a client metadata URL must use https";
  }
  if (url.username || url.password || url.hash) return "a client metadata URL must have no user info and no fragment";
  if (url.pathname === "/" || url.pathname === "") return "a client metadata URL must have a path";
  if (url.pathname.split("/").some((s) => s === "." || s === ".." || s === "%2e" || s === "%2e%2e")) return "a client metadata URL must have no dot segments";
  if (!local && isPrivateHost(url.hostname)) return `a client metadata URL must name a public address, not ${url.hostname}`;
  return null;
}

/** Fetches and checks a metadata document. Never follows a redirect; stops reading past the limit. */
export async function fetchClientMetadata(clientId: string, serverOrigin: string, nowMs: number): Promise<CimdResult> {
  const problem = metadataUrlProblem(clientId, serverOrigin);
  if (problem) return { ok: false, message: problem };
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), CIMD_TIMEOUT_MS);
  try {
    const res = await fetch(clientId, { redirect: "manual", signal: abort.signal, headers: { Accept: "application/json", "User-Agent": "mosaic-oauth (client metadata)" } });
    if (res.status >= 300 && res.status < 400) return { ok: false, message: `the client metadata URL answered a redirect (${res.status}); redirects are not followed` };
    if (res.status !== 200) return { ok: false, message: `the client metadata URL answered HTTP ${res.status}` };
    const text = await readLimited(res, CIMD_MAX_BYTES);
    if (text === null) return { ok: false, message: `the client metadata document is larger than ${CIMD_MAX_BYTES} bytes` };
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      return { ok: false, message: "the client metadata document is not JSON" };
    }
    const record = clientRecordOf(doc, clientId, nowMs);
    return record.ok ? { ok: true, record: record.record, ttlSeconds: ttlOf(res.headers.get("Cache-Control")) } : record;
  } catch (err) {
    return { ok: false, message: abort.signal.aborted ? `the client metadata URL did not answer within ${CIMD_TIMEOUT_MS / 1000} s` : `the client metadata URL could not be fetched (${String(err)})` };
  } finally {
    clearTimeout(timer);
  }
}

async function readLimited(res: Response, max: number): Promise<string | null> {
  const declared = Number(res.headers.get("Content-Length"));
  if (declared > max) return null;
  if (!res.body) return "";
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.byteLength;
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(all);
}

/** The document's fields as a public client of the provider; what MCP's CIMD profile requires. */
export function clientRecordOf(doc: unknown, clientId: string, nowMs: number): { ok: true; record: ClientRecord } | { ok: false; message: string } {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return { ok: false, message: "the client metadata document must be a JSON object" };
  const d = doc as Record<string, unknown>;
  if (d.client_id !== clientId) return { ok: false, message: "the document's client_id must equal its URL" };
  const uris = d.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 20 || !uris.every((u) => typeof u === "string" && u.length <= 2000)) {
    return { ok: false, message: "the document needs redirect_uris: 1 to 20 URLs" };
  }
  const allowed = (uris as string[]).filter(redirectAllowed);
  if (allowed.length === 0) return { ok: false, message: "none of the document's redirect_uris is https or http on localhost" };
  const auth = d.token_endpoint_auth_method;
  if (auth !== undefined && auth !== "none") return { ok: false, message: `token_endpoint_auth_method ${String(auth)} is not supported here: use "none" (a public client with PKCE)` };
  // Cleaned as every shown name is: no control, bidi or zero-width characters, a sane length.
  const name = shownName(d.client_name) ?? "";
  const record: ClientRecord = {
    clientId,
    redirectUris: allowed,
    grantTypes: ["authorization_code", "refresh_token"],
    responseTypes: ["code"],
    registrationDate: Math.floor(nowMs / 1000),
    tokenEndpointAuthMethod: "none",
    authMethodExplicit: true,
  };
  if (name) record.clientName = name;
  if (typeof d.client_uri === "string" && /^https:\/\//.test(d.client_uri)) record.clientUri = d.client_uri.slice(0, 500);
  return { ok: true, record };
}

/** https anywhere; http only to a loopback callback (a client on the user's own machine). */
function redirectAllowed(uri: string): boolean {
  try {
    const u = new URL(uri);
    if (u.hash || u.username || u.password) return false;
    return u.protocol === "https:" || (u.protocol === "http:" && isLocalOrigin(u.origin));
  } catch {
    return false;
  }
}

function ttlOf(cacheControl: string | null): number {
  if (!cacheControl || /no-store|no-cache|private/i.test(cacheControl)) return TTL_MIN_S;
  const m = /max-age\s*=\s*(\d+)/i.exec(cacheControl);
  const ttl = m ? Number(m[1]) : TTL_DEFAULT_S;
  return Math.min(TTL_MAX_S, Math.max(TTL_MIN_S, ttl));
}

/**
 * The client named by a metadata URL, fetched unless a checked copy is still stored: stored as
 * `client:<url>` with the document's lifetime (KV needs at least 60 s; the floor is 5 minutes).
 */
export async function ensureMetadataClient(kv: KVNamespace, clientId: string, serverOrigin: string, nowMs = Date.now()): Promise<{ ok: true; record: ClientRecord } | { ok: false; message: string }> {
  const problem = metadataUrlProblem(clientId, serverOrigin);
  if (problem) return { ok: false, message: problem };
  const stored = await kv.get<ClientRecord>(`client:${clientId}`, { type: "json" });
  if (stored) return { ok: true, record: stored };
  const fetched = await fetchClientMetadata(clientId, serverOrigin, nowMs);
  if (!fetched.ok) return fetched;
  await kv.put(`client:${clientId}`, JSON.stringify(fetched.record), { expirationTtl: fetched.ttlSeconds });
  return { ok: true, record: fetched.record };
}

/**
 * Puts back a metadata-document client checked at the start of a sign-in whose cached copy has
 * expired since (a sign-in lasts longer than the shortest cache): the approval and the code's
 * exchange right after it find the client as it was checked. KV's floor of 5 minutes covers both.
 */
export async function restoreMetadataClient(kv: KVNamespace, clientId: string, record: string): Promise<void> {
  if ((await kv.get(`client:${clientId}`)) !== null) return;
  await kv.put(`client:${clientId}`, record, { expirationTtl: TTL_MIN_S });
}
