import type { MiddlewareHandler } from "hono";
import type { Env } from "../../env";
import { workerPageCsp } from "../page-csp";

/**
 * Every HTML answer leaves with a Content-Security-Policy (SPEC §8.1): one its route set stands,
 * any other gets the Worker's page policy (page-csp.ts). Registered first, so it sees every answer,
 * the site's fallback and error pages included.
 */
export const pageCsp: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  await next();
  const type = c.res.headers.get("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("text/html") || c.res.headers.has("Content-Security-Policy")) return;
  const csp = await workerPageCsp();
  // Answers from the assets binding have immutable headers: copy before setting.
  const res = new Response(c.res.body, c.res);
  res.headers.set("Content-Security-Policy", csp);
  c.res = res;
};
