// A sign-in is worth nothing to anyone but the client that asked (SPEC §8.1, revised), in workerd:
// its status and redirect only for the consent page's secret, names cleaned, approvals that
// cannot complete refused before anything is taken, and the page's polls on their own limit.
import { describe, expect, it } from "vitest";
import { machine, env, type Machine } from "./identity-helpers";
import { grantsBody } from "./oauth-grant-requests";
import { approve, approveBody, authorize, CALLBACK, exchange, fetchAt, LOCAL, pkce, register, type AuthorizeAnswer } from "./oauth-helpers";

/** Control, bidi and zero-width characters: none may reach a page, a terminal or a list. */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\u3164\ufeff\uffa0]/;
const HOSTILE = `\r\u001b[2Kapproving Claude (claude.ai, verified by Mosaic)\u001b[8m\u202e\u200b${"A".repeat(12_000)}`;

async function openSignIn(origin = LOCAL, clientId?: string): Promise<AuthorizeAnswer & { clientId: string; verifier: string }> {
  const id = clientId ?? (await register(origin));
  const { verifier, challenge } = await pkce();
  const page = await authorize(origin, { client_id: id, code_challenge: challenge, code_challenge_method: "S256" });
  if (!page.request) throw new Error(`no consent page: ${page.status} ${page.html.slice(0, 300)}`);
  return { ...page, clientId: id, verifier };
}

function status(request: string, secret: string | null, headers: Record<string, string> = {}): Promise<Response> {
  return fetchAt(`${LOCAL}/oauth/requests/${request}/status`, { headers: { ...(secret === null ? {} : { "Mosaic-Signin-Secret": secret }), ...headers } });
}

/** The key-file CLI's approval: signed for `origin`'s host, without the page's secret. */
async function approveAsCli(origin: string, m: Machine, request: string, headers: Record<string, string> = {}) {
  const res = await fetchAt(`${origin}/oauth/approve`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(await approveBody(origin, m, request)) });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as { redirect_to?: string; machine_id?: string; error?: { code: string; message: string } } };
}

const codeOf = (redirect: string | undefined) => new URL(redirect ?? "http://x/").searchParams.get("code");

describe("a sign-in's status and redirect are the consent page's only", () => {
  it("whoever knows the short code reads who asks, never the status, the code or the redirect", async () => {
    const s = await openSignIn();
    const description = await fetchAt(`${LOCAL}/oauth/requests/${s.request}`);
    expect(description.status).toBe(200);
    const pending = (await description.json()) as Record<string, unknown>;
    expect(pending).toMatchObject({ request: s.request, client: { kind: "registered", verified: false, host: null, redirect_host: new URL(CALLBACK).host } });
    expect(JSON.stringify(pending)).not.toMatch(/redirect_to|code=/);
    expect((await status(s.request!, null)).status).toBe(401);
    expect((await status(s.request!, "x".repeat(43))).status).toBe(403);

    const m = await machine();
    const approved = await approveAsCli(LOCAL, m, s.request!);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.redirect_to).toBeUndefined();
    expect(approved.text).not.toContain("code=");
    // After the approval: the short code gives nothing of it, to anyone.
    const after = await fetchAt(`${LOCAL}/oauth/requests/${s.request}`);
    const text = await after.text();
    expect(after.status).toBe(409);
    expect(text).not.toMatch(/redirect_to|code=|m-[0-9a-f]{16}/);
    const noSecret = await status(s.request!, null);
    expect(noSecret.status).toBe(401);
    expect(await noSecret.text()).not.toContain("code=");
  });

  it("the page gets the redirect once; the code is never returned again, so nobody can burn the grant by replaying it", async () => {
    const s = await openSignIn();
    const m = await machine();
    expect((await approveAsCli(LOCAL, m, s.request!)).status).toBe(200);
    const first = (await (await status(s.request!, s.secret)).json()) as { status: string; redirect_to?: string };
    expect(first.status).toBe("approved");
    const code = codeOf(first.redirect_to);
    expect(code).toEqual(expect.any(String));
    const second = await (await status(s.request!, s.secret)).text();
    expect(second).toContain('"approved"');
    expect(second).not.toContain("code=");
    const issued = await exchange(LOCAL, { clientId: s.clientId, code: code!, verifier: s.verifier });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);

    // Approved by the page itself (with its secret): the answer carries the redirect, nothing after it does.
    const p = await openSignIn();
    const own = await approve(LOCAL, { ...(await approveBody(LOCAL, m, p.request!)), secret: p.secret });
    expect(own.status).toBe(200);
    expect(codeOf(own.body.redirect_to)).toEqual(expect.any(String));
    expect(await (await status(p.request!, p.secret)).text()).not.toContain("code=");
  });
});

