// Signing in from a host that only knows "URL + sign in" (SPEC §8.1), through the official MCP SDK
// client's OAuth support against `wrangler dev`, the consent page driven in headless Chromium:
// discovery from the 401, a metadata-document client and a registered one, PKCE, each way to
// approve, then playing as that machine, refresh, and revocation refusing the next call.
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { browserPerFile, openPage, PHONE, type WatchedPage } from "../support/browser";
import { connectClient, type McpClient } from "../support/mcp-clients";
import { mintToken, newMachine } from "../support/identity";
import { callbackServer, localCertificate, MemoryOAuthClient, metadataServer } from "../support/oauth";
import { startDevServer, type DevServer } from "../support/wrangler-dev";
import { startPlaying } from "./play-helpers";
import type { Field } from "../../src/engine/types";

const run = promisify(execFile);
// The shortest lifetime the provider takes (KV's minimum expiry): the refresh step waits it out.
const ACCESS_TTL_S = 60;
const browser = browserPerFile();
let server: DevServer;
let callback: Awaited<ReturnType<typeof callbackServer>>;
let metadata: Awaited<ReturnType<typeof metadataServer>>;
let anonymous: McpClient;
let game: { gameId: string; field: Field };

beforeAll(async () => {
  const tls = localCertificate();
  process.env.NODE_EXTRA_CA_CERTS = tls.caFile;
  metadata = await metadataServer(tls);
  callback = await callbackServer();
  server = await startDevServer({ vars: { MOSAIC_OAUTH_ACCESS_TTL: String(ACCESS_TTL_S) } });
  anonymous = await connectClient(server.baseUrl);
  game = await startPlaying(anonymous, { kind: "grid", G: 27, n: 14 });
});
afterAll(async () => {
  await anonymous?.close();
  await server?.stop();
  await callback?.close();
  await metadata?.close();
});

const signedInUrl = () => new URL(`${server.baseUrl}/mcp/signed-in`);

