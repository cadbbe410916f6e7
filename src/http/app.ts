import { Hono } from "hono";
import type { Env } from "../env";
import { archiveRoutes } from "./archive-routes";
import { devRoutes } from "./dev-routes";
import { gameRoutes } from "./game-routes";
import { historyRoutes } from "./history-routes";
import { identityRoutes } from "./identity-routes";
import { accountRoutes } from "./account-routes";
import { bodyLimit } from "./middleware/body-limit";
import { MAX_API_BODY_BYTES } from "./body-limits";
import { mcpRoutes, type McpRouteOptions } from "./mcp-route";
import { oauthRoutes } from "./oauth-routes";
import { pageCsp } from "./middleware/page-csp";
import { isPublicReadPath, publicCors } from "./middleware/public-cors";
import { ACCOUNT_PREFIXES, isSignInWait, limitByAddress, SIGN_IN_PREFIXES, SIGNIN_WAIT_PREFIXES } from "./middleware/rate-limit";
import { routeMethods } from "./route-methods";
import { routeError } from "./route-errors";
import { spectatorRoutes } from "./spectator-routes";
import type { AppEnv } from "./types";

export interface AppOptions {
  mcp?: McpRouteOptions;
  /** How long any request body may take to arrive (default 30 s); tests shorten it. */
  bodyTimeoutMs?: number;
}


/** The Hono router: /mcp, the public API and the site (static assets fall through). */
export function createApp(options: AppOptions = {}): Hono<{ Bindings: Env }> {
  const app = new Hono<AppEnv>();
  // Every HTML page leaves with a Content-Security-Policy, framed by no other site (page-csp.ts).
  app.use("*", pageCsp);
  // First, so that every public read answer (and every refusal of one) is readable cross-origin.
  app.use("*", publicCors);
  app.get("/api/health", (c) => c.json({ ok: true, service: "mosaic" }));
  // Key and sign-in routes, per client address, before any of them runs (docs/deploy.md).
  app.use("*", limitByAddress("LIMIT_KEYS", SIGN_IN_PREFIXES, { except: isSignInWait }));
  // The consent page's status polls: a bucket of their own, never the approval's (SPEC §8.1).
  app.use("*", limitByAddress("LIMIT_SIGNIN_WAIT", SIGNIN_WAIT_PREFIXES, { except: (path) => !isSignInWait(path) }));
  // The account routes' signed requests likewise; their public reads are the site's and stay open.
  app.use("*", limitByAddress("LIMIT_ACCOUNTS", ACCOUNT_PREFIXES, { writesOnly: true }));
  // /mcp guards its own body (1 MiB, JSON-RPC refusals) after its CORS and Origin checks.
  app.route("/", mcpRoutes({ bodyTimeoutMs: options.bodyTimeoutMs, ...options.mcp }));
  // The signed-in MCP URL (SPEC §8.1): the same chain as /mcp behind OAuth, guarding its own body too.
  const oauth = oauthRoutes({ bodyTimeoutMs: options.bodyTimeoutMs, ...options.mcp });
  app.route("/", oauth.signedIn);
  // Development routes (404 unless MOSAIC_DEV=1) guard their own bodies: a day's import parts are large.
  app.route("/", devRoutes());
  // Every other route that can carry a body gets the same guard with the API's limit and error
  // shape. Registered before all of them: a route added below is covered without a thought.
  app.use(
    "*",
    bodyLimit({
      maxBytes: MAX_API_BODY_BYTES,
      timeoutMs: options.bodyTimeoutMs,
      refuse: (status, message) => Response.json({ error: { code: status === 413 ? "too_large" : "bad_input", message } }, { status }),
    }),
  );
  app.route("/", identityRoutes());
  app.route("/", accountRoutes());
  app.route("/", oauth.routes);
  app.route("/", spectatorRoutes());
  app.route("/", gameRoutes());
  app.route("/", archiveRoutes());
  app.route("/", historyRoutes());
  const methodsAt = routeMethods(() => app.routes);
  // Anything a route throws answers in that route's format, logged with a request id (route-errors.ts).
  app.onError((err, c) => routeError(err, c, isApiPath(c.req.path)));
  app.notFound((c) => (isApiPath(c.req.path) ? unknownRoute(c.req.method, c.req.path, methodsAt(c.req.path)) : c.env.ASSETS.fetch(c.req.raw)));
  return app as unknown as Hono<{ Bindings: Env }>;
}

/** Paths the API owns: never handed to the site, whose fallback would answer them with index.html. */
export function isApiPath(path: string): boolean {
  return /^\/(?:api|mcp)(?:\/|$)/.test(path);
}

/** 405 with Allow when the path is a route answering other methods, else 404: JSON either way. Every route is listed in docs/api.md. */
function unknownRoute(method: string, path: string, allowed: string[]): Response {
  const shown = path.slice(0, 200);
  if (allowed.length > 0) {
    // The public reads also answer preflights (publicCors), which no route table lists.
    const allow = [...allowed, ...(isPublicReadPath(path) ? ["OPTIONS"] : [])].join(", ");
    const message = `${method} is not allowed on ${shown}: it answers ${allow}`;
    return Response.json({ error: { code: "method_not_allowed", message } }, { status: 405, headers: { Allow: allow, "Cache-Control": "no-store" } });
  }
  const message = `no such route: ${method} ${shown} (docs/api.md lists them)`;
  return Response.json({ error: { code: "missing", message } }, { status: 404, headers: { "Cache-Control": "no-store" } });
}
