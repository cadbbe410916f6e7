// A signed-in call of a play tool takes the bearer token's path (SPEC §8.1, docs/signin.md): the
// access token's hash, recorded by the machine's identity object when it was issued, is vouched
// for and held by the field. These tests hold that path to the provider's word: a revoked, expired,
// forged or foreign token is refused on the next call with the provider's 401, held vouch or not.
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { messageOf } from "../support/mcp-wire";
import { machine, type Machine } from "./identity-helpers";
import { grantsBody, revokeBody } from "./oauth-grant-requests";
import { codeFor, exchange, fetchAt, LOCAL, playingField, signedInCall, token } from "./oauth-helpers";

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown> };

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fast-path-test", version: "1" } } };

/** A tool call at the signed-in URL: its HTTP status, and its result when it has one. */
async function tool(accessToken: string, name: string, args: Record<string, unknown>): Promise<{ status: number; result?: ToolResult; challenge: string | null }> {
  const res = await signedInCall(LOCAL, accessToken, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: args } });
  const challenge = res.headers.get("www-authenticate");
  if (res.status !== 200) return { status: res.status, challenge };
  return { status: 200, result: (await messageOf(res)).result as ToolResult, challenge };
}

interface SignedIn {
  m: Machine;
  clientId: string;
  access: string;
  refresh: string;
}

async function signIn(m?: Machine): Promise<SignedIn> {
  const who = m ?? (await machine());
  const c = await codeFor(LOCAL, who);
  const issued = await exchange(LOCAL, c);
  if (!issued.body.access_token || !issued.body.refresh_token) throw new Error(`no tokens: ${JSON.stringify(issued.body)}`);
  return { m: who, clientId: c.clientId, access: issued.body.access_token, refresh: issued.body.refresh_token };
}

/** Joins and observes: the field now holds the vouch for the access token. */
async function seated(s: SignedIn, gameId: string): Promise<string> {
  const joined = await tool(s.access, "join", { game_id: gameId, session: "1", model: "test" });
  expect(joined.result?.isError, JSON.stringify(joined.result)).toBeFalsy();
  const agent = String(joined.result?.structuredContent?.agent);
  expect((await tool(s.access, "observe", { game_id: gameId, agent })).result?.isError).toBeFalsy();
  return agent;
}

async function grantOf(s: SignedIn): Promise<string> {
  const listed = await fetchAt(`${LOCAL}/api/keys/grants`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(await grantsBody(LOCAL, s.m)) });
  return ((await listed.json()) as { grants: Array<{ grant: string }> }).grants[0].grant;
}

function expectInvalidToken(answer: { status: number; challenge: string | null }): void {
  expect(answer.status).toBe(401);
  expect(answer.challenge).toContain('error="invalid_token"');
}

