// The token endpoint's hygiene (SPEC §8.1): a refresh token presented again after its successor
// was issued revokes the grant (beyond one retry within 60 s), on the provider and on the play
// calls' fast path alike; and a refused token or revocation request writes nothing anywhere.
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { messageOf } from "../support/mcp-wire";
import { machine, type Machine } from "./identity-helpers";
import { codeFor, exchange, fetchAt, LOCAL, playingField, register, signedInCall, token } from "./oauth-helpers";

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown> };

interface SignedIn {
  m: Machine;
  clientId: string;
  access: string;
  refresh: string;
}

async function signIn(): Promise<SignedIn> {
  const m = await machine();
  const c = await codeFor(LOCAL, m);
  const issued = await exchange(LOCAL, c);
  if (!issued.body.access_token || !issued.body.refresh_token) throw new Error(`no tokens: ${JSON.stringify(issued.body)}`);
  return { m, clientId: c.clientId, access: issued.body.access_token, refresh: issued.body.refresh_token };
}

const refresh = (s: SignedIn, refreshToken: string) => token(LOCAL, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: s.clientId });

async function tool(accessToken: string, name: string, args: Record<string, unknown>): Promise<{ status: number; result?: ToolResult }> {
  const res = await signedInCall(LOCAL, accessToken, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: args } });
  if (res.status !== 200) return { status: res.status };
  return { status: 200, result: (await messageOf(res)).result as ToolResult };
}

/** Joins and observes with `accessToken`: the field now holds its vouch. */
async function seated(accessToken: string, gameId: string): Promise<string> {
  const joined = await tool(accessToken, "join", { game_id: gameId, session: "1", model: "test" });
  expect(joined.result?.isError, JSON.stringify(joined.result)).toBeFalsy();
  const agent = String(joined.result?.structuredContent?.agent);
  expect((await tool(accessToken, "observe", { game_id: gameId, agent })).result?.isError).toBeFalsy();
  return agent;
}

/** Moves every replacement of the machine's refresh tokens `ms` into the past (as if that much time went by). */
async function ageReplacements(machineId: string, ms: number): Promise<void> {
  await runInDurableObject(env.IDENTITY.getByName(machineId), (_i, state) => {
    state.storage.sql.exec("UPDATE oauth_refresh SET replaced_at = replaced_at - ? WHERE replaced_at IS NOT NULL", ms);
  });
}

/** Every table of an object and its rows, as JSON (an object that stored nothing has none). */
async function storageOf(name: string): Promise<Record<string, unknown[]>> {
  return runInDurableObject(env.IDENTITY.getByName(name), (_i, state) => {
    const tables = state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'").toArray();
    return Object.fromEntries(tables.map((t) => [t.name, state.storage.sql.exec(`SELECT * FROM "${t.name}"`).toArray()]));
  });
}

