import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPlaying, fieldApi, ok, RULES, uniqueId } from "./game-helpers";

/**
 * The edges of the public read API that every route shares (docs/api.md): CORS for
 * any origin and its preflight, 404s and refusals, conditional requests, encodings, methods.
 */

const BASE = "http://mosaic.test";

async function get(path: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return exports.default.fetch(new Request(BASE + path, init));
}

let playing: Promise<string> | null = null;
/** One small playing field, shared by the tests below. */
function playingField(): Promise<string> {
  playing ??= createPlaying({ kind: "scatter", G: 24 }, 24).then(async ({ gameId }) => {
    for (let i = 0; i < 200 && (await get(`/api/games/${gameId}/snapshot`)).status === 404; i++) await new Promise((r) => setTimeout(r, 25));
    return gameId;
  });
  return playing;
}

const ROUTES = ["", "/hashes", "/tiles?rect=0,0,4,4", "/events", "/snapshot", "/leaderboard", "/analysis"];

describe("CORS on the public reads", () => {
  it("every public read, its 404 and its refusals are readable from any origin with ETag exposed", async () => {
    const gameId = await playingField();
    const paths = [
      "/api/health",
      "/api/games",
      "/api/archives",
      "/api/archives/nope",
      "/api/archives/day-2031-01-02.json.gz",
      "/api/games/bad%20id!/snapshot",
      ...ROUTES.map((r) => `/api/games/${gameId}${r}`),
      ...ROUTES.map((r) => `/api/games/no-such-game${r}`),
    ];
    for (const path of paths) {
      const r = await get(path, { headers: { Origin: "https://elsewhere.example" } });
      expect(r.headers.get("Access-Control-Allow-Origin"), path).toBe("*");
      expect(r.headers.get("Access-Control-Expose-Headers"), path).toContain("ETag");
      if (r.status === 200 && path !== "/api/health") expect(r.headers.get("ETag"), path).toBeTruthy();
      await r.arrayBuffer();
    }
  });

  it("answers the preflight of a cross-origin If-None-Match on every public read", async () => {
    const gameId = await playingField();
    for (const path of ["/api/health", "/api/games", "/api/archives", "/api/archives/day-2031-01-02", ...ROUTES.map((r) => `/api/games/${gameId}${r}`)]) {
      const r = await get(path, {
        method: "OPTIONS",
        headers: { Origin: "https://elsewhere.example", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "if-none-match" },
      });
      expect(r.status, path).toBe(204);
      expect(r.headers.get("Access-Control-Allow-Origin"), path).toBe("*");
      expect(r.headers.get("Access-Control-Allow-Methods"), path).toContain("GET");
      expect(r.headers.get("Access-Control-Allow-Methods"), path).toContain("HEAD");
      expect(r.headers.get("Access-Control-Allow-Headers")?.toLowerCase(), path).toContain("if-none-match");
      expect(Number(r.headers.get("Access-Control-Max-Age")), path).toBeGreaterThan(0);
    }
  });

  it("leaves /mcp's and /api/keys' own origin checks as they were", async () => {
    const mcp = await get("/mcp", { method: "OPTIONS", headers: { Origin: "https://elsewhere.example", "Access-Control-Request-Method": "POST" } });
    expect(mcp.status).toBe(403);
    expect(mcp.headers.get("Access-Control-Allow-Origin")).toBeNull();
    const keys = await get("/api/keys/whoami", { headers: { Origin: "https://elsewhere.example" } });
    expect(keys.headers.get("Access-Control-Allow-Origin")).toBeNull();
    await keys.arrayBuffer();
    const keysPreflight = await get("/api/keys/auth", { method: "OPTIONS", headers: { Origin: "https://elsewhere.example", "Access-Control-Request-Method": "POST" } });
    expect(keysPreflight.headers.get("Access-Control-Allow-Origin")).toBeNull();
    await keysPreflight.arrayBuffer();
  });
});

describe("a field that is generating", () => {
  it("answers 503 with Retry-After and the generating code on every spectator route, the live feed included", async () => {
    const gameId = uniqueId("gen-edges");
    const stub = fieldApi(env.FIELDS.getByName(gameId));
    // Its generation alarm is never run here: the field stays generating.
    ok(await stub.create({ gameId, params: { kind: "scatter", G: 140 }, rules: RULES, G: 140, seed: "s" }));
    for (let i = 0; i < 200 && (await get(`/api/games/${gameId}/snapshot`)).status === 404; i++) await new Promise((r) => setTimeout(r, 25));
    const answers: Array<[string, Response]> = [];
    for (const path of ["snapshot", "leaderboard", "analysis"]) answers.push([path, await get(`/api/games/${gameId}/${path}`)]);
    answers.push(["live", await get(`/api/games/${gameId}/live?from=0`, { headers: { Upgrade: "websocket" } })]);
    expect((await stub.status()).status).toBe("generating");
    for (const [path, r] of answers) {
      expect(r.status, path).toBe(503);
      expect(r.headers.get("Retry-After"), path).toBe("2");
      expect(((await r.json()) as { error: { code: string } }).error.code, path).toBe("generating");
    }
  });
});