/** The provider's KV record of an access token (`token:<user>:<grant>:<SHA-256 of the token>`). */
async function kvKeyOf(accessToken: string): Promise<string> {
  const [user, grant] = accessToken.split(":");
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(accessToken)));
  return `token:${user}:${grant}:${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

async function accessRows(machineId: string): Promise<Array<{ hash: string; grant_id: string; machine_id: string; expires_at: number }>> {
  return runInDurableObject(env.IDENTITY.getByName(machineId), (_instance, state) =>
    state.storage.sql.exec<{ hash: string; grant_id: string; machine_id: string; expires_at: number }>("SELECT hash, grant_id, machine_id, expires_at FROM oauth_access").toArray(),
  );
}

describe("signed-in play calls on the bearer token's path", () => {
  it("an issued access token is recorded by its machine as a hash, and a play call needs no provider record", async () => {
    const s = await signIn();
    const rows = await accessRows(s.m.machineId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ machine_id: s.m.machineId, grant_id: s.access.split(":")[1], hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(rows)).not.toContain(s.access.split(":")[2]);
    expect(rows[0].expires_at).toBeGreaterThan(Date.now() + 800_000);
    expect(rows[0].expires_at).toBeLessThanOrEqual(Date.now() + 900_000);
    const gameId = await playingField();
    // Without the provider's record the provider refuses the token, and every call that is not a
    // play tool's still goes to it; a play tool's call is proven by the field from the identity object.
    await env.OAUTH_KV.delete(await kvKeyOf(s.access));
    expectInvalidToken(await signedInCall(LOCAL, s.access, INIT).then((r) => ({ status: r.status, challenge: r.headers.get("www-authenticate") })));
    const joined = await tool(s.access, "join", { game_id: gameId, session: "1", model: "test" });
    expect(joined.status).toBe(200);
    expect(joined.result?.isError, JSON.stringify(joined.result)).toBeFalsy();
    expect(joined.result?.structuredContent?.agent).toBe(`${s.m.machineId}/1`);
  });

  it("a revoked grant is refused on the very next call, by a field that held its vouch too", async () => {
    const s = await signIn();
    const gameId = await playingField();
    const agent = await seated(s, gameId);
    const revoked = await fetchAt(`${LOCAL}/api/keys/grants/revoke`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(await revokeBody(LOCAL, s.m, await grantOf(s))) });
    expect(revoked.status).toBe(200);
    expect(await accessRows(s.m.machineId)).toEqual([]);
    expectInvalidToken(await tool(s.access, "observe", { game_id: gameId, agent }));
    expectInvalidToken(await tool(s.access, "reveal", { game_id: gameId, agent, expected_revision: 1, tile: 0, intent: "after revocation" }));
  });

  it("an access token revoked by its client (RFC 7009) is refused next, held vouch or not; a reused code ends the grant's tokens too", async () => {
    const s = await signIn();
    const gameId = await playingField();
    const agent = await seated(s, gameId);
    const res = await fetchAt(`${LOCAL}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token: s.access, client_id: s.clientId }).toString() });
    expect(res.status).toBe(200);
    expectInvalidToken(await tool(s.access, "observe", { game_id: gameId, agent }));

    const m = await machine();
    const c = await codeFor(LOCAL, m);
    const first = await exchange(LOCAL, c);
    const other = { m, clientId: c.clientId, access: first.body.access_token ?? "", refresh: first.body.refresh_token ?? "" };
    const agent2 = await seated(other, gameId);
    expect((await exchange(LOCAL, c)).body.error).toBe("invalid_grant");
    expectInvalidToken(await tool(other.access, "observe", { game_id: gameId, agent: agent2 }));
  });

  it("an expired access token is refused, though the field held its vouch", async () => {
    const s = await signIn();
    const gameId = await playingField();
    // Both records expire in two seconds: the provider's (KV) and the identity object's.
    const soon = Date.now() + 2_000;
    const key = await kvKeyOf(s.access);
    const record = (await env.OAUTH_KV.get(key, { type: "json" })) as Record<string, unknown>;
    await env.OAUTH_KV.put(key, JSON.stringify({ ...record, expiresAt: Math.floor(soon / 1000) }));
    await runInDurableObject(env.IDENTITY.getByName(s.m.machineId), (_i, state) => {
      state.storage.sql.exec("UPDATE oauth_access SET expires_at = ?", soon);
    });
    const agent = await seated(s, gameId);
    await new Promise((r) => setTimeout(r, Math.max(0, soon - Date.now()) + 1_100));
    expectInvalidToken(await tool(s.access, "observe", { game_id: gameId, agent }));
  });

  it("after a refresh the new token takes the path at once and the old one lives until it expires, as the provider says", async () => {
    const s = await signIn();
    const gameId = await playingField();
    const agent = await seated(s, gameId);
    const refreshed = await token(LOCAL, { grant_type: "refresh_token", refresh_token: s.refresh, client_id: s.clientId });
    const fresh = refreshed.body.access_token ?? "";
    expect(fresh).not.toBe(s.access);
    expect((await accessRows(s.m.machineId)).map((r) => r.grant_id)).toEqual([s.access.split(":")[1], s.access.split(":")[1]]);
    expect((await tool(fresh, "observe", { game_id: gameId, agent })).result?.isError).toBeFalsy();
    // The provider does not revoke an access token on refresh: the old one still works, both ways.
    expect((await tool(s.access, "observe", { game_id: gameId, agent })).result?.isError).toBeFalsy();
    expect((await signedInCall(LOCAL, s.access, INIT)).status).toBe(200);
  });

  it("a forged token (right shape, wrong secret) is refused and changes nothing", async () => {
    const s = await signIn();
    const gameId = await playingField();
    const agent = await seated(s, gameId);
    const [user, grant] = s.access.split(":");
    const forged = `${user}:${grant}:${"A".repeat(32)}`;
    expectInvalidToken(await tool(forged, "observe", { game_id: gameId, agent }));
    expectInvalidToken(await tool(forged, "reveal", { game_id: gameId, agent, expected_revision: 1, tile: 0, intent: "forged" }));
    expectInvalidToken(await tool(forged, "join", { game_id: gameId, session: "2", model: "forged" }));
    // Refused at the edge (malformed JSON): the provider checks the token first, as it always did.
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const broken = await fetchAt(`${LOCAL}/mcp/signed-in`, { method: "POST", headers: { ...headers, authorization: `Bearer ${forged}` }, body: "{not json" });
    expectInvalidToken({ status: broken.status, challenge: broken.headers.get("www-authenticate") });
    expect((await fetchAt(`${LOCAL}/mcp/signed-in`, { method: "POST", headers: { ...headers, authorization: `Bearer ${s.access}` }, body: "{not json" })).status).toBe(400);
    const seen = await tool(s.access, "observe", { game_id: gameId, agent });
    const tiles = (seen.result?.structuredContent?.observation as { tiles: Array<{ status: string }> }).tiles;
    expect(tiles.filter((t) => t.status !== "hidden")).toEqual([]);
  });

  it("a token of machine A cannot act as machine B", async () => {
    const a = await signIn();
    const b = await signIn();
    const gameId = await playingField();
    const agentB = await seated(b, gameId);
    await seated(a, gameId);
    // A's token with B's id in its text: unknown to B's identity object, refused by the provider.
    const relabelled = [b.m.machineId, ...a.access.split(":").slice(1)].join(":");
    expectInvalidToken(await tool(relabelled, "observe", { game_id: gameId, agent: agentB }));
    expectInvalidToken(await tool(relabelled, "join", { game_id: gameId, session: "9", model: "as b" }));
    // A's own token writing for B's agent, or joining as B: refused as A.
    const write = await tool(a.access, "reveal", { game_id: gameId, agent: agentB, expected_revision: 1, tile: 0, intent: "as b" });
    expect(write.status).toBe(200);
    expect(write.result?.isError).toBe(true);
    const join = await tool(a.access, "join", { game_id: gameId, session: "9", model: "as b", machine_id: b.m.machineId });
    expect(join.result?.isError).toBe(true);
    expect((join.result?.structuredContent?.error as { code: string }).code).toBe("identity");
  });

  it("a call the provider serves after the fast way looked at it counts once against the machine's limit", async () => {
    const s = await signIn();
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${s.access}`, "CF-Connecting-IP": "203.0.113.7" };
    const statuses: number[] = [];
    // The machine's limit is 100 calls in 10 s (wrangler.toml): counted twice, the 51st would be refused.
    for (let i = 0; i < 100; i++) {
      const res = await fetchAt(`${LOCAL}/mcp/signed-in`, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/list" }) });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});
