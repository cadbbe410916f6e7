import { Hono } from "hono";
import type { Env } from "../env";
import { gameOfArchiveName, listArchives } from "../daily/archive/archive-index";
import { dateOfGame } from "../daily/archive/day-dates";
import { etagMatches } from "../text/etag";
import { CACHE_HEADER, waitUntilOf } from "./edge-cache";
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
    const found = await archiveBytes(c.env, key, new URL(c.req.url).origin, waitUntilOf(c));
    if (!found) return jsonError(404, "missing", `no archive for ${gameId} (a day is archived when it closes; GET /api/archives lists them)`);
    const headers = new Headers({ ETag: found.etag, "Cache-Control": "public, max-age=31536000, immutable", [CACHE_HEADER]: found.source });
    if (etagMatches(c.req.header("If-None-Match") ?? null, found.etag)) {
      await found.body.cancel();
      return new Response(null, { status: 304, headers });
    }
    headers.set("Content-Length", String(found.size));
    if (asFile) {
      headers.set("Content-Type", "application/gzip");
      headers.set("Content-Disposition", `attachment; filename="${key}"`);
    } else {
      headers.set("Content-Type", "application/json; charset=utf-8");
      headers.set("Content-Encoding", "gzip");
    }
    // "manual": the body already is gzip; the runtime must pass it through, not compress it again.
    return new Response(found.body, { status: 200, headers, encodeBody: "manual" });
  });

  return app;
}

/**
 * An archive's gzip bytes from the edge cache, or from R2 (then kept in the cache for good: an
 * archive never changes once written), so a crowd opening a day's replay reads R2 once per location.
 */
async function archiveBytes(env: Env, key: string, origin: string, waitUntil: ((p: Promise<unknown>) => void) | null): Promise<{ body: ReadableStream; size: number; etag: string; source: "hit" | "miss" } | null> {
  const cache = typeof caches === "undefined" ? null : (caches as unknown as { default: Cache }).default;
  const cacheKey = new Request(`${origin}/api/archives/${key}`, { method: "GET" });
  const stored = cache ? await cache.match(cacheKey) : undefined;
  if (stored?.body) return { body: stored.body, size: Number(stored.headers.get("Content-Length") ?? 0), etag: stored.headers.get("ETag") ?? "", source: "hit" };
  const obj = await env.ARCHIVES.get(key);
  if (!obj) return null;
  if (!cache) return { body: obj.body, size: obj.size, etag: obj.httpEtag, source: "miss" };
  const [toReader, toCache] = obj.body.tee();
  const headers = { "Content-Type": "application/gzip", "Content-Length": String(obj.size), ETag: obj.httpEtag, "Cache-Control": "public, max-age=31536000, immutable" };
  const put = cache.put(cacheKey, new Response(toCache, { headers, encodeBody: "manual" })).catch((err: unknown) => console.error("edge cache put failed", err));
  if (waitUntil) waitUntil(put);
  return { body: toReader, size: obj.size, etag: obj.httpEtag, source: "miss" };
}