/** The SDK's own flow: connect, get the 401, discover, (register,) and send the person to the consent page. */
async function signIn(provider: MemoryOAuthClient, approve: (authUrl: URL) => Promise<void>): Promise<Client> {
  const first = new StreamableHTTPClientTransport(signedInUrl(), { authProvider: provider });
  const refused = await new Client({ name: "oauth-e2e", version: "1.0.0" }).connect(first).then(() => null, (e: unknown) => e);
  expect(refused, String(refused)).toBeInstanceOf(UnauthorizedError);
  const authUrl = provider.authorizationUrls.at(-1);
  if (!authUrl) throw new Error("the SDK did not ask for authorization");
  expect(authUrl.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authUrl.searchParams.get("resource")).toBe(signedInUrl().href);
  const back = callback.next();
  await approve(authUrl);
  const answer = await Promise.race([back, new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the consent page never sent the browser back to the client")), 30_000))]);
  expect(answer.searchParams.get("iss")).toBe(server.baseUrl);
  await first.finishAuth(answer.searchParams.get("code") ?? "");
  const client = new Client({ name: "oauth-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(signedInUrl(), { authProvider: provider }));
  return client;
}

async function consentPage(authUrl: URL, phone = false): Promise<WatchedPage> {
  const page = await openPage(browser(), server.baseUrl, authUrl.pathname + authUrl.search, phone ? { viewport: PHONE, isMobile: true, hasTouch: true } : {});
  await page.page.waitForSelector("#approve-browser:not([disabled])");
  return page;
}

type Structured = Record<string, unknown>;
async function call(client: Client, name: string, args: Structured): Promise<{ isError: boolean; s: Structured; text: string }> {
  const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: Structured; content?: Array<{ text?: string }> };
  return { isError: r.isError === true, s: r.structuredContent ?? {}, text: r.content?.[0]?.text ?? "" };
}

/** join with no identity fields, reveal the seed tile, commit its cells: the grant proves the machine. */
async function play(client: Client, session: string): Promise<{ agent: string; machineId: string }> {
  const joined = await call(client, "join", { game_id: game.gameId, session, model: "scripted" });
  expect(joined.isError, joined.text).toBe(false);
  expect(joined.s.verified).toBe(true);
  const agent = String(joined.s.agent);
  const tileId = Number(joined.s.seed_tile);
  const revealed = await call(client, "reveal", { game_id: game.gameId, agent, expected_revision: joined.s.revision, tile: tileId, intent: "seed" });
  expect(revealed.isError, revealed.text).toBe(false);
  const tile = game.field.tiles[tileId];
  const given = new Set(tile.givens);
  const cells = tile.cellIds.filter((c) => !given.has(c)).slice(0, 20).map((c) => [c, game.field.solution[c]]);
  const committed = await call(client, "commit", { game_id: game.gameId, agent, expected_revision: revealed.s.revision, cells, intent: "from the oracle" });
  expect(committed.isError, committed.text).toBe(false);
  expect(committed.s.rejected).toEqual([]);
  expect((committed.s.accepted as unknown[]).length).toBeGreaterThan(0);
  return { agent, machineId: agent.split("/")[0] };
}

/** After a revocation: the access token is refused at once (401 invalid_token), the SDK's refresh fails, nothing new is issued. */
async function expectRevoked(client: Client, provider: MemoryOAuthClient): Promise<void> {
  const issued = provider.saved.length;
  const token = provider.saved.at(-1)?.access_token;
  const raw = await fetch(signedInUrl(), { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
  expect(raw.status).toBe(401);
  expect(raw.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
  await expect(client.callTool({ name: "observe", arguments: { game_id: game.gameId } })).rejects.toThrow(/Grant not found|invalid_grant|Unauthorized/i);
  expect(provider.saved.length).toBe(issued);
}

describe("the signed-in URL through the MCP SDK's OAuth client", () => {
  it("a metadata-document client signs in with this browser's key, plays, refreshes, and is refused after revocation", { timeout: 240_000 }, async () => {
    const clientId = metadata.serve("/oauth/mosaic-test-client.json", (origin) => ({
      client_id: `${origin}/oauth/mosaic-test-client.json`,
      client_name: "Test Host",
      redirect_uris: [callback.url],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    }));
    const provider = new MemoryOAuthClient(callback.url, { clientMetadataUrl: clientId });
    let consent: WatchedPage | undefined;
    const client = await signIn(provider, async (authUrl) => {
      expect(authUrl.searchParams.get("client_id")).toBe(clientId);
      consent = await consentPage(authUrl);
      const text = await consent.page.textContent("main");
      expect(text).toContain(`${new URL(metadata.origin).host} (its metadata document's host)`);
      expect(text).toContain("It calls itself “Test Host” (self-declared, not verified)");
      await consent.page.fill("#name", "Browser machine");
      await consent.page.click("#approve-browser");
    });
    expect(metadata.fetched).toContain("/oauth/mosaic-test-client.json");
    expect(consent?.errors).toEqual([]);
    expect(consent?.foreignRequests.filter((u) => !u.startsWith(callback.url))).toEqual([]);

    const me = await play(client, "oauth-1");
    const named = await fetch(`${server.baseUrl}/api/keys/${me.machineId}`).then((r) => r.json() as Promise<{ name: string }>);
    expect(named.name).toBe("Browser machine");

    // The access token expires; the SDK gets a 401, refreshes (the refresh token rotates) and goes on.
    const before = provider.saved.length;
    await new Promise((r) => setTimeout(r, (ACCESS_TTL_S + 1) * 1000));
    const expired = await fetch(signedInUrl(), { method: "POST", headers: { authorization: `Bearer ${provider.saved.at(-1)?.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
    const o = await call(client, "observe", { game_id: game.gameId, agent: me.agent });
    expect(o.isError, o.text).toBe(false);
    expect(provider.saved.length).toBe(before + 1);
    expect(provider.saved.at(-1)?.refresh_token).not.toBe(provider.saved.at(-2)?.refresh_token);

    // The machine lists its grants and revokes this one, signing with the key this browser keeps
    // (on the server's origin, whose storage holds it: the page is at the client's callback now).
    await consent!.page.goto(`${server.baseUrl}/identity`);
    const revoked = await consent!.page.evaluate(async (clientIdUrl) => {
      const key = await new Promise<{ privateKey: CryptoKey; raw: string }>((resolve, reject) => {
        const open = indexedDB.open("mosaic-identity", 1);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          try {
            const get = open.result.transaction("keys").objectStore("keys").get("machine");
            get.onsuccess = () => resolve(get.result);
            get.onerror = () => reject(get.error);
          } catch (err) {
            reject(err);
          }
        };
      });
      const sign = async (m: string) => btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.sign("Ed25519", key.privateKey, new TextEncoder().encode(m)))));
      const post = (path: string, body: unknown) => fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json());
      let ts = Math.floor(Date.now() / 1000);
      const list = (await post("/api/keys/grants", { publicKey: key.raw, ts, sig: await sign(`mosaic-oauth-grants:${location.host}:${ts}`) })) as { grants: Array<{ grant: string; client_id: string }> };
      const grant = list.grants.find((g) => g.client_id === clientIdUrl)?.grant ?? "";
      ts++;
      return post("/api/keys/grants/revoke", { publicKey: key.raw, ts, grant, sig: await sign(`mosaic-oauth-revoke:${location.host}:${ts}:${grant}`) });
    }, clientId);
    expect(revoked).toMatchObject({ machine_id: me.machineId, revoked: expect.any(String) });
    await expectRevoked(client, provider);
    await consent!.context.close();
  });

  it("a registered client signs in with the key file (the page continues by itself), then the CLI revokes it", async () => {
    const keyFile = join(mkdtempSync(join(tmpdir(), "mosaic-oauth-key-")), "identity.json");
    const cli = (...args: string[]) => run(process.execPath, ["scripts/mosaic-identity.mjs", ...args, "--file", keyFile]);
    await cli("init");
    const provider = new MemoryOAuthClient(callback.url, { name: "Registered Host" });
    const client = await signIn(provider, async (authUrl) => {
      const consent = await consentPage(authUrl);
      expect(await consent.page.textContent("main")).toContain(`a client registered here, sending you back to ${new URL(callback.url).host}`);
      const code = (await consent.page.textContent("#code")) ?? "";
      expect(await consent.page.textContent("#command")).toBe(`npm run identity -- approve ${code} ${server.baseUrl}`);
      // Without a terminal to confirm on, the CLI approves only with --yes (the flag for scripts).
      const approved = await cli("approve", code, server.baseUrl, "--yes");
      expect(approved.stdout).toMatch(/^approved: m-[0-9a-f]{16} is signed in/);
    });
    expect(provider.info?.client_id).toMatch(/^[A-Za-z0-9_-]{8,}$/); // registered (RFC 7591), not a URL
    const me = await play(client, "oauth-2");
    const grants = JSON.parse((await cli("grants", server.baseUrl)).stdout) as { machine_id: string; grants: Array<{ grant: string; client_id: string }> };
    expect(grants.machine_id).toBe(me.machineId);
    const grant = grants.grants.find((g) => g.client_id === provider.info?.client_id);
    expect(grant).toBeDefined();
    await cli("revoke", server.baseUrl, grant!.grant);
    await expectRevoked(client, provider);
  });

  it("a pasted token signs in as its machine; minting a new token does not end the grant", async () => {
    const machine = newMachine();
    const token = await mintToken(server.baseUrl, machine);
    const provider = new MemoryOAuthClient(callback.url, { name: "Token Host" });
    const client = await signIn(provider, async (authUrl) => {
      // On a phone: everything fits the width, the buttons are large enough to tap.
      const consent = await consentPage(authUrl, true);
      expect(await consent.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      expect((await consent.page.locator("#approve-token").boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
      await consent.page.fill("#token", token);
      await consent.page.click("#approve-token");
    });
    const me = await play(client, "oauth-3");
    expect(me.machineId).toBe(machine.machineId);
    await mintToken(server.baseUrl, machine);
    const o = await call(client, "observe", { game_id: game.gameId, agent: me.agent });
    expect(o.isError, o.text).toBe(false);
    const again = await call(client, "commit", { game_id: game.gameId, agent: me.agent, expected_revision: 0, cells: [[game.field.tiles[0].cellIds[0], 0]], intent: "still me" });
    expect((again.s.error as { code?: string } | undefined)?.code).not.toBe("token");
  });

  it("metadata documents: a redirect is not followed, an oversized one and an unlisted redirect URI are refused", async () => {
    const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    const page = async (clientId: string, redirect = callback.url) => {
      const q = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: "S256", resource: signedInUrl().href, state: "s" });
      const res = await fetch(`${server.baseUrl}/oauth/authorize?${q}`, { redirect: "manual" });
      return { status: res.status, location: res.headers.get("location"), html: await res.text() };
    };
    const good = metadata.serve("/oauth/good.json", (origin) => ({ client_id: `${origin}/oauth/good.json`, client_name: "Good", redirect_uris: [callback.url] }));
    const moved = metadata.serve("/oauth/moved.json", "", 302, { location: good });
    const big = metadata.serve("/oauth/big.json", (origin) => ({ client_id: `${origin}/oauth/big.json`, redirect_uris: [callback.url], padding: "x".repeat(6000) }));
    const redirected = await page(moved);
    expect(redirected.status).toBe(400);
    expect(redirected.html).toContain("redirects are not followed");
    const oversized = await page(big);
    expect(oversized.status).toBe(400);
    expect(oversized.html).toContain("larger than 5120 bytes");
    const unlisted = await page(good, "http://127.0.0.1:9/elsewhere");
    expect(unlisted.status).toBe(400);
    expect(unlisted.location).toBeNull();
    expect(unlisted.html).toMatch(/invalid_request/);
    expect((await page(good)).html).toContain('data-request="');
  });
});
