import { createMcpHandler, isLegacyRequest, type McpServer } from "@modelcontextprotocol/server";
import type { ToolContext } from "./context";
import { accepts, serveLegacy } from "./legacy";
import { invalidParams, invalidParamsResponse, modernHeadersAgree } from "./params";
import { answerPlainCall, plainModernCall } from "./direct-call";
import { buildServer } from "./server";

/** SSE comment-line interval on long calls: far below the ~100 s idle cut of Cloudflare's edge. */
export const KEEP_ALIVE_MS = 15_000;

export interface McpServeOptions {
  keepAliveMs?: number;
  /** Extra registrations on top of the product's surface (tests use it for a slow tool). */
  extend?: (server: McpServer, ctx: ToolContext) => void;
  /** False sends every call through the SDK: the reference the direct path is compared with in tests. */
  direct?: boolean;
}

/**
 * Serves one JSON-RPC message that passed the edge checks. 2026-07-28 traffic (the per-request
 * `_meta` envelope) goes to the SDK's `createMcpHandler`, which owns that revision's header
 * checks, `server/discover` and error codes; 2025-era traffic goes to the stateless legacy leg.
 * The routing decision is the SDK's own classifier (`isLegacyRequest`), so the two cannot drift.
 */
export async function serveMcp(request: Request, message: Record<string, unknown>, ctx: ToolContext, options: McpServeOptions = {}): Promise<Response> {
  const keepAliveMs = options.keepAliveMs ?? KEEP_ALIVE_MS;
  const factory = (): McpServer => {
    const server = buildServer(ctx);
    options.extend?.(server, ctx);
    return server;
  };
  // The hot path: a plain tool call skips the SDK's per-request server (direct-call.ts). Extension
  // registrations (tests) live only on the SDK server, so their calls take the SDK's way. A plain
  // call carries the modern envelope: it is not legacy, and needs no second classification.
  const plain = options.extend || options.direct === false ? undefined : plainModernCall(request, message);
  const legacy = plain ? false : await isLegacyRequest(request, message);
  const badParams = invalidParams(message, legacy ? "legacy" : "modern");
  if (badParams !== undefined && (legacy || modernHeadersAgree(request, message))) return invalidParamsResponse(message, badParams);
  if (legacy) return serveLegacy(request, message, factory(), { keepAliveMs });
  const direct = plain ? answerPlainCall(plain, request, ctx, keepAliveMs) : undefined;
  if (direct) return direct;
  // A tool call may take long: stream it (with keep-alive comments) when the client accepts SSE.
  // Everything else is answered as one JSON body.
  const streamed = message.method === "tools/call" && accepts(request, "text/event-stream");
  const handler = createMcpHandler(factory, { legacy: "reject", responseMode: streamed ? "sse" : "auto", keepAliveMs });
  return handler.fetch(request, { parsedBody: message });
}
