import { env, exports } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app";
import { MAX_BODY_BYTES } from "../../src/http/body-limits";
import { legacyRequest, messageOf } from "../support/mcp-wire";

const URL_MCP = "http://localhost:8787/mcp";
const ping = legacyRequest("ping");

function fetchMcp(init: RequestInit, url = URL_MCP): Promise<Response> {
  return exports.default.fetch(url, init);
}

/** The app with different vars, as a deployment with ALLOWED_ORIGINS set would run. */
function appWith(vars: Partial<typeof env>) {
  const app = createApp();
  return async (req: Request): Promise<Response> => await app.fetch(req, { ...env, ...vars }, createExecutionContext());
}

async function errorOf(res: Response): Promise<{ code: number; message: string }> {
  return ((await res.json()) as { error: { code: number; message: string } }).error;
}

describe("/mcp edge: methods and bodies", () => {
  it("answers GET and DELETE with 405 and an Allow header (no standalone stream, no session)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetchMcp({ method, headers: { Accept: "text/event-stream" } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toContain("POST");
      expect((await errorOf(res)).code).toBe(-32000);
    }
  });

  it("refuses a JSON-RPC batch with -32600, whatever it holds", async () => {
    const batches = ["[]", JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "ping" }]), JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", method: "notifications/initialized" }])];
    for (const body of batches) {
      const res = await fetchMcp({ method: "POST", headers: ping.headers, body });
      expect(res.status).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe(-32600);
      expect(error.message).toMatch(/batch/i);
    }
  });

  it("answers malformed JSON with -32700", async () => {
    for (const body of ['{"jsonrpc":"2.0","id":1,"method":"ping"', "", "not json", "\uFEFF"]) {
      const res = await fetchMcp({ method: "POST", headers: ping.headers, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(res)).code).toBe(-32700);
    }
  });

  it("answers JSON that is not one JSON-RPC message with -32600", async () => {
    const bodies = [
      "42",
      "null",
      '"ping"',
      '{"id":1,"method":"ping"}',
      '{"jsonrpc":"1.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","id":null,"method":"ping"}',
      '{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}',
      '{"jsonrpc":"2.0","id":1,"method":7}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1,2]}',
      '{"jsonrpc":"2.0","id":1}',
    ];
    for (const body of bodies) {
      const res = await fetchMcp({ method: "POST", headers: ping.headers, body });
      expect(res.status, body).toBe(400);
      expect((await errorOf(res)).code, body).toBe(-32600);
    }
  });

  it("accepts a JSON-RPC response posted by a client with 202 (nothing is waiting for it)", async () => {
    const res = await fetchMcp({ method: "POST", headers: ping.headers, body: '{"jsonrpc":"2.0","id":5,"result":{}}' });
    expect(res.status).toBe(202);
  });

  it("accepts application/json with a charset parameter", async () => {
    const res = await fetchMcp({ method: "POST", headers: { ...ping.headers, "Content-Type": "application/json; charset=utf-8" }, body: ping.body });
    expect(res.status).toBe(200);
  });

  it("tolerates a UTF-8 BOM, a trailing CR and a trailing CRLF", async () => {
    for (const body of ["\uFEFF" + ping.body, ping.body + "\r", ping.body + "\r\n", "\uFEFF" + ping.body + "\r\n"]) {
      const res = await fetchMcp({ method: "POST", headers: ping.headers, body });
      expect(res.status, JSON.stringify(body.slice(0, 2))).toBe(200);
      expect((await messageOf(res)).result).toEqual({});
    }
  });

  it("refuses a body over the limit with 413 before parsing, by Content-Length or by streaming", async () => {
    const big = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${"x".repeat(MAX_BODY_BYTES)}"}}`;
    const declared = await fetchMcp({ method: "POST", headers: ping.headers, body: big });
    expect(declared.status).toBe(413);
    expect((await errorOf(declared)).message).toContain(String(MAX_BODY_BYTES));
    // A chunked body without Content-Length, and not even JSON: still 413, not -32700.
    const chunks = new TextEncoder().encode("y".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_BODY_BYTES * 2) controller.close();
        else {
          controller.enqueue(chunks);
          sent += chunks.byteLength;
        }
      },
    });
    const streamed = await fetchMcp({ method: "POST", headers: ping.headers, body: stream, duplex: "half" } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it("accepts a body just under the limit", async () => {
    const pad = "x".repeat(MAX_BODY_BYTES - 200);
    const res = await fetchMcp({ method: "POST", headers: ping.headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: { pad } } }) });
    expect(res.status).toBe(200);
  });

  it("refuses a non-JSON media type with 415", async () => {
    const res = await fetchMcp({ method: "POST", headers: { ...ping.headers, "Content-Type": "text/plain" }, body: ping.body });
    expect(res.status).toBe(415);
  });

  it("refuses invalid UTF-8 with -32700", async () => {
    const bytes = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]);
    const res = await fetchMcp({ method: "POST", headers: ping.headers, body: bytes });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe(-32700);
  });
});