describe("names shown to whoever approves", () => {
  it("a registered client's name is cleaned and cut at registration, on the page, in the description and in grant lists", async () => {
    const reg = await fetchAt(`${LOCAL}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: HOSTILE, redirect_uris: ["https://claude.ai/api/mcp/auth_callback"], token_endpoint_auth_method: "none" }),
    });
    expect(reg.status).toBe(201);
    const registered = (await reg.json()) as { client_id: string; client_name: string };
    expect(registered.client_name).not.toMatch(HIDDEN);
    expect(Array.from(registered.client_name).length).toBeLessThanOrEqual(80);
    const { challenge } = await pkce();
    const page = await authorize(LOCAL, { client_id: registered.client_id, redirect_uri: "https://claude.ai/api/mcp/auth_callback", code_challenge: challenge, code_challenge_method: "S256" });
    expect(page.status).toBe(200);
    // The page's own line breaks aside, nothing hidden reaches it.
    expect(page.html.replace(/\n/g, "")).not.toMatch(HIDDEN);
    expect(page.html).not.toContain("A".repeat(81));
    expect(page.html).toContain("says it returns to claude.ai");
    expect(page.html).toContain("<strong>unverified</strong>");
    const d = (await (await fetchAt(`${LOCAL}/oauth/requests/${page.request}`)).json()) as { client: { name: string; summary: string } };
    expect(d.client.name).not.toMatch(HIDDEN);
    expect(d.client.summary).toContain("unverified");
    expect(d.client.summary).toContain("says it returns to claude.ai");
  });

  it("a name stored before cleaning (a metadata document's) is cleaned at display, on the page and in grant lists", async () => {
    const clientId = "http://localhost:9998/dirty-client.json";
    await env.OAUTH_KV.put(`client:${clientId}`, JSON.stringify(metadataRecord(clientId, HOSTILE)), { expirationTtl: 600 });
    const s = await openSignIn(LOCAL, clientId);
    expect(s.html).toContain("localhost:9998</strong> <span class=\"muted\">(its metadata document's host)");
    expect(s.html).not.toContain("A".repeat(81));
    expect(s.html).not.toContain("\u001b");
    const m = await machine();
    expect((await approve(LOCAL, { ...(await approveBody(LOCAL, m, s.request!)), secret: s.secret })).status).toBe(200);
    const listed = await fetchAt(`${LOCAL}/api/keys/grants`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(await grantsBody(LOCAL, m)) });
    const grants = ((await listed.json()) as { grants: Array<{ client: { name: string | null } }> }).grants;
    expect(grants).toHaveLength(1);
    expect(grants[0].client.name).not.toMatch(HIDDEN);
    expect(Array.from(grants[0].client.name ?? "").length).toBeLessThanOrEqual(80);
  });
});

describe("an approval that cannot complete leaves the sign-in pending and usable", () => {
  it("through another host name than the sign-in's: refused before anything is taken, then approved through the right one", async () => {
    const s = await openSignIn(LOCAL);
    const m = await machine();
    const elsewhere = await approveAsCli("http://127.0.0.1:8787", m, s.request!);
    expect(elsewhere.status, elsewhere.text).toBe(403);
    expect(elsewhere.body.error?.code).toBe("wrong_host");
    expect(elsewhere.body.error?.message).toContain(LOCAL);
    expect(((await (await status(s.request!, s.secret)).json()) as { status: string }).status).toBe("pending");
    const right = await approveAsCli(LOCAL, m, s.request!);
    expect(right.status, right.text).toBe(200);
    const back = (await (await status(s.request!, s.secret)).json()) as { redirect_to?: string };
    expect((await exchange(LOCAL, { clientId: s.clientId, code: codeOf(back.redirect_to)!, verifier: s.verifier })).status).toBe(200);
  });

  it("Host: evil.example is refused cleanly in the route's JSON, and the sign-in stays approvable", async () => {
    const s = await openSignIn(LOCAL);
    const m = await machine();
    const evil = await approveAsCli("http://evil.example", m, s.request!);
    expect(evil.status, evil.text).toBe(403);
    expect(evil.body.error?.code).toBe("wrong_host");
    expect(((await (await status(s.request!, s.secret)).json()) as { status: string }).status).toBe("pending");
    expect((await approveAsCli(LOCAL, m, s.request!)).status).toBe(200);
  });

  it("a metadata-document client stays approvable after its cached document expired, and its code is redeemed", async () => {
    const clientId = "http://localhost:9998/short-lived-client.json";
    await env.OAUTH_KV.put(`client:${clientId}`, JSON.stringify(metadataRecord(clientId, "Short Lived")), { expirationTtl: 300 });
    const s = await openSignIn(LOCAL, clientId);
    await env.OAUTH_KV.delete(`client:${clientId}`); // the cache's 300 s are over; the sign-in's 600 s are not
    const m = await machine();
    const approved = await approve(LOCAL, { ...(await approveBody(LOCAL, m, s.request!)), secret: s.secret });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const issued = await exchange(LOCAL, { clientId, code: codeOf(approved.body.redirect_to)!, verifier: s.verifier });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  });
});

describe("the consent page's own waiting never spends its approval's allowance", () => {
  it("polls behind a public address, past the key routes' limit of 20, and the approval from that address still succeeds", async () => {
    const address = "203.0.113.77";
    const s = await openSignIn(LOCAL);
    const answers: number[] = [];
    for (let i = 0; i < 45; i++) {
      const res = await status(s.request!, s.secret, { "CF-Connecting-IP": address });
      await res.arrayBuffer();
      answers.push(res.status);
    }
    expect(new Set(answers)).toEqual(new Set([200]));
    const m = await machine();
    const approved = await approveAsCli(LOCAL, m, s.request!, { "CF-Connecting-IP": address });
    expect(approved.status, approved.text).toBe(200);
    const back = (await (await status(s.request!, s.secret, { "CF-Connecting-IP": address })).json()) as { redirect_to?: string };
    expect(codeOf(back.redirect_to)).toEqual(expect.any(String));
  });
});

function metadataRecord(clientId: string, name: string): Record<string, unknown> {
  return {
    clientId,
    redirectUris: [CALLBACK],
    clientName: name,
    grantTypes: ["authorization_code", "refresh_token"],
    responseTypes: ["code"],
    registrationDate: Math.floor(Date.now() / 1000),
    tokenEndpointAuthMethod: "none",
    authMethodExplicit: true,
  };
}
