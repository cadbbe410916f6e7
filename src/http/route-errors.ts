import type { Context } from "hono";
import { isPlatformFailure, objectFailure, requestIdOf, retryAfterSeconds } from "../game/object-failures";
import type { AppEnv } from "./types";

/** JSON-RPC's "internal error": the server failed while handling a valid request. */
export const INTERNAL_ERROR = -32603;

/**
 * The app's one error handler (`app.onError`): an exception escaping a route (an object reset or
 * overloaded mid-call, a storage error, a bug) is answered in the route's own format, never as a
 * bare text 500 — on `/mcp` a JSON-RPC error (with the request's id when it was parsed), on the
 * API the JSON error `{error: {code: "unavailable", …}}`. Each is logged with a request id, which
 * the answer returns in `X-Request-Id` (and in its body), with `Retry-After`.
 */
export function routeError(err: unknown, c: Context<AppEnv>, isApi: boolean): Response {
  const requestId = requestIdOf(c.req.raw);
  const failure = objectFailure(err);
  const wait = retryAfterSeconds(failure);
  const path = c.req.path.slice(0, 200);
  console.error(JSON.stringify({ event: "route_failed", request_id: requestId, method: c.req.method, path, ...failure, stack: err instanceof Error ? err.stack : undefined }));
  // An object that failed or is overloaded is a passing unavailability; anything else our fault.
  const status = isPlatformFailure(failure) ? 503 : 500;
  const headers = { "Content-Type": "application/json", "Cache-Control": "no-store", "Retry-After": String(wait), "X-Request-Id": requestId };
  const message = `the service failed while handling this request; retry after ${wait} s (request ${requestId})`;
  if (/^\/mcp(?:\/|$)/.test(c.req.path)) {
    const parsed = c.get("message") as Record<string, unknown> | undefined;
    const id = typeof parsed?.id === "string" || typeof parsed?.id === "number" ? parsed.id : null;
    const body = { jsonrpc: "2.0", id, error: { code: INTERNAL_ERROR, message, data: { request_id: requestId, retry_after: wait } } };
    return new Response(JSON.stringify(body), { status, headers });
  }
  if (isApi) return new Response(JSON.stringify({ error: { code: "unavailable", message, retry_after: wait, request_id: requestId } }), { status, headers });
  return new Response(`${message}\n`, { status, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
}

/** The same answer with the request's id in `X-Request-Id` (a tool call that failed and was logged). */
export function withRequestId(response: Response, requestId: string): Response {
  const headers = new Headers(response.headers);
  headers.set("X-Request-Id", requestId);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
