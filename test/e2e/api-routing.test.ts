import { describe, expect, inject, it } from "vitest";

/**
 * Over HTTP against `wrangler dev`: the API's paths always reach the Worker. A browser navigation
 * (Sec-Fetch-Mode: navigate) to a path that is no file gets the site's index.html; one under
 * /api or /mcp must get the API's JSON instead, whatever the path.
 */

const NAVIGATE = {
  Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "Sec-Fetch-Mode": "navigate",
  "Sec-Fetch-Dest": "document",
  "Sec-Fetch-Site": "none",
  "Upgrade-Insecure-Requests": "1",
};

describe("API paths never fall through to the site", () => {
  it("unknown paths under /api and /mcp answer a JSON 404 to a navigation", async () => {
    const base = inject("baseUrl");
    for (const path of ["/api", "/api/", "/api/nothing", "/api/games/", "/api/games/some-id/event", "/api/games/some-id/snapshot/", "/api/health/", "/api/archives/", "/api/keys/", "/mcp/", "/mcp/anything"]) {
      const r = await fetch(base + path, { headers: NAVIGATE });
      const text = await r.text();
      expect(r.status, `${path}: ${text.slice(0, 80)}`).toBe(404);
      expect(r.headers.get("Content-Type"), path).toMatch(/^application\/json/);
      expect((JSON.parse(text) as { error: { code: string } }).error.code, path).toBe("missing");
    }
  });

  it("the API's own routes still answer a navigation with their JSON, and the site still routes its pages", async () => {
    const base = inject("baseUrl");
    const health = await fetch(`${base}/api/health`, { headers: NAVIGATE });
    expect(await health.json()).toEqual({ ok: true, service: "mosaic" });
    const games = await fetch(`${base}/api/games`, { headers: NAVIGATE });
    expect(games.status).toBe(200);
    expect(((await games.json()) as { games: unknown[] }).games).toBeInstanceOf(Array);
    const page = await fetch(`${base}/replay/2031-01-02`, { headers: NAVIGATE });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Mosaic");
  });
});
