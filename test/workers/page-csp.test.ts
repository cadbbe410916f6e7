// Every HTML page of the site sends a Content-Security-Policy with frame-ancestors (SPEC §8.1):
// the spectator's pages, the Worker's documents and the consent page, error pages included.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SITE_CSP } from "../../src/http/page-csp";
import { HOST, machine } from "./identity-helpers";
import { createBody, send } from "./account-helpers";
import { authorize, LOCAL, pkce, register } from "./oauth-helpers";

async function page(url: string): Promise<{ status: number; type: string; csp: string | null; body: string }> {
  const res = await exports.default.fetch(url, { headers: { host: new URL(url).host, accept: "text/html" }, redirect: "manual" });
  return { status: res.status, type: res.headers.get("content-type") ?? "", csp: res.headers.get("content-security-policy"), body: await res.text() };
}

function expectFramedByNoOne(p: { type: string; csp: string | null }, what: string): void {
  expect(p.type, what).toMatch(/^text\/html/i);
  expect(p.csp, what).toMatch(/(^|;\s*)frame-ancestors 'none'(;|$)/);
  expect(p.csp, what).toMatch(/(^|;\s*)default-src /);
}

describe("Content-Security-Policy on every HTML page", () => {
  it("the spectator's pages and its fallback for unknown paths", async () => {
    for (const path of ["/", "/history", "/replay/day-2026-01-01", "/no/such/page"]) {
      const p = await page(`http://${HOST}${path}`);
      expect(p.status, path).toBe(200);
      expectFramedByNoOne(p, path);
      expect(p.csp, path).toContain("script-src 'self'");
    }
  });

  it("the Worker's documents: /identity and /account/<id>, found, missing or malformed", async () => {
    const created = await send("/api/accounts", await createBody(await machine(), "csp lab"));
    const id = created.body.account?.id ?? "";
    expect(id).toMatch(/^a-/);
    for (const [path, status] of [["/identity", 200], [`/account/${id}`, 200], ["/account/a-0000000000000000", 404], ["/account/nope", 400]] as const) {
      const p = await page(`http://${HOST}${path}`);
      expect(p.status, path).toBe(status);
      expectFramedByNoOne(p, path);
    }
  });

  it("the account page's inline join script is allowed by hash, and nothing else inline is", async () => {
    const created = await send("/api/accounts", await createBody(await machine(), "csp hash"));
    const p = await page(`http://${HOST}/account/${created.body.account?.id ?? ""}`);
    const script = /<script type="module">([\s\S]*?)<\/script>/.exec(p.body)?.[1] ?? "";
    expect(script.length).toBeGreaterThan(100);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(script)));
    const hash = btoa(String.fromCharCode(...digest));
    expect(p.csp).toContain(`'sha256-${hash}'`);
    expect(p.csp).not.toContain("'unsafe-inline' 'sha");
    expect(/script-src ([^;]*)/.exec(p.csp ?? "")?.[1]).not.toContain("unsafe-inline");
  });

  it("the consent page and the sign-in error page", async () => {
    const clientId = await register(LOCAL);
    const { challenge } = await pkce();
    const consent = await page(`${LOCAL}/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: "http://127.0.0.1:9999/callback", code_challenge: challenge, code_challenge_method: "S256", resource: `${LOCAL}/mcp/signed-in` })}`);
    expect(consent.status).toBe(200);
    expectFramedByNoOne(consent, "consent");
    const refused = await page(`${LOCAL}/oauth/authorize?client_id=nobody`);
    expect(refused.status).toBe(400);
    expectFramedByNoOne(refused, "sign-in error");
    // Still what it was: the consent page's own, stricter policy.
    expect((await authorize(LOCAL, { client_id: clientId, code_challenge: challenge, code_challenge_method: "S256" })).status).toBe(200);
    expect(consent.csp).toContain("form-action 'none'");
  });

  it("public/_headers gives the static pages the same policy as the Worker's SITE_CSP", async () => {
    // The spectator's static files come from the assets binding in this harness too.
    const p = await page(`http://${HOST}/`);
    expect(p.csp).toBe(SITE_CSP);
  });
});
