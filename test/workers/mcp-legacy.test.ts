import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RULES_CORE, RULES_TEXT } from "../../src/mcp/rules";
import { initializeRequest, LEGACY_VERSIONS, legacyRequest, messageOf, parseSse } from "../support/mcp-wire";
import { readModelText } from "../support/model-text";

const URL_MCP = "http://localhost:8787/mcp";

async function post(request: { headers: Record<string, string>; body: string }): Promise<Response> {
  const res = await exports.default.fetch(URL_MCP, { method: "POST", headers: request.headers, body: request.body });
  expect(res.headers.get("mcp-session-id")).toBeNull();
  return res;
}

describe("/mcp for 2025-era clients (stateless)", () => {
  for (const version of LEGACY_VERSIONS) {
    it(`answers initialize ${version} as one SSE frame with that version and no session`, async () => {
      const res = await post(initializeRequest(version));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const { events } = parseSse(await res.text());
      expect(events).toHaveLength(1);
      const message = JSON.parse(events[0].data) as { id: number; result: { protocolVersion: string; serverInfo: { name: string } } };
      expect(message.id).toBe(1);
      expect(message.result.protocolVersion).toBe(version);
      expect(message.result.serverInfo.name).toBe("mosaic");
    });
  }

  it("negotiates the newest revision it supports when the client asks for an unknown one", async () => {
    const message = await messageOf(await post(initializeRequest("2099-01-01")));
    expect((message.result as { protocolVersion: string }).protocolVersion).toBe("2025-11-25");
  });

  it("answers initialize as plain JSON when the client accepts only JSON", async () => {
    const res = await post(initializeRequest("2025-06-18", { accept: "application/json" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as { result: { protocolVersion: string } };
    expect(body.result.protocolVersion).toBe("2025-06-18");
  });

  it("answers 202 with no body to every notification", async () => {
    for (const method of ["notifications/initialized", "notifications/cancelled", "notifications/roots/list_changed"]) {
      const res = await post(legacyRequest(method, method === "notifications/cancelled" ? { requestId: 7 } : undefined, { id: null }));
      expect(res.status, method).toBe(202);
      expect(await res.text()).toBe("");
    }
  });

  it("serves tools/list without initialize (no session to find), under 16 KB", async () => {
    const res = await post(legacyRequest("tools/list", undefined, { version: "2025-11-25" }));
    const text = await res.text();
    const message = JSON.parse(parseSse(text).events[0].data) as { result: { tools: Array<{ name: string; description: string }> } };
    expect(message.result.tools.map((t) => t.name)).toContain("list_games");
    expect(new TextEncoder().encode(JSON.stringify(message.result)).byteLength).toBeLessThan(16 * 1024);
  });

  it("repeats the rules in join's description and points every other tool to mosaic://rules (SPEC §6)", async () => {
    const message = await messageOf(await post(legacyRequest("tools/list")));
    const tools = (message.result as { tools: Array<{ name: string; description: string }> }).tools;
    const join = tools.find((t) => t.name === "join");
    // The play rules ride in join's description (a model may never read a resource); the resource has them all.
    expect(join?.description).toContain(RULES_CORE);
    expect(join?.description).toContain("mosaic://rules");
    expect(RULES_TEXT.startsWith(RULES_CORE)).toBe(true);
    for (const tool of tools.filter((t) => t.name !== "join")) expect(tool.description, tool.name).toContain("mosaic://rules");
  });

  it("serves the rules resource as text/plain", async () => {
    const list = await messageOf(await post(legacyRequest("resources/list")));
    expect((list.result as { resources: Array<{ uri: string; mimeType: string }> }).resources).toContainEqual(
      expect.objectContaining({ uri: "mosaic://rules", mimeType: "text/plain" }),
    );
    const read = await messageOf(await post(legacyRequest("resources/read", { uri: "mosaic://rules" })));
    const contents = (read.result as { contents: Array<{ uri: string; mimeType: string; text: string }> }).contents;
    expect(contents).toEqual([{ uri: "mosaic://rules", mimeType: "text/plain", text: RULES_TEXT }]);
  });

  it("calls list_games and returns the games in structuredContent", async () => {
    const message = await messageOf(await post(legacyRequest("tools/call", { name: "list_games", arguments: {} })));
    const result = message.result as { isError?: boolean; structuredContent: { games: unknown[] }; content: Array<{ type: string; text: string }> };
    expect(result.isError ?? false).toBe(false);
    expect(Array.isArray(result.structuredContent.games)).toBe(true);
    expect(result.content[0].type).toBe("text");
    const text = readModelText(result.content[0].text);
    expect(text.summary.length).toBeLessThan(400);
    // Written for a model: a summary (here "No games yet." or the games), never the JSON.
    expect(text.rest).toBe("");
  });

  it("answers an unknown method with -32601, including names of Object's own properties", async () => {
    for (const method of ["games/teleport", "constructor", "__proto__", "toString", "logging/setLevel", "prompts/list"]) {
      const message = await messageOf(await post(legacyRequest(method)));
      expect((message.error as { code: number }).code, method).toBe(-32601);
    }
  });

  it("answers bad params with -32602 naming the field", async () => {
    const res = await post(legacyRequest("resources/read", { url: "mosaic://rules" }));
    const message = await messageOf(res);
    expect(message.id).toBe(1);
    expect((message.error as { code: number; message: string }).code).toBe(-32602);
    expect((message.error as { message: string }).message).toContain("params.uri");
    const tool = await messageOf(await post(legacyRequest("tools/call", { name: 42 })));
    expect((tool.error as { code: number }).code).toBe(-32602);
    const unknownTool = await messageOf(await post(legacyRequest("tools/call", { name: "no_such_tool", arguments: {} })));
    expect((unknownTool.error as { code: number }).code).toBe(-32602);
  });

  it("keeps no state between requests: a tools/call needs no prior initialize and carries no session", async () => {
    const first = await post(initializeRequest("2025-11-25"));
    expect(first.headers.get("mcp-session-id")).toBeNull();
    await first.text();
    const second = await post(legacyRequest("ping", undefined, { headers: { "Mcp-Session-Id": "made-up-session" } }));
    expect(second.status).toBe(200);
    expect((await messageOf(second)).result).toEqual({});
  });
});
