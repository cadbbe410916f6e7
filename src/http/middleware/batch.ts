import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../types";
import { INVALID_REQUEST, jsonRpcErrorResponse } from "../jsonrpc";

/**
 * One JSON-RPC message per request. Batch arrays were dropped from MCP in 2025-06-18 and the
 * 2026-07-28 revision forbids them; the SDK would still serve an all-legacy batch, so the edge
 * refuses every array with -32600 and a message that says what to do instead. Anything else that
 * is not a JSON-RPC 2.0 request, notification or response is -32600 too.
 */
export const refuseBatches: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== "POST") return next();
  const parsed = c.get("parsedBody");
  if (Array.isArray(parsed)) {
    return jsonRpcErrorResponse(400, INVALID_REQUEST, "Invalid Request: JSON-RPC batch arrays are not supported; send one message per request");
  }
  const problem = messageProblem(parsed);
  if (problem) return jsonRpcErrorResponse(400, INVALID_REQUEST, `Invalid Request: ${problem}`);
  c.set("message", parsed as Record<string, unknown>);
  await next();
};

/** Why a value is not one JSON-RPC 2.0 message (MCP ids are strings or numbers, never null). */
export function messageProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return "the body must be one JSON-RPC message object";
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== "2.0") return 'the message must carry "jsonrpc": "2.0"';
  if ("id" in m && typeof m.id !== "string" && !(typeof m.id === "number" && Number.isFinite(m.id))) return "the id must be a string or a number";
  if ("method" in m) {
    if (typeof m.method !== "string" || m.method === "") return "the method must be a non-empty string";
    if ("params" in m && (typeof m.params !== "object" || m.params === null || Array.isArray(m.params))) return "params must be an object";
    return undefined;
  }
  if ("id" in m && ("result" in m || "error" in m)) return undefined; // a response to a server request
  return "the message has no method (and is not a response)";
}
