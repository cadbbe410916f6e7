import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../types";
import { jsonRpcErrorResponse, SERVER_ERROR } from "../jsonrpc";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase()) || hostname.toLowerCase().endsWith(".localhost");
}

/** The ALLOWED_ORIGINS var: comma-separated origins (`https://app.example`) or bare hostnames. */
export function parseAllowedOrigins(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim().replace(/\/+$/, "").toLowerCase())
    .filter((s) => s.length > 0);
}

/**
 * Whether a browser page at `origin` may call this server at `requestUrl`: same-origin pages,
 * the origins listed in ALLOWED_ORIGINS, and loopback pages talking to a loopback server
 * (local tools such as the MCP Inspector's web UI).
 */
export function isOriginAllowed(origin: string, requestUrl: URL, allowed: string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // includes the opaque "null" origin
  }
  if (parsed.origin === "null" || parsed.origin !== origin.replace(/\/+$/, "")) return false;
  if (parsed.origin === requestUrl.origin) return true;
  const lower = parsed.origin.toLowerCase();
  if (allowed.some((entry) => entry === "*" || entry === lower || (!entry.includes("://") && entry === parsed.hostname.toLowerCase()))) return true;
  return isLoopbackHostname(parsed.hostname) && isLoopbackHostname(requestUrl.hostname);
}

/**
 * Host check against DNS rebinding. A rebinding page reaches a server on this machine's loopback
 * interface under a foreign name, so a request that arrives from a loopback client must name a
 * loopback host (or one of ALLOWED_ORIGINS' hosts). On Cloudflare's edge the client address is
 * never loopback and only this Worker's own routes reach it, so any Host routed here is genuine.
 */
export function isHostAllowed(request: Request, allowed: string[]): boolean {
  // workerd builds the request URL from the Host header, so the URL's hostname is the Host.
  const hostname = new URL(request.url).hostname.toLowerCase();
  if (isLoopbackHostname(hostname)) return true;
  const client = request.headers.get("cf-connecting-ip");
  if (client === null || !isLoopbackAddress(client)) return true;
  return allowed.some((entry) => hostnameOfOrigin(entry) === hostname);
}

/**
 * 403 for a browser origin this server does not serve (SPEC §7) and for a rebinding Host.
 * Requests without an Origin header (every non-browser MCP client) pass.
 */
export const originHostGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const allowed = parseAllowedOrigins(c.env.ALLOWED_ORIGINS);
  if (!isHostAllowed(c.req.raw, allowed)) {
    return jsonRpcErrorResponse(403, SERVER_ERROR, `Forbidden: host ${new URL(c.req.url).host} is not served to local clients (add it to ALLOWED_ORIGINS)`);
  }
  const origin = c.req.header("origin");
  if (origin !== undefined && origin !== "" && !isOriginAllowed(origin, new URL(c.req.url), allowed)) {
    return jsonRpcErrorResponse(403, SERVER_ERROR, `Forbidden: Origin ${origin} is not allowed (set ALLOWED_ORIGINS to allow it)`);
  }
  await next();
};

/**
 * The Host check alone, for routes whose requests are signed over their Host (SPEC §8): a
 * signature made for another server must not be replayed here under that server's name.
 */
export function hostGuard(refuse: (message: string) => Response): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!isHostAllowed(c.req.raw, parseAllowedOrigins(c.env.ALLOWED_ORIGINS))) {
      return refuse(`host ${new URL(c.req.url).host} is not served here: sign for the host you reach this server by (add it to ALLOWED_ORIGINS if it is this server's)`);
    }
    await next();
  };
}

function hostnameOfOrigin(entry: string): string | undefined {
  if (!entry.includes("://")) return entry;
  try {
    return new URL(entry).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function isLoopbackAddress(ip: string): boolean {
  const a = ip.trim().toLowerCase();
  return a === "::1" || a.startsWith("127.") || a === "::ffff:127.0.0.1" || a.startsWith("::ffff:127.");
}
