import type { MiddlewareHandler } from "hono";
import type { Env } from "../../env";

/**
 * Rate limits at the edge (SPEC §13.1, docs/deploy.md "Rate limits") with Cloudflare's Rate
 * Limiting binding. Each check runs before anything that costs (no Durable Object is called for a
 * limited caller), so calls past a limit never reach a field's object and a flood queues nowhere.
 */

/** The rate limit bindings of wrangler.toml `[[ratelimits]]`. */
export type LimitName = "LIMIT_KEYS" | "LIMIT_ACCOUNTS" | "LIMIT_MCP_ADDRESS" | "LIMIT_MCP_MACHINE" | "LIMIT_SIGNIN_WAIT";

/**
 * Each binding's `period` in seconds, as wrangler.toml sets it (the binding does not say it):
 * the `Retry-After` of a refusal. test/unit/deploy/production-profile.test.ts keeps them equal.
 */
export const LIMIT_PERIODS: Record<LimitName, number> = { LIMIT_KEYS: 60, LIMIT_ACCOUNTS: 60, LIMIT_MCP_ADDRESS: 10, LIMIT_MCP_MACHINE: 10, LIMIT_SIGNIN_WAIT: 60 };

/** A refusal: which limit, and how many seconds until the caller may try again. */
export interface Limited {
  limit: LimitName;
  retryAfter: number;
}

/**
 * The client's address as Cloudflare's edge saw it (never X-Forwarded-For, which anyone can set),
 * or null when there is nobody to limit: no address (an in-process test), or a loopback one — on
 * Cloudflare no client has one, and under `wrangler dev` it is the operator's own tests and
 * benchmarks on the same machine (which pass `CF-Connecting-IP` to act as remote callers).
 */
export function clientAddress(request: Request): string | null {
  const address = request.headers.get("CF-Connecting-IP");
  if (address === null || address === "" || isLoopback(address)) return null;
  return address;
}

function isLoopback(address: string): boolean {
  return address.startsWith("127.") || address === "::1" || address.startsWith("::ffff:127.");
}

/**
 * Counts one call against `limit` for `key`. A binding missing from the configuration (a Worker
 * deployed without it) limits nothing rather than failing every call.
 */
export async function overLimit(env: Env, limit: LimitName, key: string): Promise<Limited | null> {
  const binding = env[limit] as RateLimit | undefined;
  if (!binding) return null;
  const { success } = await binding.limit({ key });
  return success ? null : { limit, retryAfter: LIMIT_PERIODS[limit] };
}

/** What a refused HTTP call is told, in one place. */
export function limitedMessage(limited: Limited): string {
  const what = limited.limit === "LIMIT_MCP_MACHINE" ? "this machine" : "this address";
  return `rate limited: too many calls from ${what}; retry after ${limited.retryAfter} s`;
}

/** The JSON answer of an HTTP route over a limit: 429, Retry-After, the error code `rate_limited`. */
export function rateLimitedResponse(limited: Limited): Response {
  return Response.json(
    { error: { code: "rate_limited", message: limitedMessage(limited), retry_after: limited.retryAfter } },
    { status: 429, headers: { "Retry-After": String(limited.retryAfter), "Cache-Control": "no-store" } },
  );
}

/** Whether `path` is one of `prefixes` or below it (`/token` covers `/token` and `/token/…`, not `/tokens`). */
export function underPrefix(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => path === p || path.startsWith(p.endsWith("/") ? p : `${p}/`));
}

/**
 * Per client address on every path under `prefixes` (any method): the key and sign-in routes.
 * Applied with `app.use("*", limitByAddress("LIMIT_KEYS", [...]))`, so a route added under a
 * prefix later is covered without a thought.
 */
export function limitByAddress(
  limit: LimitName,
  prefixes: readonly string[],
  options: { except?: (path: string) => boolean; writesOnly?: boolean } = {},
): MiddlewareHandler<{ Bindings: Env }> {
  return async (c, next) => {
    // Public reads under a prefix of signed writes (a leaderboard's account column) stay unlimited.
    if (options.writesOnly && (c.req.method === "GET" || c.req.method === "HEAD")) return next();
    const limited = options.except?.(c.req.path) ? null : await addressOverLimit(c.req.raw, c.env, limit, prefixes);
    return limited ? rateLimitedResponse(limited) : next();
  };
}

/**
 * The same check for a handler outside the router (an OAuth provider wrapping the Worker's fetch
 * answers its own paths before Hono sees them): the refusal when `request` is over the limit.
 */
export async function addressOverLimit(request: Request, env: Env, limit: LimitName, prefixes: readonly string[]): Promise<Limited | null> {
  if (request.method === "OPTIONS" || !underPrefix(new URL(request.url).pathname, prefixes)) return null;
  const address = clientAddress(request);
  return address === null ? null : overLimit(env, limit, `${limit}:${address}`);
}

/** The key routes and the OAuth sign-in's (SPEC §8, §8.1): minting credentials, per address. */
export const SIGN_IN_PREFIXES = ["/api/keys", "/authorize", "/token", "/register", "/oauth"] as const;

/**
 * The consent page's own waiting (SPEC §8.1): its status polls count against LIMIT_SIGNIN_WAIT
 * instead of LIMIT_KEYS, so a page that waits for minutes never spends the allowance its approval
 * needs. Only the page's secret makes them answer anything, so they mint nothing worth a flood.
 */
export const SIGNIN_WAIT_PREFIXES = ["/oauth/requests"] as const;
export function isSignInWait(path: string): boolean {
  return /^\/oauth\/requests\/[^/]+\/status$/.test(path);
}

/** The account routes' signed requests (SPEC §8.2), per address: each one writes to the one accounts object. */
export const ACCOUNT_PREFIXES = ["/api/accounts"] as const;
