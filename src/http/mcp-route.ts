import { Hono, type Context, type MiddlewareHandler } from "hono";
import { harnessFromMessage, type ToolContext } from "../mcp/context";
import { serveMcp, type McpServeOptions } from "../mcp/handler";
import { INVALID_REQUEST, jsonRpcErrorResponse, SERVER_ERROR } from "./jsonrpc";
import { refuseBatches } from "./middleware/batch";
import { bodyLimit } from "./middleware/body-limit";
import { MAX_BODY_BYTES } from "./body-limits";
import { bomCrTolerance } from "./middleware/bom-cr";
import { mcpCors } from "./middleware/cors";
import { jsonBody } from "./middleware/json-body";
import { mcpRateLimit } from "./middleware/mcp-rate-limit";
import { originHostGuard } from "./middleware/origin-host";
import { utf8Body } from "./middleware/utf8-body";
import { withRequestId } from "./route-errors";
import type { AppEnv } from "./types";
import type { BearerClaim } from "../identity/vouched-tokens";


export interface McpRouteOptions extends McpServeOptions {
  maxBodyBytes?: number;
  /** Where the route answers: `/mcp`, or the signed-in URL (SPEC §8.1), which serves the same tools. */
  path?: string;
  /** On the signed-in URL: the machine the request's OAuth token proves, as a field checks a bearer token. */
  signedIn?: (c: Context<AppEnv>) => Promise<SignedInCall>;
  /** How long a request body may take to arrive (default 30 s). */
  bodyTimeoutMs?: number;
  /** Requests whose rate limits this chain already counted (the signed-in URL hands some to the provider, which sends them back). */
  counted?: (c: Context<AppEnv>) => boolean;
}

/**
 * How a call at the signed-in URL proves its machine: a claim for the fields to check, and
 * `settle`, which after the tools ran says whether their answer stands or gives the one to send
 * instead; or, for a request the claim cannot serve, the `answer` to send without running any tool.
 */
export type SignedInCall = { claim: BearerClaim; settle?: (ctx: ToolContext) => Promise<Response | null> } | { answer: Response };

/**
 * `/mcp` (SPEC §7): streamable HTTP, stateless, both protocol eras on one endpoint. The edge
 * checks run in order, each refusing with its own status and JSON-RPC code before the next:
 * CORS (and preflight) → Origin/Host → body limit → UTF-8 → BOM/CR → JSON → one message (no batch)
 * → rate limits (per address and per machine).
 */
export function mcpRoutes(options: McpRouteOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const path = options.path ?? "/mcp";
  app.use(path, mcpCors, originHostGuard);
  // No session means no standalone GET stream and nothing to DELETE: 405, never 400/404, so
  // 2025-era clients that probe with GET do not loop reconnecting.
  app.on(["GET", "DELETE", "PUT", "PATCH"], path, () =>
    jsonRpcErrorResponse(405, SERVER_ERROR, "Method not allowed: this server is stateless; POST one JSON-RPC message to /mcp", { Allow: "POST, OPTIONS" }),
  );
  const limit = bodyLimit({
    maxBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    timeoutMs: options.bodyTimeoutMs,
    refuse: (status, message) => jsonRpcErrorResponse(status, status === 413 ? INVALID_REQUEST : SERVER_ERROR, `Request refused: ${message}`),
  });
  const counted = options.counted;
  const rateLimit: MiddlewareHandler<AppEnv> = counted ? (c, next) => (counted(c) ? next() : mcpRateLimit(c, next)) : mcpRateLimit;
  app.post(path, limit, utf8Body, bomCrTolerance, jsonBody, refuseBatches, rateLimit, async (c) => {
    const message = c.get("message");
    const ctx: ToolContext = { env: c.env, request: c.req.raw, harness: harnessFromMessage(message) };
    const signedIn = options.signedIn ? await options.signedIn(c) : undefined;
    if (signedIn && "answer" in signedIn) return signedIn.answer;
    if (signedIn) ctx.signedIn = signedIn.claim;
    const waitUntil = executionWaitUntil(c);
    if (waitUntil) ctx.waitUntil = waitUntil;
    let response = await serveMcp(c.req.raw, message, ctx, options);
    if (signedIn?.settle) {
      // A streamed answer ends with the tool's result: only then is it known whether a field proved the claim.
      const body = await response.text();
      const instead = await signedIn.settle(ctx);
      if (instead) return instead;
      response = new Response(body, response);
    }
    // A tool whose call failed logged it under an id: the answer names it (failure-guard.ts).
    return ctx.failed && ctx.requestId ? withRequestId(response, ctx.requestId) : response;
  });
  return app;
}

/** `ctx.waitUntil` when the request came through a Worker's fetch handler (Hono throws otherwise). */
function executionWaitUntil(c: Context<AppEnv>): ((p: Promise<unknown>) => void) | undefined {
  try {
    const ec = c.executionCtx;
    return (p) => ec.waitUntil(p);
  } catch {
    return undefined;
  }
}
