import { Hono } from "hono";
import type { Env } from "../env";
import { gameOfArchiveName, listArchives } from "../daily/archive/archive-index";
import { dateOfGame } from "../daily/archive/day-dates";
import { etagMatches } from "../text/etag";
import { hashedJson, jsonError } from "./public-json";

/**
 * Day archives (SPEC §9): the list, and each archive's gzip bytes as written at the close, either
 * as a `.json.gz` file or as JSON with `Content-Encoding: gzip`. Archives never change once
 * written, so they are cached for good; the bytes are the object's, byte for byte.
 */
export function archiveRoutes(): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();

  app.get("/api/archives", async (c) => hashedJson(c.req.raw, JSON.stringify({ archives: await listArchives(c.env.ARCHIVES) })));

  app.get("/api/archives/:name", async (c) => {
    const name = c.req.param("name");
    const asFile = gameOfArchiveName(name) !== null;
    const gameId = asFile ? gameOfArchiveName(name)! : name;
    if (!asFile && dateOfGame(gameId) === null) return jsonError(404, "missing", "archives are named day-YYYY-MM-DD (JSON) or day-YYYY-MM-DD.json.gz (file)");
    const key = `${gameId}.json.gz`;
    const head = await c.env.ARCHIVES.head(key);
    if (!head) return jsonError(404, "missing", `no archive for ${gameId} (a day is archived when it closes; GET /api/archives lists them)`);
    const headers = new Headers({ ETag: head.httpEtag, "Cache-Control": "public, max-age=31536000, immutable" });
    if (etagMatches(c.req.header("If-None-Match") ?? null, head.httpEtag)) return new Response(null, { status: 304, headers });
    const obj = await c.env.ARCHIVES.get(key);
    if (!obj) return jsonError(404, "missing", `no archive for ${gameId}`);
    headers.set("Content-Length", String(obj.size));
    if (asFile) {
      headers.set("Content-Type", "application/gzip");
      headers.set("Content-Disposition", `attachment; filename="${key}"`);
    } else {
      headers.set("Content-Type", "application/json; charset=utf-8");
      headers.set("Content-Encoding", "gzip");
    }
    // "manual": the body already is gzip; the runtime must pass it through, not compress it again.
    return new Response(obj.body, { status: 200, headers, encodeBody: "manual" });
  });

  return app;
}
