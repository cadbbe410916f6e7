// Signing in through OAuth (SPEC §8.1) as hosted clients do: the official MCP SDK client's
// `OAuthClientProvider`, a loopback callback like a desktop client's, and a Client ID Metadata
// Document served over HTTPS by a local server whose self-signed certificate `wrangler dev` is
// told to trust (miniflare reads NODE_EXTRA_CA_CERTS).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/** An OAuth client of the SDK that keeps everything in memory and hands the authorization URL to the test. */
export class MemoryOAuthClient implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens[] = [];
  authorizationUrls: URL[] = [];
  private verifier = "";
  clientMetadataUrl?: string;

  constructor(
    readonly redirectUrl: string,
    options: { clientMetadataUrl?: string; name?: string } = {},
  ) {
    if (options.clientMetadataUrl) this.clientMetadataUrl = options.clientMetadataUrl;
    this.name = options.name ?? "mosaic-oauth-test";
  }

  private readonly name: string;

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [this.redirectUrl], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved.at(-1);
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved.push(tokens);
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** A loopback HTTP server standing for the client's redirect URI: it records what comes back. */
export async function callbackServer(): Promise<{ url: string; hits: URL[]; next(): Promise<URL>; close(): Promise<void> }> {
  const hits: URL[] = [];
  const waiting: Array<(u: URL) => void> = [];
  const server = createHttpServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://127.0.0.1");
    hits.push(u);
    waiting.shift()?.(u);
    res.writeHead(200, { "content-type": "text/plain" }).end("signed in: you may close this page");
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/callback`,
    hits,
    next: () => new Promise<URL>((resolve) => waiting.push(resolve)),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const a = server.address();
      resolve(typeof a === "object" && a ? a.port : 0);
    }),
  );
}

/** A self-signed certificate for localhost; the CA file to give NODE_EXTRA_CA_CERTS. */
export function localCertificate(): { key: string; cert: string; caFile: string } {
  const dir = mkdtempSync(join(tmpdir(), "mosaic-cert-"));
  const keyFile = join(dir, "key.pem");
  const caFile = join(dir, "cert.pem");
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", keyFile, "-out", caFile, "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], { stdio: "ignore" });
  return { key: readFileSync(keyFile, "utf8"), cert: readFileSync(caFile, "utf8"), caFile };
}

/** Serves client metadata documents over HTTPS on localhost: `documents` maps a path to its body and headers. */
export async function metadataServer(tls: { key: string; cert: string }): Promise<{
  origin: string;
  serve(path: string, body: string | ((origin: string) => unknown), status?: number, headers?: Record<string, string>): string;
  fetched: string[];
  close(): Promise<void>;
}> {
  const routes = new Map<string, { status: number; body: string | ((origin: string) => unknown); headers: Record<string, string> }>();
  const fetched: string[] = [];
  const server = createHttpsServer(tls, (req, res) => {
    fetched.push(req.url ?? "");
    const route = routes.get(req.url ?? "");
    if (!route) return void res.writeHead(404).end();
    const body = typeof route.body === "string" ? route.body : JSON.stringify(route.body(origin));
    res.writeHead(route.status, { "content-type": "application/json", ...route.headers }).end(route.status >= 300 && route.status < 400 ? "" : body);
  });
  const port = await listen(server as unknown as Server);
  const origin = `https://localhost:${port}`;
  return {
    origin,
    serve(path, body, status = 200, headers = {}) {
      routes.set(path, { status, body, headers });
      return `${origin}${path}`;
    },
    fetched,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/**
 * A signed-in access token without a browser, for benchmarks and scripted checks: registers a
 * client, opens a sign-in, approves it with the machine's `msc_` token and redeems the code.
 */
export async function signedInToken(baseUrl: string, mscToken: string): Promise<{ accessToken: string; refreshToken: string; clientId: string }> {
  const { createHash, randomBytes } = await import("node:crypto");
  const redirect = "http://127.0.0.1:9/callback";
  const reg = (await (await fetch(`${baseUrl}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "scripted", redirect_uris: [redirect], token_endpoint_auth_method: "none" }) })).json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const resource = `${baseUrl}/mcp/signed-in`;
  const q = new URLSearchParams({ response_type: "code", client_id: reg.client_id, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: "S256", resource, state: "s" });
  const page = await (await fetch(`${baseUrl}/oauth/authorize?${q}`)).text();
  const request = /data-request="([0-9A-Z]{10})"/.exec(page)?.[1];
  const secret = /data-secret="([A-Za-z0-9_-]+)"/.exec(page)?.[1];
  if (!request) throw new Error(`no consent page: ${page.slice(0, 200)}`);
  // As the page approves: with its secret, which alone gets the redirect with the code.
  const approved = (await (await fetch(`${baseUrl}/oauth/approve`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ request, token: mscToken, secret }) })).json()) as { redirect_to: string };
  const code = new URL(approved.redirect_to).searchParams.get("code") ?? "";
  const form = new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: verifier, client_id: reg.client_id, redirect_uri: redirect, resource });
  const tokens = (await (await fetch(`${baseUrl}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form })).json()) as { access_token: string; refresh_token: string };
  return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token, clientId: reg.client_id };
}

/**
 * Registers a client (DCR) under `name` returning to `redirect`, and opens a sign-in for it as a
 * host would: the consent page's code and secret, and the PKCE verifier for the exchange.
 */
export async function openRegisteredSignIn(baseUrl: string, name: string, redirect: string): Promise<{ request: string; secret: string; clientId: string; verifier: string; authorizeUrl: string }> {
  const { createHash, randomBytes } = await import("node:crypto");
  const res = await fetch(`${baseUrl}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: name, redirect_uris: [redirect], token_endpoint_auth_method: "none" }) });
  const reg = (await res.json()) as { client_id: string };
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(reg)}`);
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const q = new URLSearchParams({ response_type: "code", client_id: reg.client_id, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: "S256", resource: `${baseUrl}/mcp/signed-in`, state: "s" });
  const authorizeUrl = `${baseUrl}/oauth/authorize?${q}`;
  const page = await (await fetch(authorizeUrl)).text();
  const request = /data-request="([0-9A-Z]{10})"/.exec(page)?.[1];
  const secret = /data-secret="([A-Za-z0-9_-]+)"/.exec(page)?.[1] ?? "";
  if (!request) throw new Error(`no consent page: ${page.slice(0, 200)}`);
  return { request, secret, clientId: reg.client_id, verifier, authorizeUrl };
}
