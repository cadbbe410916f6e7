/** JSON-RPC 2.0 error codes used at the HTTP edge, before any MCP server sees the message. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
/** Implementation-defined server error, as the MCP SDK uses for transport-level refusals. */
export const SERVER_ERROR = -32000;

/**
 * A JSON-RPC error answer with an HTTP status. The id is `null` because the edge refuses a
 * message before trusting anything inside it.
 */
export function jsonRpcErrorResponse(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}
