import { Hono, type Context } from "hono";
import { AuthorizationError, authorizationErrorRedirect, type AuthRequest, type OAuthProvider } from "@cloudflare/workers-oauth-provider";
import type { Env } from "../env";
import type { SignInRecord } from "../identity/oauth-store";
import { afterTokenRequest, beforeTokenRequest } from "../oauth/access-sync";
import { approveSchema, approveSignIn } from "../oauth/approve";
import { ensureMetadataClient, isMetadataUrl } from "../oauth/cimd";
import { clientView } from "../oauth/client-view";
import { CONSENT_CSP, consentHtml, signInErrorHtml } from "../oauth/consent-page";
import { grantsSchema, listGrants, revokeGrant, revokeSchema } from "../oauth/grants";
import { refusedRefresh } from "../oauth/refresh-reuse";
import { AUTHORIZE_PATH, oauthApi, originOf, providerFor, REGISTER_PATH, SIGNED_IN_PATH, TOKEN_PATH, type SignedInHandler } from "../oauth/provider";
import { newPageSecret, newRequestId, normaliseRequestId, PAGE_SECRET_HEADER, SIGNIN_TTL_MS, signInStub } from "../oauth/signin-requests";
import { shownName } from "../text/display-name";
import { sha256Hex } from "../text/encoding";
import { facts, readJson, refuse } from "./identity-routes";
import { mcpRoutes, type McpRouteOptions } from "./mcp-route";
import { hostGuard } from "./middleware/origin-host";
import { countedBefore, serveSignedIn, signedInCall } from "./signed-in-calls";

type Ctx = Context<{ Bindings: Env }>;

/**
 * Signing in from hosted clients (SPEC §8.1). `signedIn` serves the signed-in MCP URL (mounted
 * before the API's body limit: the MCP chain guards its own); `routes` serve discovery, the
 * provider's token and registration endpoints, the consent page and the grant requests.
 */
export function oauthRoutes(options: McpRouteOptions = {}): { signedIn: Hono<{ Bindings: Env }>; routes: Hono<{ Bindings: Env }> } {
  const mcp = mcpRoutes({ ...options, path: SIGNED_IN_PATH, signedIn: signedInCall, counted: countedBefore });
  const apiHandler: SignedInHandler = { fetch: (request, env, ctx) => mcp.fetch(request, env, ctx) };
  // One provider per origin the server is reached at, built once per isolate.
  const providers = new Map<string, OAuthProvider<Env>>();
  const provider = (c: Ctx): OAuthProvider<Env> => providerFor(providers, originOf(c.req.raw), c.env, apiHandler);
  const delegate = (c: Ctx) => provider(c).fetch(c.req.raw, c.env, c.executionCtx as ExecutionContext);

  const signedIn = new Hono<{ Bindings: Env }>();
  // An access token goes the bearer token's way (signed-in-calls.ts); the provider answers 401 with
  // the resource metadata's URL, or calls the MCP chain with the grant's props.
  signedIn.all(SIGNED_IN_PATH, (c) =>
    serveSignedIn(c.req.raw, c.env, c.executionCtx as ExecutionContext, `${originOf(c.req.raw)}${SIGNED_IN_PATH}`, (r, env, ec) => mcp.fetch(r, env, ec), (r, env, ec) =>
      provider(c).fetch(r, env, ec),
    ),
  );

  const routes = new Hono<{ Bindings: Env }>();
  routes.get("/.well-known/oauth-protected-resource", delegate);
  routes.get("/.well-known/oauth-protected-resource/*", delegate);
  routes.get("/.well-known/oauth-authorization-server", (c) => withMetadataDocuments(delegate(c)));
  routes.get("/.well-known/oauth-authorization-server/*", (c) => withMetadataDocuments(delegate(c)));
  // Anything else under /.well-known is not ours: JSON 404, never the site's page.
  routes.all("/.well-known/*", (c) => c.json({ error: "not_found" }, 404));
  routes.post(REGISTER_PATH, async (c) => provider(c).fetch(await withShownName(c.req.raw), c.env, c.executionCtx as ExecutionContext));
  routes.all(TOKEN_PATH, async (c) => {
    if (c.req.method !== "POST") return delegate(c);
    // A metadata-document client is (re)fetched before the provider looks it up, as at /authorize.
    const text = await c.req.text();
    const clientId = new URLSearchParams(text).get("client_id");
    if (clientId && isMetadataUrl(clientId)) {
      const client = await ensureMetadataClient(c.env.OAUTH_KV, clientId, originOf(c.req.raw));
      if (!client.ok) return c.json({ error: "invalid_client", error_description: client.message }, 401, { "Cache-Control": "no-store" });
    }
    const form = new URLSearchParams(text);
    // A refresh token replaced before and presented again revokes its grant (refresh-reuse.ts).
    const reused = await refusedRefresh(c.env, originOf(c.req.raw), form);
    if (reused) return reused;
    const held = await beforeTokenRequest(c.env, form);
    const request = new Request(c.req.url, { method: "POST", headers: c.req.raw.headers, body: text });
    const started = Date.now();
    const answer = await provider(c).fetch(request, c.env, c.executionCtx as ExecutionContext);
    // Issued tokens are recorded by their machines, revoked ones dropped (access-sync.ts).
    return afterTokenRequest(c.env, originOf(c.req.raw), form, started, answer, held);
  });
  routes.get(AUTHORIZE_PATH, authorize);
  // Approvals and a sign-in's status are answered for the names this server is reached by only.
  const guard = hostGuard((message) => Response.json({ error: { code: "wrong_host", message } }, { status: 403 }));
  routes.use("/oauth/approve", guard);
  routes.use("/oauth/requests/*", guard);
  routes.post("/oauth/approve", async (c) => {
    const body = await readJson(c, approveSchema);
    if (!body.ok) return refuse(c, body);
    const r = await approveSignIn(c.env, originOf(c.req.raw), body.value, facts(c));
    if (!r.ok) return refuse(c, r);
    // The redirect carries the code: only the consent page (which sent its secret) is given it.
    const answer = r.redirectTo !== null ? { machine_id: r.machineId, redirect_to: r.redirectTo } : { machine_id: r.machineId, status: "approved", note: "the consent page continues by itself" };
    return c.json(answer, 200, { "Cache-Control": "no-store" });
  });
  routes.get("/oauth/requests/:id", signInDescription);
  routes.get("/oauth/requests/:id/status", signInPageStatus);
  routes.post("/api/keys/grants", async (c) => {
    const body = await readJson(c, grantsSchema);
    if (!body.ok) return refuse(c, body);
    const r = await listGrants(c.env, originOf(c.req.raw), body.value, facts(c));
    if (!r.ok) return refuse(c, r);
    return c.json({ machine_id: r.machineId, grants: r.grants }, 200, { "Cache-Control": "no-store" });
  });
  routes.post("/api/keys/grants/revoke", async (c) => {
    const body = await readJson(c, revokeSchema);
    if (!body.ok) return refuse(c, body);
    const r = await revokeGrant(c.env, originOf(c.req.raw), body.value, facts(c));
    if (!r.ok) return refuse(c, r);
    return c.json({ machine_id: r.machineId, revoked: r.revoked }, 200, { "Cache-Control": "no-store" });
  });
  return { signedIn, routes };
}

