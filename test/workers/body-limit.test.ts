import { env, exports } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app";
import { MAX_API_BODY_BYTES, MAX_BODY_BYTES } from "../../src/http/body-limits";
import { legacyRequest } from "../support/mcp-wire";

/**
 * One body guard for every route that reads a body (SPEC §7, §12): it stops reading at the
 * limit and answers 413 at once, with or without Content-Length, whatever Content-Length claims;
 * a body held open forever is answered 408 instead of never.
 */

const HOST = "localhost:8787";
const ping = legacyRequest("ping");

/** Every route that reads a body, with its limit, plus routes that do not exist (still guarded). */
const ROUTES: Array<{ path: string; limit: number; headers: Record<string, string> }> = [
  { path: "/mcp", limit: MAX_BODY_BYTES, headers: ping.headers },
  ...["/api/keys/auth", "/api/keys/name", "/api/keys/proof-check", "/api/no-such-route", "/no-such-page"].map((path) => ({
    path,
    limit: MAX_API_BODY_BYTES,
    headers: { "Content-Type": "application/json" },
  })),
];

/**
 * A body that never ends: `head` bytes first (as fast as the reader pulls), then either more
 * chunks forever (`endless`) or nothing, held open. `pulled` counts the bytes handed over.
 */
function openBody(opts: { head: number; endless: boolean }): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  const chunk = new TextEncoder().encode("z".repeat(16 * 1024));
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled < opts.head || opts.endless) {
          controller.enqueue(chunk);
          pulled += chunk.byteLength;
          return;
        }
        // Held open: a promise that never settles keeps the stream waiting for more.
        return new Promise<void>(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

function request(path: string, headers: Record<string, string>, body: BodyInit): Request {
  return new Request(`http://${HOST}${path}`, { method: "POST", headers: { host: HOST, ...headers }, body, duplex: "half" } as RequestInit);
}

/** Answers within `ms`, or fails: the guard must never leave a request hanging. */
async function answeredWithin(ms: number, pending: Promise<Response>): Promise<Response> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([pending, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function errorOf(res: Response): Promise<{ code: number | string; message: string }> {
  return ((await res.json()) as { error: { code: number | string; message: string } }).error;
}

/** The refusal shape of each route: JSON-RPC on /mcp, `{error: {code, message}}` elsewhere. */
function expectRefusal(path: string, error: { code: number | string; message: string }, status: number): void {
  if (path === "/mcp") expect(error.code).toBe(status === 413 ? -32600 : -32000);
  else expect(error.code).toBe(status === 413 ? "too_large" : "bad_input");
}

describe("body guard: every route that reads a body", () => {
  for (const route of ROUTES) {
    it(`${route.path}: a body that never ends is refused with 413 once it passes ${route.limit} bytes, reading no further`, async () => {
      const body = openBody({ head: 0, endless: true });
      const res = await answeredWithin(10_000, exports.default.fetch(request(route.path, route.headers, body.stream)));
      expect(res.status).toBe(413);
      const error = await errorOf(res);
      expectRefusal(route.path, error, 413);
      expect(error.message).toContain(String(route.limit));
      // It stopped at the limit: at most a chunk or two of read-ahead past it.
      expect(body.pulled()).toBeGreaterThan(route.limit);
      expect(body.pulled()).toBeLessThanOrEqual(route.limit + 64 * 1024);
    });

    it(`${route.path}: a body over the limit held open afterwards is refused at once`, async () => {
      const body = openBody({ head: route.limit + 32 * 1024, endless: false });
      const res = await answeredWithin(10_000, exports.default.fetch(request(route.path, route.headers, body.stream)));
      expect(res.status).toBe(413);
    });

    it(`${route.path}: a Content-Length over the limit is refused before a byte is read`, async () => {
      const body = openBody({ head: 0, endless: false });
      const headers = { ...route.headers, "Content-Length": String(route.limit + 1) };
      const res = await answeredWithin(10_000, exports.default.fetch(request(route.path, headers, body.stream)));
      expect(res.status).toBe(413);
      expect(body.pulled()).toBe(0);
    });

    it(`${route.path}: a lying Content-Length (small) does not let a larger body through`, async () => {
      const body = openBody({ head: 0, endless: true });
      const headers = { ...route.headers, "Content-Length": "64" };
      const res = await answeredWithin(10_000, exports.default.fetch(request(route.path, headers, body.stream)));
      expect(res.status).toBe(413);
    });
  }

  it("a body held open under the limit is answered 408 when its time runs out, on every route", async () => {
    const app = createApp({ bodyTimeoutMs: 300 });
    for (const route of ROUTES) {
      const body = openBody({ head: 1024, endless: false });
      const started = Date.now();
      const res = await answeredWithin(10_000, Promise.resolve(app.fetch(request(route.path, route.headers, body.stream), env, createExecutionContext())));
      expect(res.status, route.path).toBe(408);
      expectRefusal(route.path, await errorOf(res), 408);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    }
  });

  it("bodies within the limit reach their routes, streamed or not", async () => {
    const res = await exports.default.fetch(request("/mcp", ping.headers, ping.body));
    expect(res.status).toBe(200);
    // Streamed in small chunks without Content-Length: the route sees the whole body.
    const bytes = new TextEncoder().encode(ping.body);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    expect((await exports.default.fetch(request("/mcp", ping.headers, streamed))).status).toBe(200);
    // An identity route gets its body and judges it (400 for a bad request, not 413).
    const near = JSON.stringify({ publicKey: "AAAA", ts: 1, sig: "x", pad: "p".repeat(MAX_API_BODY_BYTES - 100) });
    const judged = await exports.default.fetch(request("/api/keys/auth", { "Content-Type": "application/json" }, near));
    expect(judged.status).toBe(400);
    expect((await errorOf(judged)).code).toBe("bad_input");
  });
});
