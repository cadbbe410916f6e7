// The signed-in URL and its authorization server (SPEC §8.1) in workerd: discovery, /mcp left as
// it was, and each refusal answered with its OAuth error while nothing is issued.
import { describe, expect, it } from "vitest";
import { machine } from "./identity-helpers";
import { grantsBody, revokeBody } from "./oauth-grant-requests";
import { approve, approveBody, authorize, CALLBACK, codeFor, exchange, fetchAt, LOCAL, pkce, PUBLIC, register, signedInCall, token } from "./oauth-helpers";

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "oauth-test", version: "1" } } };

describe("discovery", () => {
  it("the signed-in URL answers 401 naming its resource metadata; /mcp never does", async () => {
    const res = await signedInCall(LOCAL, undefined, INIT);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer realm="OAuth", resource_metadata="${LOCAL}/.well-known/oauth-protected-resource/mcp/signed-in"`);
    const plain = await fetchAt(`${LOCAL}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(INIT) });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("www-authenticate")).toBeNull();
  });

  it("publishes RFC 9728 and RFC 8414 metadata with metadata documents supported", async () => {
    const prm = (await (await fetchAt(`${PUBLIC}/.well-known/oauth-protected-resource/mcp/signed-in`)).json()) as Record<string, unknown>;
    expect(prm).toMatchObject({ resource: `${PUBLIC}/mcp/signed-in`, authorization_servers: [PUBLIC] });
    const as = (await (await fetchAt(`${PUBLIC}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: PUBLIC,
      authorization_endpoint: `${PUBLIC}/oauth/authorize`,
      token_endpoint: `${PUBLIC}/oauth/token`,
      registration_endpoint: `${PUBLIC}/oauth/register`,
      code_challenge_methods_supported: ["S256"],
      response_types_supported: ["code"],
      client_id_metadata_document_supported: true,
    });
    const other = await fetchAt(`${PUBLIC}/.well-known/openid-configuration`);
    expect(other.status).toBe(404);
    expect(other.headers.get("content-type")).toContain("application/json");
  });
});

describe("refusals, each with its OAuth error and nothing issued", () => {
  it("a wrong PKCE verifier: invalid_grant", async () => {
    const c = await codeFor(LOCAL, await machine());
    const wrong = await exchange(LOCAL, { ...c, verifier: (await pkce()).verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_grant");
    expect(wrong.body.access_token).toBeUndefined();
  });

  it("a code used twice: invalid_grant the second time", async () => {
    const c = await codeFor(LOCAL, await machine());
    const first = await exchange(LOCAL, c);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.access_token).toEqual(expect.any(String));
    const again = await exchange(LOCAL, c);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    expect(again.body.access_token).toBeUndefined();
  });

  it("a redirect URI the client did not register: refused on the page, never redirected, no sign-in opened", async () => {
    const clientId = await register(LOCAL);
    const { challenge } = await pkce();
    const page = await authorize(LOCAL, { client_id: clientId, code_challenge: challenge, code_challenge_method: "S256", redirect_uri: "https://attacker.example/cb" });
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    expect(page.request).toBeNull();
    expect(page.html).toContain("invalid_request");
  });

  it("a foreign resource: invalid_target back to the client, and at the token endpoint", async () => {
    const clientId = await register(LOCAL);
    const { challenge } = await pkce();
    const page = await authorize(LOCAL, { client_id: clientId, code_challenge: challenge, code_challenge_method: "S256", resource: "https://other.example/mcp" });
    expect(page.status).toBe(302);
    const back = new URL(page.location ?? "");
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    expect(back.searchParams.get("error")).toBe("invalid_target");
    expect(back.searchParams.get("state")).toBe("st4te");
    expect(page.request).toBeNull();
    const c = await codeFor(LOCAL, await machine());
    const foreign = await exchange(LOCAL, c, { resource: "https://other.example/mcp" });
    expect(foreign.body.error).toBe("invalid_target");
    expect(foreign.body.access_token).toBeUndefined();
  });

  it("PKCE is required, and only S256", async () => {
    const clientId = await register(LOCAL);
    const none = await authorize(LOCAL, { client_id: clientId });
    const plain = await authorize(LOCAL, { client_id: clientId, code_challenge: "x".repeat(43), code_challenge_method: "plain" });
    for (const page of [none, plain]) {
      expect(page.request).toBeNull();
      expect(new URL(page.location ?? "http://x/").searchParams.get("error") ?? page.html).toMatch(/invalid_request/);
    }
  });

  it("a metadata URL on a private address, on a public server: invalid_client, nothing fetched or stored", async () => {
    const { challenge } = await pkce();
    for (const clientId of ["https://10.0.0.7/client.json", "https://169.254.169.254/latest/meta-data", "https://localhost/client.json", "https://[::1]/c.json", "http://client.example/c.json"]) {
      const page = await authorize(PUBLIC, { client_id: clientId, code_challenge: challenge, code_challenge_method: "S256" });
      expect(page.status, clientId).toBe(400);
      expect(page.html).toContain("invalid_client");
      expect(page.request).toBeNull();
      const t = await token(PUBLIC, { grant_type: "authorization_code", code: "x", code_verifier: "y".repeat(43), client_id: clientId, redirect_uri: CALLBACK });
      expect(t.status).toBe(401);
      expect(t.body.error).toBe("invalid_client");
    }
  });

  it("a replayed approval signature: refused, and a signature for another sign-in does not approve this one", async () => {
    const m = await machine();
    const clientId = await register(LOCAL);
    const { challenge } = await pkce();
    const first = await authorize(LOCAL, { client_id: clientId, code_challenge: challenge, code_challenge_method: "S256" });
    const second = await authorize(LOCAL, { client_id: clientId, code_challenge: challenge, code_challenge_method: "S256" });
    const body = await approveBody(LOCAL, m, first.request ?? "");
    expect((await approve(LOCAL, body)).status).toBe(200);
    const replay = await approve(LOCAL, body);
    expect(replay.status).toBe(409);
    expect(replay.body.error?.code).toBe("replayed");
    expect(replay.body.redirect_to).toBeUndefined();
    const moved = await approve(LOCAL, { ...body, request: second.request });
    expect(moved.status).toBe(401);
    expect(moved.body.error?.code).toBe("bad_signature");
    const stale = await approve(LOCAL, await approveBody(LOCAL, m, second.request ?? "", Math.floor(Date.now() / 1000) - 3600));
    expect(stale.body.error?.code).toBe("stale_timestamp");
  });

  it("a revoked grant's token: 401 invalid_token at once, and its refresh token is dead", async () => {
    const m = await machine();
    const c = await codeFor(LOCAL, m);
    const issued = await exchange(LOCAL, c);
    expect((await signedInCall(LOCAL, issued.body.access_token, INIT)).status).toBe(200);
    const listed = await fetchAt(`${LOCAL}/api/keys/grants`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(await grantsBody(LOCAL, m)) });
    const grants = ((await listed.json()) as { grants: Array<{ grant: string; client_id: string }> }).grants;
    expect(grants.map((g) => g.client_id)).toEqual([c.clientId]);
    const revoked = await fetchAt(`${LOCAL}/api/keys/grants/revoke`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(await revokeBody(LOCAL, m, grants[0].grant)) });
    expect(revoked.status).toBe(200);
    const after = await signedInCall(LOCAL, issued.body.access_token, INIT);
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const refresh = await token(LOCAL, { grant_type: "refresh_token", refresh_token: issued.body.refresh_token ?? "", client_id: c.clientId });
    expect(refresh.body.error).toBe("invalid_grant");
    expect(refresh.body.access_token).toBeUndefined();
  });

  it("a signed-in token is not a bearer token of /mcp (its audience is the signed-in URL)", async () => {
    const issued = await exchange(LOCAL, await codeFor(LOCAL, await machine()));
    const res = await fetchAt(`${LOCAL}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${issued.body.access_token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "join", arguments: { game_id: "nope" } } }),
    });
    const answer = (await res.json()) as { result: { isError: boolean; structuredContent: { error: { code: string; message: string } } } };
    expect(res.status).toBe(200);
    expect(answer.result.isError).toBe(true);
    expect(answer.result.structuredContent.error).toMatchObject({ code: "token", message: expect.stringMatching(/^Unknown bearer token: this server did not mint it/) });
  });
});
