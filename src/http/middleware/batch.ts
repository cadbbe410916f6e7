import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../types";
import { INVALID_REQUEST, jsonRpcErrorResponse } from "../jsonrpc";

/**
 * One JSON-RPC message per request. Batch arrays were dropped from MCP in 2025-06-18 and the
 * 2026-07-28 revision forbids them; the SDK would still serve an all-legacy batch, so the edge
 * refuses every array with -32600 and a message that says what to do instead.
 */
export const refuseBatches: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== "POST") return next();
  const parsed = c.get("parsedBody");
  if (Array.isArray(parsed)) {
    return jsonRpcErrorResponse(400, INVALID_REQUEST, "Invalid Request: JSON-RPC batch arrays are not supported; send one message per request");
  }
  if (typeof parsed !== "object" || parsed === null) {
    return jsonRpcErrorResponse(400, INVALID_REQUEST, "Invalid Request: the body must be one JSON-RPC message object");
  }
  c.set("message", parsed as Record<string, unknown>);
  await next();
};