describe("/mcp edge: Origin, Host and CORS", () => {
  it("lets requests without an Origin through (every non-browser client)", async () => {
    const res = await fetchMcp({ method: "POST", headers: ping.headers, body: ping.body });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuses a foreign Origin with 403 and no CORS grant", async () => {
    for (const origin of ["https://evil.example", "null", "http://localhost.evil.example:8787"]) {
      const res = await fetchMcp({ method: "POST", headers: { ...ping.headers, Origin: origin }, body: ping.body });
      expect(res.status, origin).toBe(403);
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  it("allows a same-origin page and grants it CORS", async () => {
    const app = appWith({});
    const res = await app(new Request("https://mosaic.example/mcp", { method: "POST", headers: { ...ping.headers, Origin: "https://mosaic.example" }, body: ping.body }));
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://mosaic.example");
  });

  it("allows the origins listed in ALLOWED_ORIGINS and nothing else", async () => {
    const app = appWith({ ALLOWED_ORIGINS: "https://play.example, agents.example" });
    const ok = await app(new Request("https://mosaic.example/mcp", { method: "POST", headers: { ...ping.headers, Origin: "https://play.example" }, body: ping.body }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://play.example");
    expect(ok.headers.get("access-control-expose-headers")).toContain("MCP-Protocol-Version");
    expect(ok.headers.get("vary")).toContain("Origin");
    const bare = await app(new Request("https://mosaic.example/mcp", { method: "POST", headers: { ...ping.headers, Origin: "https://agents.example" }, body: ping.body }));
    expect(bare.status).toBe(200);
    const other = await app(new Request("https://mosaic.example/mcp", { method: "POST", headers: { ...ping.headers, Origin: "https://play.example.evil" }, body: ping.body }));
    expect(other.status).toBe(403);
  });

  it("allows loopback pages to call a loopback server, but not a public one", async () => {
    const local = await fetchMcp({ method: "POST", headers: { ...ping.headers, Origin: "http://localhost:6274" }, body: ping.body });
    expect(local.status).toBe(200);
    const app = appWith({});
    const remote = await app(new Request("https://mosaic.example/mcp", { method: "POST", headers: { ...ping.headers, Origin: "http://localhost:6274" }, body: ping.body }));
    expect(remote.status).toBe(403);
  });

  it("answers a CORS preflight from an allowed origin with the MCP headers", async () => {
    const app = appWith({ ALLOWED_ORIGINS: "https://play.example" });
    const res = await app(
      new Request("https://mosaic.example/mcp", {
        method: "OPTIONS",
        headers: { Origin: "https://play.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-region" },
      }),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://play.example");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    const allowed = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase();
    for (const header of ["authorization", "content-type", "mcp-protocol-version", "mcp-method", "mcp-name", "mcp-param-region"]) expect(allowed).toContain(header);
    expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
  });

  it("refuses a CORS preflight from a foreign origin", async () => {
    const res = await fetchMcp({ method: "OPTIONS", headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" } });
    expect(res.status).toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("adds CORS headers to refusals of allowed origins too, so browsers can read the error", async () => {
    const app = appWith({ ALLOWED_ORIGINS: "https://play.example" });
    const res = await app(new Request("https://mosaic.example/mcp", { method: "POST", headers: { ...ping.headers, Origin: "https://play.example" }, body: "[]" }));
    expect(res.status).toBe(400);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://play.example");
  });

  it("refuses a foreign Host arriving from a loopback client (DNS rebinding)", async () => {
    const rebound = await fetchMcp({ method: "POST", headers: { ...ping.headers, "CF-Connecting-IP": "127.0.0.1" }, body: ping.body }, "http://rebind.evil.example:8787/mcp");
    expect(rebound.status).toBe(403);
    const local = await fetchMcp({ method: "POST", headers: { ...ping.headers, "CF-Connecting-IP": "127.0.0.1" }, body: ping.body }, "http://127.0.0.1:8787/mcp");
    expect(local.status).toBe(200);
    // On the edge the client is never loopback and only this Worker's routes arrive.
    const edge = await fetchMcp({ method: "POST", headers: { ...ping.headers, "CF-Connecting-IP": "203.0.113.9" }, body: ping.body }, "https://mosaic.example/mcp");
    expect(edge.status).toBe(200);
  });
});
