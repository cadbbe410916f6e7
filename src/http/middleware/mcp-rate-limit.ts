import { isLegacyRequest, SERVER_INFO_META_KEY } from "@modelcontextprotocol/server";
import type { MiddlewareHandler } from "hono";
import { SERVER_INFO } from "../../mcp/server";
import { SERVER_ERROR } from "../jsonrpc";
import type { AppEnv } from "../types";
import { clientAddress, limitedMessage, overLimit, type Limited } from "./rate-limit";

/**
 * `/mcp` per client address and per machine (docs/deploy.md "Rate limits"), after the edge has
 * parsed the one JSON-RPC message and before any tool runs: a limited call builds no MCP server
 * and calls no object. A `tools/call` over a limit gets the tool error `rate_limited` with the
 * seconds to wait (SPEC §6.1), so a model reads it like any refusal; any other method gets 429.
 */
export const mcpRateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const message = c.get("message");
  const address = clientAddress(c.req.raw);
  // No address to limit is a caller on this machine or a test in the runtime (clientAddress).
  if (address === null) return next();
  const credential = machineCredential(c.req.header("Authorization") ?? null, message);
  const [byAddress, byMachine] = await Promise.all([
    overLimit(c.env, "LIMIT_MCP_ADDRESS", `mcp:${address}`),
    credential === null ? Promise.resolve(null) : credentialKey(credential).then((key) => overLimit(c.env, "LIMIT_MCP_MACHINE", key)),
  ]);
  const limited = byMachine ?? byAddress;
  if (!limited) return next();
  return limitedAnswer(c.req.raw, message, limited);
};

/**
 * What proves the caller's machine: its bearer token, else the `agent_secret` of a tool call.
 * The limit is keyed on the credential itself, not on the machine id a token names, so a forged
 * token naming someone else's machine spends only its own allowance.
 */
export function machineCredential(authorization: string | null, message: Record<string, unknown>): string | null {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
  if (bearer) return `bearer:${bearer}`;
  const params = message.params;
  if (typeof params !== "object" || params === null) return null;
  const args = (params as { arguments?: unknown }).arguments;
  if (typeof args !== "object" || args === null) return null;
  const secret = (args as { agent_secret?: unknown }).agent_secret;
  return typeof secret === "string" && secret.length > 0 ? `secret:${secret.slice(0, 200)}` : null;
}

/** The limiter's key for a credential: its SHA-256, so no secret leaves the Worker as a key. */
async function credentialKey(credential: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(credential));
  const hex = Array.from(new Uint8Array(digest).subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
  return `machine:${hex}`;
}

/** A tool call's `rate_limited` tool error in its era's result shape, or a 429 JSON-RPC error for other methods. */
async function limitedAnswer(request: Request, message: Record<string, unknown>, limited: Limited): Promise<Response> {
  const headers = { "Content-Type": "application/json", "Retry-After": String(limited.retryAfter), "Cache-Control": "no-store" };
  const text = limitedMessage(limited);
  const id = message.id;
  const hasId = typeof id === "string" || typeof id === "number";
  if (message.method !== "tools/call" || !hasId) {
    const body = { jsonrpc: "2.0", error: { code: SERVER_ERROR, message: text, data: { code: "rate_limited", retry_after: limited.retryAfter } }, id: hasId ? id : null };
    return new Response(JSON.stringify(body), { status: 429, headers });
  }
  const structured = { error: { code: "rate_limited", message: text, retry_after: limited.retryAfter } };
  const result: Record<string, unknown> = { content: [{ type: "text", text }], structuredContent: structured, isError: true };
  // 2026-07-28 results carry `resultType` and the server's identity, as every other answer does.
  if (!(await isLegacyRequest(request, message))) Object.assign(result, { resultType: "complete", _meta: { [SERVER_INFO_META_KEY]: SERVER_INFO } });
  return new Response(JSON.stringify({ result, jsonrpc: "2.0", id }), { status: 200, headers });
}
