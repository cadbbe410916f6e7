import { Hono, type Context } from "hono";
import type { Env } from "../env";
import { historyOf } from "../history-store/history-stub";
import { clientAcceptsGzip } from "./public-json";

/**
 * The history across days (SPEC §11.1, docs/history.md): every read is answered by the history
 * object from its rows, as ready text with an ETag (304 on a match). The downloads come as
 * attachments; the CSV as text/csv.
 */
export function historyRoutes(): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();
  const read = async (c: Context<{ Bindings: Env }>): Promise<Response> => {
    const url = new URL(c.req.url);
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const a = await historyOf(c.env).read(`${path}${url.search}`, c.req.header("If-None-Match") ?? null);
    const headers = new Headers({ "Content-Type": a.contentType === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8", Vary: "Accept-Encoding" });
    if (a.etag) {
      headers.set("ETag", a.etag);
      // A new day changes the answers: revalidate every time (cheap with the ETag).
      headers.set("Cache-Control", "public, no-cache");
    } else headers.set("Cache-Control", "no-store");
    if (a.status === 304) return new Response(null, { status: 304, headers });
    if (a.status === 200 && path.startsWith("/api/history/download.")) headers.set("Content-Disposition", `attachment; filename="mosaic-history.${a.contentType}"`);
    if (a.body.length > 1024 && clientAcceptsGzip(c.req.raw)) headers.set("Content-Encoding", "gzip");
    return new Response(a.body, { status: a.status, headers });
  };
  app.get("/api/history", read);
  app.get("/api/history/*", read);
  return app;
}
