// The OAuth dance of the signed-in URL (SPEC §8.1) as raw HTTP inside workerd, for the refusal tests.
import { env, exports } from "cloudflare:workers";
import { messageOf } from "../support/mcp-wire";
import { waitPlaying } from "./game-helpers";
import { machine, mint } from "./identity-helpers";
import { toBase64Url } from "../../src/text/encoding";
import type { Machine } from "./identity-helpers";

/** A local server (loopback host): http callbacks and metadata URLs are allowed. */
export const LOCAL = "http://localhost:8787";
/** A public server: metadata documents must be https on public addresses. */
export const PUBLIC = "https://mosaic.example";
export const CALLBACK = "http://127.0.0.1:9999/callback";

export function fetchAt(url: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(url, { redirect: "manual", ...init });
}

export async function register(origin: string, redirectUris = [CALLBACK]): Promise<string> {
  const res = await fetchAt(`${origin}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Refusal Test", redirect_uris: redirectUris, token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] }),
  });
  const body = (await res.json()) as { client_id?: string };
  if (res.status !== 201 || !body.client_id) throw new Error(`registration failed: ${res.status} ${JSON.stringify(body)}`);
  return body.client_id;
}

export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  const verifier = toBase64Url(bytes);
  const challenge = toBase64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  return { verifier, challenge };
}

export interface AuthorizeAnswer {
  status: number;
  location: string | null;
  /** The sign-in code of the consent page, when one was shown. */
  request: string | null;
  /** The consent page's secret: only its holder learns the outcome and gets the redirect. */
  secret: string | null;
  html: string;
}

export async function authorize(origin: string, params: Record<string, string>): Promise<AuthorizeAnswer> {
  const q = new URLSearchParams({ response_type: "code", redirect_uri: CALLBACK, resource: `${origin}/mcp/signed-in`, state: "st4te", ...params });
  const res = await fetchAt(`${origin}/oauth/authorize?${q}`);
  const html = await res.text();
  return { status: res.status, location: res.headers.get("location"), request: /data-request="([0-9A-Z]{10})"/.exec(html)?.[1] ?? null, secret: /data-secret="([A-Za-z0-9_-]+)"/.exec(html)?.[1] ?? null, html };
}

export async function approveBody(origin: string, m: Machine, request: string, ts = Math.floor(Date.now() / 1000)): Promise<Record<string, unknown>> {
  const host = new URL(origin).host;
  return { request, publicKey: m.publicKey, ts, sig: toBase64Url(await m.sign(`mosaic-oauth-approve:${host}:${request}:${ts}`)) };
}

export async function approve(origin: string, body: Record<string, unknown>): Promise<{ status: number; body: { redirect_to?: string; machine_id?: string; error?: { code: string; message: string } } }> {
  const res = await fetchAt(`${origin}/oauth/approve`, { method: "POST", headers: { "content-type": "application/json", host: new URL(origin).host }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { redirect_to?: string } };
}

export interface TokenAnswer {
  status: number;
  body: { access_token?: string; refresh_token?: string; error?: string; error_description?: string };
}

export async function token(origin: string, form: Record<string, string>): Promise<TokenAnswer> {
  const res = await fetchAt(`${origin}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form).toString() });
  return { status: res.status, body: (await res.json()) as TokenAnswer["body"] };
}

/** Registers, authorizes, approves with `m`'s key: the code and what the token request needs. */
export async function codeFor(origin: string, m: Machine): Promise<{ clientId: string; code: string; verifier: string }> {
  const clientId = await register(origin);
  const { verifier, challenge } = await pkce();
  const page = await authorize(origin, { client_id: clientId, code_challenge: challenge, code_challenge_method: "S256" });
  if (!page.request) throw new Error(`no consent page: ${page.status} ${page.html.slice(0, 300)}`);
  // Approved as the consent page does it: with the page's secret, so the answer carries the redirect.
  const approved = await approve(origin, { ...(await approveBody(origin, m, page.request)), secret: page.secret });
  const code = new URL(approved.body.redirect_to ?? "http://x/").searchParams.get("code");
  if (!code) throw new Error(`no code: ${JSON.stringify(approved.body)}`);
  return { clientId, code, verifier };
}

export function exchange(origin: string, c: { clientId: string; code: string; verifier: string }, extra: Record<string, string> = {}): Promise<TokenAnswer> {
  return token(origin, { grant_type: "authorization_code", code: c.code, code_verifier: c.verifier, client_id: c.clientId, redirect_uri: CALLBACK, resource: `${origin}/mcp/signed-in`, ...extra });
}

/** One MCP request to the signed-in URL with a bearer token. */
export function signedInCall(origin: string, accessToken: string | undefined, message: unknown): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  return fetchAt(`${origin}/mcp/signed-in`, { method: "POST", headers, body: JSON.stringify(message) });
}

/** A playing field, started over /mcp with a bearer token of another machine. */
export async function playingField(): Promise<string> {
  const starter = await mint(await machine());
  const res = await fetchAt(`${LOCAL}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${starter}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "start_mosaic", arguments: { kind: "scatter", G: 24 } } }),
  });
  const gameId = String(((await messageOf(res)).result as { structuredContent?: Record<string, unknown> }).structuredContent?.game_id);
  await waitPlaying(env.FIELDS.getByName(gameId));
  return gameId;
}