describe("conditional requests and 404s, the same on every route", () => {
  it("If-None-Match: *, a list, or a weak tag without W/ answers 304 on every read; another tag 200", async () => {
    const gameId = await playingField();
    for (const path of ["/api/games", "/api/archives", ...ROUTES.map((r) => `/api/games/${gameId}${r}`)]) {
      const first = await get(path);
      await first.arrayBuffer();
      const etag = first.headers.get("ETag") ?? "";
      expect(etag, path).toMatch(/^W\/"/);
      const strong = etag.slice(2);
      for (const header of ["*", etag, strong, `"nope", ${strong}`, `W/"nope",${etag}`]) {
        const r = await get(path, { headers: { "If-None-Match": header } });
        expect(r.status, `${path} with ${header}`).toBe(304);
        expect(r.headers.get("ETag"), path).toBe(etag);
      }
      const other = await get(path, { headers: { "If-None-Match": `W/"nope", "nope2"` } });
      expect(other.status, path).toBe(200);
      await other.arrayBuffer();
    }
  });

  it("an unknown game answers the same 404 on every route under /api/games/:id", async () => {
    for (const route of ROUTES) {
      const r = await get(`/api/games/no-such-game${route}`);
      expect(r.status, route).toBe(404);
      expect(r.headers.get("Cache-Control"), route).toBe("no-store");
      expect(await r.json(), route).toEqual({ error: { code: "missing", message: 'no such game: "no-such-game" (GET /api/games lists them)' } });
    }
    const live = await get("/api/games/no-such-game/live", { headers: { Upgrade: "websocket" } });
    expect(live.status).toBe(404);
    expect(live.headers.get("Cache-Control")).toBe("no-store");
    expect(await live.json()).toEqual({ error: { code: "missing", message: 'no such game: "no-such-game" (GET /api/games lists them)' } });
  });
});

describe("events from revision 0", () => {
  it("from=0 is the start of the log, as on the live feed: the same answer as from=1", async () => {
    const gameId = await playingField();
    const zero = await get(`/api/games/${gameId}/events?from=0`);
    expect(zero.status).toBe(200);
    const one = await get(`/api/games/${gameId}/events?from=1`);
    expect(await zero.text()).toBe(await one.text());
    expect(zero.headers.get("ETag")).toBe(one.headers.get("ETag"));
    for (const from of ["-1", "x", "0.5"]) expect((await get(`/api/games/${gameId}/events?from=${from}`)).status, from).toBe(400);
  });
});

describe("methods a route does not answer", () => {
  it("405 with an Allow header naming the methods the route answers; 404 for no route at all", async () => {
    const gameId = await playingField();
    const reads = ["/api/health", "/api/games", "/api/archives", "/api/archives/day-2031-01-02.json.gz", ...ROUTES.map((r) => `/api/games/${gameId}${r.split("?")[0]}`), `/api/games/${gameId}/live`];
    for (const path of reads) {
      for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
        const r = await get(path, { method });
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(r.headers.get("Allow"), `${method} ${path}`).toBe("GET, HEAD, OPTIONS");
        expect(((await r.json()) as { error: { code: string } }).error.code).toBe("method_not_allowed");
      }
    }
    const keys = await get("/api/keys/whoami", { method: "POST" });
    expect(keys.status).toBe(405);
    expect(keys.headers.get("Allow")).toBe("GET, HEAD");
    await keys.arrayBuffer();
    const mcp = await get("/mcp", { method: "PUT" });
    expect(mcp.status).toBe(405);
    expect(mcp.headers.get("Allow")).toBe("POST, OPTIONS");
    await mcp.arrayBuffer();
    const none = await get("/api/nothing", { method: "POST" });
    expect(none.status).toBe(404);
    await none.arrayBuffer();
    expect((await get("/api/health", { method: "HEAD" })).status).toBe(200);
  });
});

describe("the archive listing", () => {
  it("lists each archive's url relative to the server, never built from the request's Host", async () => {
    const key = "day-2031-01-03.json.gz";
    await env.ARCHIVES.put(key, new Uint8Array([0x1f, 0x8b]), { customMetadata: { log_head_hash: "ab".repeat(32), log_head_rev: "7" } });
    try {
      const r = await exports.default.fetch(new Request(`${BASE}/api/archives`, { headers: { Host: "evil.example" } }));
      const text = await r.text();
      expect(text).not.toContain("evil.example");
      const listed = (JSON.parse(text) as { archives: Array<{ game_id: string; url: string }> }).archives.find((a) => a.game_id === "day-2031-01-03");
      expect(listed?.url).toBe(`/api/archives/${key}`);
      const other = await exports.default.fetch(new Request("http://other.example/api/archives"));
      expect(other.headers.get("ETag")).toBe(r.headers.get("ETag"));
      await other.arrayBuffer();
    } finally {
      await env.ARCHIVES.delete(key);
    }
  });
});