/**
 * RFC 8414 metadata says metadata documents are welcome: Mosaic fetches them itself (cimd.ts), so
 * the provider, whose own fetcher is off, does not say it.
 */
async function withMetadataDocuments(answer: Promise<Response>): Promise<Response> {
  const res = await answer;
  if (res.status !== 200) return res;
  const meta = (await res.json()) as Record<string, unknown>;
  meta.client_id_metadata_document_supported = true;
  return Response.json(meta, { headers: res.headers });
}

function errorPage(c: Ctx, status: 400 | 404 | 410, title: string, message: string): Response {
  return c.html(signInErrorHtml(title, message), status, { "Cache-Control": "no-store", "Content-Security-Policy": CONSENT_CSP });
}

/** The authorization endpoint: checks the request with the provider, keeps it pending, shows the consent page. */
async function authorize(c: Ctx): Promise<Response> {
  const origin = originOf(c.req.raw);
  const clientId = c.req.query("client_id") ?? "";
  let metadataClient: string | undefined;
  if (isMetadataUrl(clientId)) {
    const client = await ensureMetadataClient(c.env.OAUTH_KV, clientId, origin);
    if (!client.ok) return errorPage(c, 400, "This client cannot sign in", `invalid_client: ${client.message}`);
    metadataClient = JSON.stringify(client.record);
  }
  const api = oauthApi(origin, c.env);
  let request: AuthRequest;
  try {
    request = await api.parseAuthRequest(c.req.raw);
  } catch (err) {
    if (!(err instanceof AuthorizationError)) throw err;
    // Back to the client only once its redirect URI is known to be its own.
    if (err.redirectTo) return c.redirect(err.redirectTo, 302);
    return errorPage(c, 400, "This sign-in request is not valid", `${err.code}: ${err.description}`);
  }
  // OAuth 2.1 with MCP: every client proves its code with PKCE S256, confidential ones included.
  if (request.codeChallengeMethod !== "S256" || !request.codeChallenge) {
    return c.redirect(authorizationErrorRedirect(request, "invalid_request", "PKCE with code_challenge_method=S256 is required"), 302);
  }
  const client = await api.lookupClient(request.clientId);
  const id = newRequestId();
  const secret = newPageSecret();
  const now = Date.now();
  const record: SignInRecord = {
    id,
    request: JSON.stringify(request),
    client: {
      id: request.clientId,
      host: isMetadataUrl(request.clientId) ? new URL(request.clientId).host : new URL(request.redirectUri).host,
      name: shownName(client?.clientName),
      kind: isMetadataUrl(request.clientId) ? "metadata-document" : "registered",
      redirectHost: new URL(request.redirectUri).host,
    },
    createdAt: now,
    expiresAt: now + SIGNIN_TTL_MS,
    origin,
    secretHash: await sha256Hex(secret),
    // The document as checked now stays valid for the whole sign-in (approve.ts restores it).
    ...(metadataClient && request.clientId === clientId ? { metadataClient } : {}),
  };
  await signInStub(c.env, id).openSignIn(record);
  const html = consentHtml({ record, origin, secret, denyUrl: authorizationErrorRedirect(request, "access_denied") });
  return c.html(html, 200, { "Cache-Control": "no-store", "Content-Security-Policy": CONSENT_CSP, "X-Frame-Options": "DENY" });
}

