import { describe, expect, inject, it } from "vitest";
import { envelope, initializeRequest, LEGACY_VERSIONS, legacyRequest, messageOf, MODERN, modernRequest, parseSse } from "../support/mcp-wire";

// Raw HTTP against a real `wrangler dev`: every transport rule of SPEC §7 as a client sees it.
const base = (): string => inject("baseUrl");

async function post(request: { headers: Record<string, string>; body: BodyInit }, extra: Record<string, string> = {}): Promise<Response> {
  const res = await fetch(`${base()}/mcp`, { method: "POST", headers: { ...request.headers, ...extra }, body: request.body });
  expect(res.headers.get("mcp-session-id"), "no session id is ever issued").toBeNull();
  return res;
}

async function errorCode(res: Response): Promise<number> {
  return ((await messageOf(res)).error as { code: number }).code;
}

describe("transport over HTTP: 2025-era", () => {
  for (const version of LEGACY_VERSIONS) {
    it(`initialize ${version}: one SSE frame, negotiated version, no session`, async () => {
      const res = await post(initializeRequest(version));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const { events } = parseSse(await res.text());
      expect(events).toHaveLength(1);
      expect(events[0].event ?? "message").toBe("message");
      expect((JSON.parse(events[0].data) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(version);
    });
  }

  it("initialize as JSON for a JSON-only client", async () => {
    const res = await post(initializeRequest("2025-11-25", { accept: "application/json" }));
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await res.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe("2025-11-25");
  });

  it("202 with an empty body for notifications", async () => {
    const res = await post(legacyRequest("notifications/initialized", undefined, { id: null }));
    expect(res.status).toBe(202);
    expect(await res.text()).toBe("");
  });

  it("405 for GET and DELETE", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${base()}/mcp`, { method, headers: { Accept: "text/event-stream" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toContain("POST");
    }
  });

  it("-32601 for an unknown method, -32602 for bad params", async () => {
    expect(await errorCode(await post(legacyRequest("nope/nothing")))).toBe(-32601);
    expect(await errorCode(await post(legacyRequest("resources/read", {})))).toBe(-32602);
  });
});

describe("transport over HTTP: 2026-07-28", () => {
  it("server/discover with serverInfo in _meta", async () => {
    const res = await post(modernRequest("server/discover"));
    const result = (await messageOf(res)).result as { supportedVersions: string[]; _meta: Record<string, { name: string }> };
    expect(result.supportedVersions).toContain(MODERN);
    expect(result._meta["io.modelcontextprotocol/serverInfo"].name).toBe("mosaic");
  });

  it("tools/call as SSE with the result's serverInfo, a quick answer sent whole", async () => {
    const res = await post(modernRequest("tools/call", { name: "list_games", arguments: {} }));
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    // Ready long before a keep-alive is due: one sized body, not a chunked stream.
    const text = await res.text();
    expect(res.headers.get("transfer-encoding")).toBeNull();
    expect(Number(res.headers.get("content-length"))).toBe(new TextEncoder().encode(text).byteLength);
    const { events, comments } = parseSse(text);
    expect(comments).toEqual([]);
    const result = (JSON.parse(events[0].data) as { result: { structuredContent: { games: unknown[] }; _meta: Record<string, { name: string }> } }).result;
    expect(Array.isArray(result.structuredContent.games)).toBe(true);
    expect(result._meta["io.modelcontextprotocol/serverInfo"].name).toBe("mosaic");
  });

  it("-32020 when headers and body disagree, -32022 for an unsupported revision", async () => {
    const mismatch = await post(modernRequest("tools/list", {}, { headers: { "Mcp-Method": "resources/list" } }));
    expect(mismatch.status).toBe(400);
    expect(await errorCode(mismatch)).toBe(-32020);
    const name = await post(modernRequest("resources/read", { uri: "mosaic://rules" }, { headers: { "Mcp-Name": "mosaic://other" } }));
    expect(await errorCode(name)).toBe(-32020);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: envelope(undefined, "2030-01-01") } });
    const unsupported = await post({ headers: { "Content-Type": "application/json", Accept: "application/json", "MCP-Protocol-Version": "2030-01-01", "Mcp-Method": "tools/list" }, body });
    expect(await errorCode(unsupported)).toBe(-32022);
  });

  it("-32601 for an unknown method, -32602 for bad params", async () => {
    expect(await errorCode(await post(modernRequest("nope/nothing")))).toBe(-32601);
    expect(await errorCode(await post(modernRequest("tools/call", { name: 7 })))).toBe(-32602);
  });
});

describe("transport over HTTP: robustness", () => {
  const ping = legacyRequest("ping");

  it("-32600 for a batch array", async () => {
    const res = await post({ headers: ping.headers, body: `[${ping.body}]` });
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe(-32600);
  });

  it("-32700 for malformed JSON", async () => {
    const res = await post({ headers: ping.headers, body: "{oops" });
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe(-32700);
  });

  it("a UTF-8 BOM and a trailing CR are tolerated", async () => {
    const res = await post({ headers: ping.headers, body: `\uFEFF${ping.body}\r` });
    expect(res.status).toBe(200);
    expect((await messageOf(res)).result).toEqual({});
  });

  it("413 for an oversized body", async () => {
    const res = await post({ headers: ping.headers, body: `{"pad":"${"z".repeat(2 * 1024 * 1024)}"}` });
    expect(res.status).toBe(413);
  });

  it("403 for a foreign Origin, 200 for the server's own origin", async () => {
    const foreign = await post(ping, { Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const own = await post(ping, { Origin: base() });
    expect(own.status).toBe(200);
    expect(own.headers.get("access-control-allow-origin")).toBe(base());
  });

  it("CORS preflight for a browser client on an allowed origin", async () => {
    const res = await fetch(`${base()}/mcp`, {
      method: "OPTIONS",
      headers: { Origin: "http://localhost:6274", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, mcp-protocol-version, mcp-method, mcp-name, content-type" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost:6274");
    const allowed = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase();
    for (const h of ["authorization", "mcp-protocol-version", "mcp-method", "mcp-name", "content-type"]) expect(allowed).toContain(h);
    const foreign = await fetch(`${base()}/mcp`, { method: "OPTIONS", headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" } });
    expect(foreign.status).toBe(403);
  });

  it("403 for a rebinding Host on the loopback interface", async () => {
    // Node's fetch will not send a custom Host header; a raw HTTP request does.
    const { request } = await import("node:http");
    const url = new URL(base());
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: "/mcp", method: "POST", headers: { ...ping.headers, Host: `rebind.evil.example:${url.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end(ping.body);
    });
    expect(status).toBe(403);
  });
});
