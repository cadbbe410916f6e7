import { request as httpRequest, type IncomingMessage } from "node:http";
import { describe, expect, inject, it } from "vitest";

/**
 * The body guard over real HTTP against `wrangler dev` (SPEC §7, §12): a client holding an
 * oversized chunked body open gets 413 as soon as the limit is passed, on /mcp and on the key
 * routes alike. (Bodies that never end, and lying or merely declared lengths, are tested in
 * workerd in test/workers/body-limit.test.ts: wrangler dev's own proxy cannot relay an early
 * answer while the client is still uploading; see docs/transport.md.)
 */
const base = (): URL => new URL(inject("baseUrl"));

const MCP_LIMIT = 1024 * 1024;
const API_LIMIT = 16 * 1024;

interface Answer {
  status: number;
  body: string;
}

/**
 * POSTs a chunked body (no Content-Length) of `head` bytes, then holds the request open without
 * ending it. Resolves with the answer; the request is destroyed afterwards, so a server that
 * never answers fails the test by its timeout.
 */
function chunkedPost(path: string, opts: { head: number; headers?: Record<string, string> }): Promise<Answer> {
  const url = base();
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(16 * 1024, "z");
    let sent = 0;
    let done = false;
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      path,
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...opts.headers },
    });
    const pump = (): void => {
      while (!done && sent < opts.head) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
    };
    req.on("response", (res: IncomingMessage) => {
      done = true;
      const parts: Buffer[] = [];
      res.on("data", (d: Buffer) => parts.push(d));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8") });
      });
    });
    req.on("error", (err) => {
      if (!done) reject(err);
    });
    req.flushHeaders();
    pump();
  });
}

const ROUTES: Array<[string, number]> = [
  ["/mcp", MCP_LIMIT],
  ["/api/keys/auth", API_LIMIT],
  ["/api/keys/name", API_LIMIT],
];

describe("body guard over HTTP", () => {
  for (const [path, limit] of ROUTES) {
    it(`${path}: a chunked body 64 KiB past the limit, held open, gets 413 at once, naming the ${limit}-byte limit`, async () => {
      // Past the limit by 64 KiB, not by megabytes: wrangler dev's proxy (not our Worker) turns an
      // early answer into its own 500 "Network connection lost" when megabytes are still in flight
      // to it. Endless bodies are refused in workerd itself (test/workers/body-limit.test.ts).
      const answer = await chunkedPost(path, { head: limit + 64 * 1024 });
      expect(answer.status).toBe(413);
      expect(answer.body).toContain(String(limit));
    });

    it(`${path}: a body whose Content-Length is over the limit gets 413`, async () => {
      const res = await fetch(`${base().origin}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "x".repeat(limit + 1) });
      expect(res.status).toBe(413);
    });
  }

  // The dev routes (this server runs in development mode) carry limits of their own: a day's
  // import parts are megabytes, the open/close bodies a date and a few numbers.
  it("/api/dev/import: a part far past the API's 16 KiB limit is read and judged by the import", async () => {
    const part = { kind: "tiles", tiles: [], hashes: [], pad: "x".repeat(256 * 1024) };
    const res = await fetch(`${base().origin}/api/dev/import/body-limit-${Date.now()}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(part) });
    const body = (await res.json()) as { error?: { code: string; message: string } };
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(body.error).toEqual({ code: "bad_input", message: "begin an import first" });
  });

  it("/api/dev/day/open: a body over its 4,096 bytes gets 413", async () => {
    const res = await fetch(`${base().origin}/api/dev/day/open`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pad: "x".repeat(5000) }) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("too_large");
  });

  it("a small body streamed in chunks still reaches /mcp", async () => {
    const url = base();
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        path: "/mcp",
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      for (let i = 0; i < body.length; i += 5) req.write(body.slice(i, i + 5));
      req.end();
    });
    expect(status).toBe(200);
  });
});