const NO_STORE = { "Cache-Control": "no-store" };

function missingOrExpired(c: Ctx, id: string, expired: boolean): Response {
  if (expired) return c.json({ error: { code: "expired", message: `sign-in request ${id} expired: start again from your client` } }, 410, NO_STORE);
  return c.json({ error: { code: "missing", message: `no sign-in request ${id} is waiting here` } }, 404, NO_STORE);
}

/**
 * The public description of a waiting sign-in, for whoever approves it elsewhere (the key-file
 * CLI): who asks, truthfully, and until when. Never its outcome, its code or its redirect.
 */
async function signInDescription(c: Ctx): Promise<Response> {
  const id = normaliseRequestId(c.req.param("id") ?? "");
  if (!id) return c.json({ error: { code: "bad_input", message: "a sign-in code is 10 characters, as the page shows it" } }, 400);
  const state = await signInStub(c.env, id).signInState(id, Date.now());
  if (state === null || state.status === "expired") return missingOrExpired(c, id, state !== null);
  // An approved sign-in is no longer waiting: said as a plain refusal, with nothing of the grant.
  if (state.status !== "pending") return c.json({ error: { code: "replayed", message: `sign-in request ${id} is no longer waiting for approval` } }, 409, NO_STORE);
  return c.json({ request: id, status: "pending", client: clientView(state.record.client), expires_at: new Date(state.record.expiresAt).toISOString() }, 200, NO_STORE);
}

/**
 * What the consent page waiting on the key-file CLI learns, with the secret it was served with:
 * pending, or approved with the redirect, handed out this once (a second look has none).
 */
async function signInPageStatus(c: Ctx): Promise<Response> {
  const id = normaliseRequestId(c.req.param("id") ?? "");
  if (!id) return c.json({ error: { code: "bad_input", message: "a sign-in code is 10 characters, as the page shows it" } }, 400);
  const secret = c.req.header(PAGE_SECRET_HEADER) ?? "";
  if (secret === "" || secret.length > 100) return c.json({ error: { code: "page_secret", message: `a sign-in's status is the consent page's only: send its secret in ${PAGE_SECRET_HEADER}` } }, 401, NO_STORE);
  const view = await signInStub(c.env, id).signInPageView(id, await sha256Hex(secret), Date.now());
  if (view === null || view.status === "expired") return missingOrExpired(c, id, view !== null);
  if (view.status === "forbidden") return c.json({ error: { code: "page_secret", message: `this is not the secret of sign-in ${id}'s page` } }, 403, NO_STORE);
  if (view.status === "pending") return c.json({ request: id, status: "pending", expires_at: new Date(view.record.expiresAt).toISOString() }, 200, NO_STORE);
  const redirect = view.redirectTo !== null ? { redirect_to: view.redirectTo } : {};
  return c.json({ request: id, status: "approved", machine_id: view.machineId, ...redirect }, 200, NO_STORE);
}

/**
 * A registration (RFC 7591) with its `client_name` cleaned before the provider stores it: no
 * control, bidi or zero-width characters, cut to a sane length. Anything else is the provider's.
 */
async function withShownName(request: Request): Promise<Request> {
  const text = await request.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body) || !("client_name" in body)) return new Request(request, { body: text });
  const fields = body as Record<string, unknown>;
  const name = shownName(fields.client_name);
  if (name === null) delete fields.client_name;
  else fields.client_name = name;
  const headers = new Headers(request.headers);
  headers.delete("content-length"); // the body changed length
  return new Request(request, { headers, body: JSON.stringify(fields) });
}