describe("refresh token rotation with reuse detection", () => {
  it("a replaced refresh token presented after the retry window revokes the grant and every access token it issued, fast path included", async () => {
    const s = await signIn();
    const gameId = await playingField();
    const agent = await seated(s.access, gameId);
    const rotated = await refresh(s, s.refresh);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const access1 = rotated.body.access_token ?? "";
    const refresh1 = rotated.body.refresh_token ?? "";
    expect((await tool(access1, "observe", { game_id: gameId, agent })).result?.isError).toBeFalsy();

    await ageReplacements(s.m.machineId, 61_000);
    const reused = await refresh(s, s.refresh);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe("invalid_grant");
    expect(reused.body.access_token).toBeUndefined();
    // The grant is gone: the rightful client's newer refresh token and both access tokens are refused,
    // by the provider and by the field that held their vouches.
    expect((await refresh(s, refresh1)).body.error).toBe("invalid_grant");
    expect((await refresh(s, s.refresh)).body.error).toBe("invalid_grant");
    expect((await tool(s.access, "observe", { game_id: gameId, agent })).status).toBe(401);
    expect((await tool(access1, "observe", { game_id: gameId, agent })).status).toBe(401);
    expect((await tool(access1, "reveal", { game_id: gameId, agent, expected_revision: 1, tile: 0, intent: "after reuse" })).status).toBe(401);
    expect((await signedInCall(LOCAL, access1, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(401);
    const stored = await storageOf(s.m.machineId);
    expect(stored.oauth_access).toEqual([]);
    expect(stored.oauth_refresh).toEqual([]);
    expect(await env.OAUTH_KV.get(`grant:${s.m.machineId}:${s.access.split(":")[1]}`)).toBeNull();
  });

  it("a retry within the window works once (a client that lost the answer); a second one revokes the grant", async () => {
    const s = await signIn();
    const first = await refresh(s, s.refresh);
    expect(first.status).toBe(200);
    const retried = await refresh(s, s.refresh);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.refresh_token).toEqual(expect.any(String));
    // The retry's answer is the one the client keeps: it refreshes normally from there.
    const next = await refresh(s, retried.body.refresh_token ?? "");
    expect(next.status).toBe(200);
    const again = await refresh(s, s.refresh);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    expect((await refresh(s, next.body.refresh_token ?? "")).body.error).toBe("invalid_grant");
    expect((await signedInCall(LOCAL, next.body.access_token, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(401);
  });

  it("ordinary rotation is untouched: each new refresh token works in turn", async () => {
    const s = await signIn();
    let current = s.refresh;
    for (let i = 0; i < 4; i++) {
      const r = await refresh(s, current);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      current = r.body.refresh_token ?? "";
    }
    const stored = await storageOf(s.m.machineId);
    expect((stored.oauth_refresh as Array<{ replaced_at: number | null }>).filter((r) => r.replaced_at === null)).toHaveLength(1);
    expect(JSON.stringify(stored.oauth_refresh)).not.toContain(current.split(":")[2]);
  });
});

describe("requests that authenticate nothing write nothing", () => {
  const form = (fields: Record<string, string>) =>
    fetchAt(`${LOCAL}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });

  it("a made-up code, refresh token or revocation naming a machine never seen creates nothing for it", async () => {
    const clientId = await register(LOCAL);
    const stranger = (await machine()).machineId;
    const fake = `${stranger}:${"G".repeat(16)}:${"S".repeat(32)}`;
    const answers = [
      await form({ grant_type: "authorization_code", code: fake, code_verifier: "v".repeat(43), client_id: clientId, redirect_uri: "http://127.0.0.1:9999/callback" }),
      await form({ grant_type: "authorization_code", code: fake, code_verifier: "v".repeat(43), client_id: "no-such-client" }),
      await form({ grant_type: "refresh_token", refresh_token: fake, client_id: clientId }),
      await form({ token: fake, client_id: "no-such-client" }),
      await form({ token: fake, client_id: clientId }),
      await form({ token: fake, token_type_hint: "refresh_token", client_id: clientId }),
    ];
    expect(answers.map((r) => r.status)).toEqual([400, 401, 400, 401, 200, 200]);
    expect(await storageOf(stranger)).toEqual({});
  });

  it("made-up tokens naming a signed-in machine and its real grant change none of its records", async () => {
    const s = await signIn();
    const grantId = s.access.split(":")[1];
    const before = await storageOf(s.m.machineId);
    const fake = `${s.m.machineId}:${grantId}:${"S".repeat(32)}`;
    const other = `${s.m.machineId}:${"H".repeat(16)}:${"S".repeat(32)}`;
    for (const t of [fake, other]) {
      await (await form({ grant_type: "authorization_code", code: t, code_verifier: "v".repeat(43), client_id: s.clientId })).arrayBuffer();
      await (await form({ grant_type: "authorization_code", code: t, code_verifier: "v".repeat(43), client_id: "no-such-client" })).arrayBuffer();
      await (await form({ grant_type: "refresh_token", refresh_token: t, client_id: s.clientId })).arrayBuffer();
      await (await form({ token: t, client_id: "no-such-client" })).arrayBuffer();
      await (await form({ token: t, client_id: s.clientId })).arrayBuffer();
    }
    // A real token revoked by a caller that is not its client: refused, nothing mirrored.
    await (await form({ token: s.access, client_id: "no-such-client" })).arrayBuffer();
    expect(await storageOf(s.m.machineId)).toEqual(before);
    expect(before.oauth_revoked ?? []).toEqual([]);
    expect((await signedInCall(LOCAL, s.access, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(200);
    expect((await refresh(s, s.refresh)).status).toBe(200);
  });
});
