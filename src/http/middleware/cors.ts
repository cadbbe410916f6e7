import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../types";
import { isOriginAllowed, parseAllowedOrigins } from "./origin-host";

/** Request headers a browser MCP client sends (SPEC §7), plus the 2025-era session/resume ones. */
export const CORS_ALLOW_HEADERS = [
  "Authorization",
  "Content-Type",
  "Accept",
  "MCP-Protocol-Version",
  "Mcp-Method",
  "Mcp-Name",
  "Mcp-Session-Id",
  "Last-Event-ID",
];

/** Response headers a browser client needs to read. */
export const CORS_EXPOSE_HEADERS = ["MCP-Protocol-Version", "Mcp-Session-Id", "WWW-Authenticate", "Content-Type"];

const ALLOW_METHODS = "POST, GET, DELETE, OPTIONS";

/**
 * CORS for browser MCP clients on allowed origins, including the preflight. Foreign origins get
 * no CORS headers here; `originHostGuard` then refuses them with 403.
 */
export const mcpCors: MiddlewareHandler<AppEnv> = async (c, next) => {
  const origin = c.req.header("origin");
  const allowed = origin ? isOriginAllowed(origin, new URL(c.req.url), parseAllowedOrigins(c.env.ALLOWED_ORIGINS)) : false;

  if (c.req.method === "OPTIONS") {
    if (origin && !allowed) return new Response(null, { status: 403, headers: { Vary: "Origin" } });
    const headers = new Headers({ Allow: ALLOW_METHODS, Vary: "Origin" });
    if (origin) {
      headers.set("Access-Control-Allow-Origin", origin);
      headers.set("Access-Control-Allow-Methods", ALLOW_METHODS);
      headers.set("Access-Control-Allow-Headers", allowHeadersFor(c.req.header("access-control-request-headers")));
      headers.set("Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS.join(", "));
      headers.set("Access-Control-Max-Age", "86400");
    }
    return new Response(null, { status: 204, headers });
  }

  await next();
  if (!origin || !allowed) return;
  // Responses built by the SDK may carry immutable headers: copy before adding ours.
  const res = new Response(c.res.body, c.res);
  res.headers.set("Access-Control-Allow-Origin", origin);
  res.headers.set("Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS.join(", "));
  res.headers.append("Vary", "Origin");
  c.res = res;
};

/**
 * The fixed list, plus any `Mcp-Param-*` header the client asks for: 2026-07-28 tools may declare
 * parameters mirrored into such headers.
 */
function allowHeadersFor(requested: string | undefined): string {
  const extra = (requested ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter((h) => /^mcp-param-[a-z0-9-]+$/i.test(h));
  return [...CORS_ALLOW_HEADERS, ...extra].join(", ");
}
