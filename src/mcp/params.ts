import { PROTOCOL_VERSION_META_KEY, specTypeSchemas, type SpecTypeName } from "@modelcontextprotocol/server";

/** The requests this server answers in both eras, with the spec type their params must satisfy. */
const SHARED_REQUESTS: Record<string, SpecTypeName> = {
  "tools/list": "ListToolsRequest",
  "tools/call": "CallToolRequest",
  "resources/list": "ListResourcesRequest",
  "resources/templates/list": "ListResourceTemplatesRequest",
  "resources/read": "ReadResourceRequest",
};

/**
 * Per era: 2026-07-28 removed `initialize` and `ping`, which the SDK answers there with -32601;
 * checking their params first would wrongly turn that into -32602. Methods this server does not
 * serve (prompts, completion, logging, subscribe) are left to the SDK's -32601 as well.
 */
const REQUEST_TYPES: Record<"legacy" | "modern", Record<string, SpecTypeName>> = {
  legacy: { ...SHARED_REQUESTS, initialize: "InitializeRequest", ping: "PingRequest" },
  modern: SHARED_REQUESTS,
};

/**
 * Why a request's params do not fit its method, or undefined when they do (or the method is not
 * one checked here). The SDK validates params too, but reports a failure as -32603 (internal
 * error); SPEC §7 wants -32602, so the check runs first with the SDK's own spec schemas.
 */
export function invalidParams(message: Record<string, unknown>, era: "legacy" | "modern"): string | undefined {
  const method = message.method;
  if (typeof method !== "string" || !("id" in message)) return undefined;
  const types = REQUEST_TYPES[era];
  if (!Object.hasOwn(types, method)) return undefined; // also keeps "constructor" & co. out
  const type = types[method];
  const result = specTypeSchemas[type]["~standard"].validate(message);
  if (result instanceof Promise || result.issues === undefined) return undefined;
  const issue = result.issues[0];
  const path = (issue.path ?? []).map((p) => (typeof p === "object" ? String(p.key) : String(p))).join(".");
  return `Invalid params for ${method}: ${path ? `${path}: ` : ""}${issue.message}`;
}

/**
 * Whether a 2026-07-28 request's routing headers agree with its body. When they do not, the SDK's
 * own header checks answer first (-32020 and friends), so their precedence is kept.
 */
export function modernHeadersAgree(request: Request, message: Record<string, unknown>): boolean {
  const params = message.params;
  const meta = typeof params === "object" && params !== null ? (params as Record<string, unknown>)._meta : undefined;
  const version = typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY] : undefined;
  return request.headers.get("mcp-protocol-version") === version && request.headers.get("mcp-method") === message.method;
}

/** A JSON-RPC -32602 answer to the request, as a handler-produced error would be (HTTP 200). */
export function invalidParamsResponse(message: Record<string, unknown>, text: string): Response {
  const id = typeof message.id === "string" || typeof message.id === "number" ? message.id : null;
  return Response.json({ jsonrpc: "2.0", id, error: { code: -32602, message: text } });
}
