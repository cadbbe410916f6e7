import { env } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../../src/http/app";
import { resolveHarness, type ToolContext } from "../../src/mcp/context";
import { toolError, toolOk } from "../../src/mcp/results";
import { legacyRequest, messageOf, modernRequest, parseSse } from "../support/mcp-wire";
import type { McpServer } from "@modelcontextprotocol/server";

/** Test-only tools registered on top of the product surface, to observe the request context. */
function extend(server: McpServer, ctx: ToolContext): void {
  server.registerTool("whoami", { inputSchema: z.object({ harness: z.string().optional() }) }, async ({ harness }) => {
    const resolved = resolveHarness(ctx, harness);
    return toolOk(`${resolved.name} (${resolved.source})`, { transport: ctx.harness, resolved, waitUntil: typeof ctx.waitUntil });
  });
  server.registerTool("slow", { inputSchema: z.object({ ms: z.number() }) }, async ({ ms }) => {
    await new Promise((r) => setTimeout(r, ms));
    return toolOk("done", { slept: ms });
  });
  server.registerTool("refuse", { inputSchema: z.object({}) }, async () => toolError("conflict", "Tile 12 changed since revision 4; observe and retry.", { revision: 9 }));
}

const app = createApp({ mcp: { extend, keepAliveMs: 50 } });
async function call(request: { headers: Record<string, string>; body: string }): Promise<Response> {
  return await app.fetch(new Request("http://localhost:8787/mcp", { method: "POST", headers: request.headers, body: request.body }), env, createExecutionContext());
}

interface Whoami {
  transport: { name: string; version?: string; source: string };
  resolved: { name: string; version?: string; source: string };
  waitUntil: string;
}

async function whoami(request: { headers: Record<string, string>; body: string }): Promise<Whoami> {
  const message = await messageOf(await call(request));
  return (message.result as { structuredContent: Whoami }).structuredContent;
}

describe("per-request tool context: the harness (SPEC §6)", () => {
  it("takes the harness from a 2026-07-28 client's clientInfo, over any argument", async () => {
    const who = await whoami(modernRequest("tools/call", { name: "whoami", arguments: { harness: "typed-by-model" } }, { client: { name: "claude-code", version: "2.1.0" } }));
    expect(who.transport).toEqual({ name: "claude-code", version: "2.1.0", source: "transport" });
    expect(who.resolved).toEqual({ name: "claude-code", version: "2.1.0", source: "transport" });
    expect(who.waitUntil).toBe("function");
  });

  it("falls back to the harness argument when a 2026-07-28 client sends no clientInfo", async () => {
    const who = await whoami(modernRequest("tools/call", { name: "whoami", arguments: { harness: "my-loop" } }, { client: null }));
    expect(who.transport.source).toBe("unknown");
    expect(who.resolved).toEqual({ name: "my-loop", source: "argument" });
  });

  it("uses the argument for 2025-era calls: initialize-time clientInfo is not kept by a stateless server", async () => {
    const withArg = await whoami(legacyRequest("tools/call", { name: "whoami", arguments: { harness: "legacy-loop" } }));
    expect(withArg.resolved).toEqual({ name: "legacy-loop", source: "argument" });
    const without = await whoami(legacyRequest("tools/call", { name: "whoami", arguments: {} }));
    expect(without.resolved).toEqual({ name: "unknown", source: "unknown" });
  });

  it("a client named like the server, or with an SDK's default name, identifies nothing: the argument wins, else unknown", async () => {
    const generic = [
      "mosaic", // Mastra and OpenAI Agents put the user's label for the server here
      "MOSAIC",
      " Mosaic ",
      "ai-sdk-mcp-client", // Vercel AI SDK's default
      "@langchain/mcp-adapters", // LangChain.js: its package name for every caller
      "mcp", // the Python SDK's default
      "mcp-use",
      "streamable-http: http://localhost:8787/mcp", // OpenAI Agents without a name
      "sse: http://localhost:8787/mcp",
      "mosaic (via mcp-remote 0.15.1)", // mcp-remote wrapping a host that sent the label
    ];
    for (const name of generic) {
      const withArg = await whoami(modernRequest("tools/call", { name: "whoami", arguments: { harness: "my-loop" } }, { client: { name, version: "1.0.0" } }));
      expect(withArg.transport.source, name).toBe("unknown");
      expect(withArg.resolved, name).toEqual({ name: "my-loop", source: "argument" });
      const without = await whoami(modernRequest("tools/call", { name: "whoami", arguments: {} }, { client: { name, version: "1.0.0" } }));
      expect(without.resolved, name).toEqual({ name: "unknown", source: "unknown" });
    }
    // A desktop host behind mcp-remote still names itself; so does any other real harness.
    for (const name of ["claude-ai (via mcp-remote 0.15.1)", "mosaic-agent", "my-mosaic-bot"]) {
      const who = await whoami(modernRequest("tools/call", { name: "whoami", arguments: { harness: "typed" } }, { client: { name, version: "3" } }));
      expect(who.resolved, name).toEqual({ name, version: "3", source: "transport" });
    }
  });

  it("cleans self-reported names: control characters out, bounded length", async () => {
    const who = await whoami(modernRequest("tools/call", { name: "whoami", arguments: {} }, { client: { name: `evil\n${"x".repeat(300)}`, version: "1" } }));
    expect(who.resolved.name.startsWith("evil x")).toBe(true);
    expect(who.resolved.name.length).toBeLessThanOrEqual(100);
  });
});

describe("tool errors (SPEC §6.1)", () => {
  it("come back as isError results with a code, a message and the revision", async () => {
    const message = await messageOf(await call(legacyRequest("tools/call", { name: "refuse", arguments: {} })));
    const result = message.result as { isError: boolean; content: Array<{ text: string }>; structuredContent: unknown };
    expect(result.isError).toBe(true);
    const error = { code: "conflict", message: "Tile 12 changed since revision 4; observe and retry.", revision: 9 };
    expect(result.structuredContent).toEqual({ error });
    // A model that reads only the text gets the message, and nothing twice (SPEC §6 "What a model reads"); programs read the code.
    expect(result.content).toEqual([{ type: "text", text: error.message }]);
  });
});

describe("keep-alive on long calls (SPEC §7)", () => {
  it("sends SSE comment lines while a 2026-07-28 tool call runs, then the result", async () => {
    const res = await call(modernRequest("tools/call", { name: "slow", arguments: { ms: 400 } }));
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const { events, comments } = parseSse(await res.text());
    expect(comments.length).toBeGreaterThanOrEqual(2);
    expect(events).toHaveLength(1);
    expect((JSON.parse(events[0].data) as { result: { structuredContent: { slept: number } } }).result.structuredContent.slept).toBe(400);
  });

  it("sends SSE comment lines while a 2025-era tool call runs, then the result", async () => {
    const res = await call(legacyRequest("tools/call", { name: "slow", arguments: { ms: 400 } }));
    const { events, comments } = parseSse(await res.text());
    expect(comments.length).toBeGreaterThanOrEqual(2);
    expect(events).toHaveLength(1);
  });
});
