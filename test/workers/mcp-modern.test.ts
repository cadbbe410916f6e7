import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { envelope, messageOf, MODERN, modernRequest, parseSse } from "../support/mcp-wire";

const URL_MCP = "http://localhost:8787/mcp";

async function post(request: { headers: Record<string, string>; body: string }): Promise<Response> {
  const res = await exports.default.fetch(URL_MCP, { method: "POST", headers: request.headers, body: request.body });
  expect(res.headers.get("mcp-session-id")).toBeNull();
  return res;
}

interface RpcError {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

describe("/mcp for 2026-07-28 clients", () => {
  it("answers server/discover with the supported revision and the server's identity", async () => {
    const res = await post(modernRequest("server/discover"));
    expect(res.status).toBe(200);
    const result = (await messageOf(res)).result as { supportedVersions: string[]; capabilities: Record<string, unknown>; _meta: Record<string, { name: string }> };
    expect(result.supportedVersions).toContain(MODERN);
    expect(result.capabilities).toHaveProperty("tools");
    expect(result.capabilities).toHaveProperty("resources");
    expect(result._meta["io.modelcontextprotocol/serverInfo"].name).toBe("mosaic");
  });

  it("serves tools/list and resources/read with serverInfo in each result's _meta", async () => {
    const tools = (await messageOf(await post(modernRequest("tools/list")))).result as { tools: Array<{ name: string }>; _meta: Record<string, { name: string }> };
    expect(tools.tools.map((t) => t.name)).toContain("list_games");
    expect(tools._meta["io.modelcontextprotocol/serverInfo"].name).toBe("mosaic");
    const read = (await messageOf(await post(modernRequest("resources/read", { uri: "mosaic://rules" })))).result as {
      contents: Array<{ mimeType: string; text: string }>;
      _meta: Record<string, { name: string }>;
    };
    expect(read.contents[0].mimeType).toBe("text/plain");
    expect(read.contents[0].text).toContain("MOSAIC RULES");
    expect(read._meta["io.modelcontextprotocol/serverInfo"].name).toBe("mosaic");
  });

  it("lets clients cache the static answers for five minutes (tools, rules, discovery)", async () => {
    for (const [method, params] of [["server/discover", {}], ["tools/list", {}], ["resources/read", { uri: "mosaic://rules" }]] as const) {
      const result = (await messageOf(await post(modernRequest(method, params)))).result as { ttlMs: number; cacheScope: string };
      expect(result.ttlMs, method).toBe(300_000);
      expect(result.cacheScope, method).toBe("public");
    }
  });

  it("streams tools/call as SSE when the client accepts it, and as JSON when it accepts only JSON", async () => {
    const sse = await post(modernRequest("tools/call", { name: "list_games", arguments: {} }));
    expect(sse.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = parseSse(await sse.text()).events;
    expect(events).toHaveLength(1);
    const streamed = JSON.parse(events[0].data) as { result: { structuredContent: { games: unknown[] } } };
    expect(Array.isArray(streamed.result.structuredContent.games)).toBe(true);

    const json = await post(modernRequest("tools/call", { name: "list_games", arguments: {} }, { accept: "application/json" }));
    expect(json.headers.get("content-type")).toMatch(/^application\/json/);
    const plain = (await json.json()) as { result: { structuredContent: { games: unknown[] } } };
    expect(Array.isArray(plain.result.structuredContent.games)).toBe(true);
  });

  it("refuses an Mcp-Method header that disagrees with the body with -32020", async () => {
    const res = await post(modernRequest("tools/list", {}, { headers: { "Mcp-Method": "tools/call" } }));
    expect(res.status).toBe(400);
    expect(((await messageOf(res)).error as RpcError).code).toBe(-32020);
  });

  it("refuses an Mcp-Name header that disagrees with the body with -32020", async () => {
    const res = await post(modernRequest("tools/call", { name: "list_games", arguments: {} }, { headers: { "Mcp-Name": "join" } }));
    expect(res.status).toBe(400);
    expect(((await messageOf(res)).error as RpcError).code).toBe(-32020);
  });

  it("refuses a missing Mcp-Name header on tools/call", async () => {
    const request = modernRequest("tools/call", { name: "list_games", arguments: {} });
    delete request.headers["Mcp-Name"];
    const res = await post(request);
    expect(res.status).toBe(400);
    expect(((await messageOf(res)).error as RpcError).code).toBe(-32020);
  });

  it("refuses an MCP-Protocol-Version header that disagrees with the envelope", async () => {
    const request = modernRequest("tools/list");
    delete request.headers["MCP-Protocol-Version"];
    const missing = await post(request);
    expect(missing.status).toBe(400);
    expect(((await messageOf(missing)).error as RpcError).code).toBe(-32020);
  });

  it("refuses an unsupported revision with -32022 listing the supported ones", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list", params: { _meta: envelope(undefined, "2099-01-01") } });
    const res = await post({ headers: { "Content-Type": "application/json", Accept: "application/json", "MCP-Protocol-Version": "2099-01-01", "Mcp-Method": "tools/list" }, body });
    expect(res.status).toBe(400);
    const error = (await messageOf(res)).error as RpcError;
    expect(error.code).toBe(-32022);
    expect(error.data?.supported).toContain(MODERN);
  });

  it("refuses a 2026-07-28 header without the envelope with -32602", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} });
    const res = await post({ headers: { "Content-Type": "application/json", Accept: "application/json", "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/list" }, body });
    expect(res.status).toBe(400);
    expect(((await messageOf(res)).error as RpcError).code).toBe(-32602);
  });

  it("answers methods removed in 2026-07-28 (initialize, ping, logging/setLevel) with -32601, not -32602", async () => {
    for (const method of ["initialize", "ping", "logging/setLevel"]) {
      const res = await post(modernRequest(method, method === "logging/setLevel" ? {} : {}));
      expect(res.status, method).toBe(404);
      expect(((await messageOf(res)).error as RpcError).code, method).toBe(-32601);
    }
  });

  it("answers an unknown method with -32601 and bad params with -32602", async () => {
    const unknown = await messageOf(await post(modernRequest("games/teleport")));
    expect((unknown.error as RpcError).code).toBe(-32601);
    const bad = await messageOf(await post(modernRequest("resources/read", { url: "mosaic://rules" })));
    expect((bad.error as RpcError).code).toBe(-32602);
  });

  it("acknowledges a notification with 202 and no body", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: envelope() } });
    const res = await post({ headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": MODERN, "Mcp-Method": "notifications/cancelled" }, body });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe("");
  });
});
