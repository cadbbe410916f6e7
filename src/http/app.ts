import { Hono } from "hono";
import type { Env } from "../env";
import { archiveRoutes } from "./archive-routes";
import { devRoutes } from "./dev-routes";
import { gameRoutes } from "./game-routes";
import { identityRoutes } from "./identity-routes";
import { mcpRoutes, type McpRouteOptions } from "./mcp-route";
import { spectatorRoutes } from "./spectator-routes";

export interface AppOptions {
  mcp?: McpRouteOptions;
}

/** The Hono router: /mcp, the public API and the site (static assets fall through). */
export function createApp(options: AppOptions = {}): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();
  app.get("/api/health", (c) => c.json({ ok: true, service: "mosaic" }));
  app.route("/", mcpRoutes(options.mcp));
  app.route("/", identityRoutes());
  app.route("/", spectatorRoutes());
  app.route("/", gameRoutes());
  app.route("/", archiveRoutes());
  app.route("/", devRoutes());
  app.notFound((c) => c.env.ASSETS.fetch(c.req.raw));
  return app;
}
