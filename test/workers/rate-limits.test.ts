import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LIMIT_PERIODS, underPrefix } from "../../src/http/middleware/rate-limit";
import { legacyRequest, messageOf, modernRequest } from "../support/mcp-wire";
import { createBody } from "./account-helpers";
import { HOST, machine } from "./identity-helpers";

// Rate limits (docs/deploy.md "Rate limits") through the Worker's own fetch handler, with the
// Rate Limiting bindings of wrangler.toml as the runtime runs them. Each test acts from its own
// addresses (CF-Connecting-IP), so the counters of one test never meet another's.

const ORIGIN = "http://localhost:8787";
let nextAddress = 1;
const freshAddress = (): string => `198.51.100.${nextAddress++}`;
const limitOf = { keys: 20, accounts: 20, mcpAddress: 600, mcpMachine: 100 };

function get(path: string, address: string | null): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}${path}`, { headers: address ? { "CF-Connecting-IP": address } : {} });
}

function mcp(request: { headers: Record<string, string>; body: string }, address: string, extra: Record<string, string> = {}): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}/mcp`, { method: "POST", headers: { ...request.headers, "CF-Connecting-IP": address, ...extra }, body: request.body });
}

/** Calls `n` times in sequence; the statuses, in order. */
async function repeat(n: number, call: () => Promise<Response>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await call();
    await res.arrayBuffer();
    out.push(res.status);
  }
  return out;
}

/**
 * Calls in waves of `wave` concurrent calls until one is refused (at most 3 × limit calls) and
 * returns how many went before it. The binding counts in windows of its period, so a run that
 * straddles a window's end may need more than limit + 1 calls; but no window lets more than
 * `limit` through, so the first `limit` calls are never refused.
 */
async function callsBeforeRefusal(limit: number, wave: number, call: () => Promise<Response>, refused: (res: Response) => Promise<boolean>): Promise<number> {
  for (let done = 0; done < 3 * limit; done += wave) {
    const answers = await Promise.all(Array.from({ length: wave }, () => call().then(refused)));
    const first = answers.indexOf(true);
    if (first >= 0) return done + first;
  }
  return Infinity;
}

const isToolRateLimited = async (res: Response): Promise<boolean> =>
  ((await messageOf(res)).result as ToolResult | undefined)?.structuredContent?.error?.code === "rate_limited";

interface ToolResult {
  isError?: boolean;
  structuredContent?: { error?: { code: string; message: string; retry_after?: number } };
  content?: Array<{ type: string; text: string }>;
  resultType?: string;
  _meta?: Record<string, unknown>;
}

describe("rate limits on the key and sign-in routes, per address", () => {
  it("answers the call past the limit 429 with Retry-After and the JSON error rate_limited", async () => {
    const address = freshAddress();
    let refusal: Response | undefined;
    const before = await callsBeforeRefusal(limitOf.keys, 5, () => get("/api/keys/whoami", address), async (res) => {
      if (res.status !== 429) {
        expect(res.status).toBe(401); // no token: refused by the route, but counted
        return false;
      }
      refusal = res;
      return true;
    });
    expect(before).toBeGreaterThanOrEqual(limitOf.keys);
    expect(refusal!.headers.get("Retry-After")).toBe(String(LIMIT_PERIODS.LIMIT_KEYS));
    expect(refusal!.headers.get("Cache-Control")).toBe("no-store");
    const body = (await refusal!.json()) as { error: { code: string; message: string; retry_after: number } };
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.retry_after).toBe(60);
    expect(body.error.message).toMatch(/retry after 60 s/);
  });

  it("limits each address on its own: a flooding address leaves another untouched", async () => {
    const flood = freshAddress();
    expect(await callsBeforeRefusal(limitOf.keys, 5, () => get("/api/keys/whoami", flood), async (res) => res.status === 429)).toBeLessThan(Infinity);
    expect((await get("/api/keys/whoami", freshAddress())).status).toBe(401);
  });

  it("counts every key and sign-in path against the same allowance, POST and GET alike", async () => {
    const address = freshAddress();
    const paths = ["/api/keys/auth", "/api/keys/name", "/api/keys/proof-check", "/token", "/register", "/authorize", "/oauth/callback", "/api/keys/whoami"];
    let i = 0;
    const refusedPaths = new Set<string>();
    const call = (): Promise<Response> => {
      const path = paths[i++ % paths.length];
      const method = path === "/api/keys/whoami" ? "GET" : "POST";
      return exports.default.fetch(`${ORIGIN}${path}`, { method, headers: { "CF-Connecting-IP": address, "Content-Type": "application/json" }, body: method === "POST" ? "{}" : undefined }).then((res) => {
        if (res.status === 429) refusedPaths.add(path);
        return res;
      });
    };
    const before = await callsBeforeRefusal(limitOf.keys, 1, call, async (res) => res.status === 429);
    expect(before).toBeGreaterThanOrEqual(limitOf.keys);
    expect(before).toBeLessThan(3 * limitOf.keys);
    // The allowance is the address's, shared by every path under the prefixes.
    for (let k = 0; k < paths.length; k++) await (await call()).arrayBuffer();
    expect(refusedPaths.size).toBeGreaterThan(1);
  });

  it("leaves the public reads and the site alone, whatever the address has spent", async () => {
    const address = freshAddress();
    await repeat(limitOf.keys + 1, () => get("/api/keys/whoami", address));
    expect((await get("/api/health", address)).status).toBe(200);
    expect((await get("/api/games", address)).status).toBe(200);
  });

  it("does not limit callers without an address (in-process) or on the loopback (the operator's own tests)", async () => {
    expect(new Set(await repeat(limitOf.keys + 3, () => get("/api/keys/whoami", null)))).toEqual(new Set([401]));
    expect(new Set(await repeat(limitOf.keys + 3, () => get("/api/keys/whoami", "127.0.0.1")))).toEqual(new Set([401]));
  });

  it("matches path prefixes, not strings that merely start the same", () => {
    const prefixes = ["/api/keys", "/token", "/oauth"];
    expect(underPrefix("/api/keys", prefixes)).toBe(true);
    expect(underPrefix("/api/keys/auth", prefixes)).toBe(true);
    expect(underPrefix("/oauth/github/callback", prefixes)).toBe(true);
    expect(underPrefix("/tokens", prefixes)).toBe(false);
    expect(underPrefix("/api/keysmith", prefixes)).toBe(false);
    expect(underPrefix("/api/games", prefixes)).toBe(false);
  });
});

