import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../types";

/**
 * The public read API: the fields, their spectator routes, the archives and the health check.
 * None of it carries credentials or changes state, so any origin may read it (docs/api.md).
 */
export function isPublicReadPath(path: string): boolean {
  return /^\/api\/(?:health|games|archives|accounts|history)(?:\/|$)/.test(path);
}

export const PUBLIC_ALLOW_METHODS = "GET, HEAD, OPTIONS";
/** What a cross-origin reader may send: revalidation and content negotiation. */
export const PUBLIC_ALLOW_HEADERS = "If-None-Match, If-Modified-Since, Accept, Accept-Encoding, Cache-Control, Pragma";
/** What a cross-origin reader may see besides the safelisted headers: ETag for revalidating, Retry-After while a field generates. */
export const PUBLIC_EXPOSE_HEADERS = "ETag, Retry-After, Allow, Content-Disposition, Content-Encoding, Vary";

/**
 * CORS for every public read route, in one place: `*` on every answer (errors included) and the
 * preflight a cross-origin `If-None-Match` needs. `/mcp` and `/api/keys/*` keep their own
 * origin and host checks: this middleware never touches them.
 */
export const publicCors: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!isPublicReadPath(c.req.path)) return next();
  if (c.req.method === "OPTIONS") {
    return new Response(null, {
      status: 204,
      headers: {
        Allow: PUBLIC_ALLOW_METHODS,
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Methods": PUBLIC_ALLOW_METHODS,
        "Access-Control-Allow-Headers": PUBLIC_ALLOW_HEADERS,
        "Access-Control-Max-Age": "86400",
      },
    });
  }
  await next();
  // A WebSocket upgrade is not subject to CORS, and rebuilding it would drop its socket.
  if (c.res.status === 101) return;
  let res = c.res;
  try {
    res.headers.set("Access-Control-Allow-Origin", "*");
  } catch {
    // Answers relayed from a field object have immutable headers: copy before adding ours.
    res = new Response(res.body, res);
    res.headers.set("Access-Control-Allow-Origin", "*");
  }
  res.headers.set("Access-Control-Expose-Headers", PUBLIC_EXPOSE_HEADERS);
  c.res = res;
};
