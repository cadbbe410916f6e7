// Pending sign-ins are swept when they expire (SPEC §8.1): each lives in its own identity object,
// whose alarm at the request's expiry deletes it; an expired request, approved or not, never
// hands out its code.
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SIGNIN_TTL_MS, signInStub } from "../../src/oauth/signin-requests";
import type { Env } from "../../src/env";
import { machine } from "./identity-helpers";
import { approve, approveBody, authorize, CALLBACK, fetchAt, LOCAL, pkce, register } from "./oauth-helpers";

const workerEnv = env as unknown as Env;

async function openRequest(): Promise<string> {
  const clientId = await register(LOCAL);
  const { challenge } = await pkce();
  const page = await authorize(LOCAL, { client_id: clientId, code_challenge: challenge, code_challenge_method: "S256" });
  if (!page.request) throw new Error(`no consent page: ${page.status}`);
  return page.request;
}

/** The object's tables (outside the platform's own) and its alarm. */
async function storedBy(id: string): Promise<{ tables: string[]; alarm: number | null }> {
  return runInDurableObject(signInStub(workerEnv, id), async (_i, state) => ({
    tables: state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'")
      .toArray()
      .map((r) => r.name),
    alarm: await state.storage.getAlarm(),
  }));
}

async function expireNow(id: string): Promise<void> {
  await runInDurableObject(signInStub(workerEnv, id), (_i, state) => {
    state.storage.sql.exec("UPDATE signin_requests SET expires_at = ?", Date.now() - 1_000);
  });
}

describe("pending sign-ins expire and are deleted", () => {
  it("each request's object sets an alarm at its expiry", async () => {
    const before = Date.now();
    const id = await openRequest();
    const stored = await storedBy(id);
    expect(stored.tables).toEqual(["signin_requests"]);
    expect(stored.alarm).toBeGreaterThanOrEqual(before + SIGNIN_TTL_MS);
    expect(stored.alarm).toBeLessThanOrEqual(Date.now() + SIGNIN_TTL_MS);
    // An alarm before the expiry (a platform retry) keeps the request and waits again.
    expect(await runDurableObjectAlarm(signInStub(workerEnv, id))).toBe(true);
    expect((await signInStub(workerEnv, id).signInState(id, Date.now()))?.status).toBe("pending");
    expect((await storedBy(id)).alarm).toBe(stored.alarm);
  });

  it("an approved request past its expiry answers expired, without its code, and its object deletes itself", async () => {
    const id = await openRequest();
    const approved = await approve(LOCAL, await approveBody(LOCAL, await machine(), id));
    expect(approved.status).toBe(200);
    const stub = signInStub(workerEnv, id);
    expect((await stub.signInState(id, Date.now()))?.status).toBe("approved");
    await expireNow(id);
    const state = await stub.signInState(id, Date.now());
    expect(state).toEqual({ status: "expired" });
    expect(JSON.stringify(state)).not.toContain("code=");
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await storedBy(id)).toEqual({ tables: [], alarm: null });
    expect(await stub.signInState(id, Date.now())).toBeNull();
  });

  it("an unapproved request past its expiry cannot be approved, and is deleted too", async () => {
    const id = await openRequest();
    await expireNow(id);
    const late = await approve(LOCAL, await approveBody(LOCAL, await machine(), id));
    expect(late.status).not.toBe(200);
    expect(late.body.redirect_to).toBeUndefined();
    expect(await runDurableObjectAlarm(signInStub(workerEnv, id))).toBe(true);
    expect(await storedBy(id)).toEqual({ tables: [], alarm: null });
  });

  it("anonymous consent pages are bounded: an address past the sign-in limit opens no more", async () => {
    const clientId = await register(LOCAL);
    const { challenge } = await pkce();
    const q = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge, code_challenge_method: "S256", resource: `${LOCAL}/mcp/signed-in` });
    const statuses: number[] = [];
    // LIMIT_KEYS allows 20 a minute per address; a window's end may let a few more through.
    for (let i = 0; i < 60 && !statuses.includes(429); i++) {
      const res = await fetchAt(`${LOCAL}/oauth/authorize?${q}`, { headers: { "CF-Connecting-IP": "192.0.2.201" } });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(20);
  });
});