describe("rate limits on the account routes' signed requests, per address", () => {
  const post = (path: string, body: unknown, address: string | null): Promise<Response> =>
    exports.default.fetch(`http://${HOST}${path}`, {
      method: "POST",
      headers: { host: HOST, "content-type": "application/json", ...(address ? { "CF-Connecting-IP": address } : {}) },
      body: JSON.stringify(body),
    });

  it("answers account creations past the limit 429 with Retry-After, before the accounts object is asked", async () => {
    const address = freshAddress();
    const machines = await Promise.all(Array.from({ length: 3 * limitOf.accounts }, () => machine()));
    let made = 0;
    let refusal: Response | undefined;
    for (const m of machines) {
      const res = await post("/api/accounts", await createBody(m, `lab ${made}`), address);
      if (res.status === 429) {
        refusal = res;
        break;
      }
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      made++;
    }
    expect(refusal, "no account creation was refused").toBeDefined();
    expect(made).toBeGreaterThanOrEqual(limitOf.accounts);
    expect(refusal!.headers.get("Retry-After")).toBe(String(LIMIT_PERIODS.LIMIT_ACCOUNTS));
    expect(((await refusal!.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    // Every signed account route shares the allowance; another address keeps its own.
    for (const path of ["/api/accounts/join", "/api/accounts/unlink", "/api/accounts/name"]) expect((await post(path, {}, address)).status).toBe(429);
    expect((await post("/api/accounts/name", {}, freshAddress())).status).toBe(400);
  });

  it("leaves the accounts' public reads open and never limits the loopback", async () => {
    const address = freshAddress();
    await repeat(limitOf.accounts + 1, () => post("/api/accounts/name", {}, address));
    expect((await post("/api/accounts/name", {}, address)).status).toBe(429);
    const read = await exports.default.fetch(`http://${HOST}/api/accounts?machine=m-0123456789abcdef`, { headers: { host: HOST, "CF-Connecting-IP": address } });
    expect(read.status).toBe(200);
    expect(await repeat(limitOf.accounts + 3, () => post("/api/accounts/name", {}, "127.0.0.1"))).not.toContain(429);
    expect(await repeat(limitOf.accounts + 3, () => post("/api/accounts/name", {}, null))).not.toContain(429);
  });
});

describe("rate limits on /mcp, per machine and per address", () => {
  const listGames = (id: number) => modernRequest("tools/call", { name: "list_games", arguments: {} }, { id, accept: "application/json" });

  it("gives a tool call past the machine's limit the tool error rate_limited with the seconds to wait", async () => {
    const address = freshAddress();
    const token = { Authorization: `Bearer msc_00000000000000aa_${"A".repeat(43)}` };
    let res: Response | undefined;
    const before = await callsBeforeRefusal(limitOf.mcpMachine, 10, () => mcp(listGames(7), address, token), async (r) => {
      expect(r.status).toBe(200);
      if (r.headers.get("Retry-After") === null) return false;
      res = r;
      return true;
    });
    expect(before).toBeGreaterThanOrEqual(limitOf.mcpMachine);
    if (!res) throw new Error("never limited");
    expect(res.headers.get("Retry-After")).toBe(String(LIMIT_PERIODS.LIMIT_MCP_MACHINE));
    const message = await messageOf(res);
    expect(message.id).toBe(7);
    const result = message.result as ToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent?.error?.code).toBe("rate_limited");
    expect(result.structuredContent?.error?.retry_after).toBe(10);
    // A model reading only the text gets the message itself, which says how long to wait.
    expect(result.content![0].text).toBe(result.structuredContent?.error?.message);
    expect(result.content![0].text).toMatch(/retry after 10 s/);
    // The 2026-07-28 result shape, as every other answer of that revision.
    expect(result.resultType).toBe("complete");
    expect(result._meta).toBeDefined();
  });

  it("limits each machine on its own: another token from the same address still plays", async () => {
    const address = freshAddress();
    const flood = { Authorization: `Bearer msc_00000000000000bb_${"B".repeat(43)}` };
    const before = await callsBeforeRefusal(limitOf.mcpMachine, 10, () => mcp(listGames(1), address, flood), isToolRateLimited);
    expect(before).toBeGreaterThanOrEqual(limitOf.mcpMachine);
    expect(before).toBeLessThan(3 * limitOf.mcpMachine);
    const other = await messageOf(await mcp(listGames(2), address, { Authorization: `Bearer msc_00000000000000cc_${"C".repeat(43)}` }));
    expect((other.result as ToolResult).structuredContent?.error?.code).toBeUndefined();
  });

  it("keys a forged token on the token, not on the machine it names", async () => {
    const address = freshAddress();
    const victim = `Bearer msc_00000000000000dd_${"D".repeat(43)}`;
    const forged = `Bearer msc_00000000000000dd_${"E".repeat(43)}`;
    expect(await callsBeforeRefusal(limitOf.mcpMachine, 10, () => mcp(listGames(1), address, { Authorization: forged }), isToolRateLimited)).toBeLessThan(Infinity);
    const res = await messageOf(await mcp(listGames(2), address, { Authorization: victim }));
    expect((res.result as ToolResult).structuredContent?.error?.code).toBeUndefined();
  });

  it("limits calls that prove their machine by agent_secret, in the 2025-era result shape", async () => {
    const address = freshAddress();
    const observe = (secret: string) =>
      legacyRequest("tools/call", { name: "observe", arguments: { game_id: "no-such-game", agent_secret: secret } }, { accept: "application/json" });
    let last: ToolResult | undefined;
    const before = await callsBeforeRefusal(limitOf.mcpMachine, 10, () => mcp(observe("s1"), address), async (res) => {
      const result = (await messageOf(res)).result as ToolResult;
      if (result.structuredContent?.error?.code !== "rate_limited") return false;
      last = result;
      return true;
    });
    expect(before).toBeGreaterThanOrEqual(limitOf.mcpMachine);
    expect(last?.isError).toBe(true);
    expect(last?.resultType).toBeUndefined();
    const other = await messageOf(await mcp(observe("s2"), address));
    expect((other.result as ToolResult).structuredContent?.error?.code).not.toBe("rate_limited");
  });

  it("answers other methods past a limit 429 with Retry-After and a JSON-RPC error naming rate_limited", async () => {
    const address = freshAddress();
    const token = { Authorization: `Bearer msc_00000000000000ee_${"F".repeat(43)}` };
    let res: Response | undefined;
    const list = () => mcp(modernRequest("tools/list", {}, { id: 9, accept: "application/json" }), address, token);
    const before = await callsBeforeRefusal(limitOf.mcpMachine, 10, list, async (r) => {
      if (r.status !== 429) {
        expect(r.status).toBe(200);
        await r.arrayBuffer();
        return false;
      }
      res = r;
      return true;
    });
    expect(before).toBeGreaterThanOrEqual(limitOf.mcpMachine);
    if (!res) throw new Error("never limited");
    expect(res.headers.get("Retry-After")).toBe("10");
    const body = (await res.json()) as { id: number; error: { code: number; message: string; data: { code: string; retry_after: number } } };
    expect(body.id).toBe(9);
    expect(body.error.code).toBe(-32000);
    expect(body.error.data).toEqual({ code: "rate_limited", retry_after: 10 });
  });

  it("limits an address however many calls it makes, and only that address", async () => {
    const address = freshAddress();
    // Notifications are the cheapest messages: each is counted, none builds a server.
    const note = legacyRequest("notifications/initialized", undefined, { id: null });
    const before = await callsBeforeRefusal(limitOf.mcpAddress, 50, () => mcp(note, address), async (res) => res.status === 429);
    expect(before).toBeGreaterThanOrEqual(limitOf.mcpAddress);
    expect(before).toBeLessThan(3 * limitOf.mcpAddress);
    expect((await mcp(note, freshAddress())).status).toBe(202);
  });
});
