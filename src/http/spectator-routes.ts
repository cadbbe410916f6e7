import { Hono, type Context } from "hono";
import type { Env } from "../env";
import type { SpectatorAnswer } from "../live/live-duties";
import { existingField, GAME_ID_RE } from "./known-fields";
import { clientAcceptsGzip, jsonError, noSuchGame } from "./public-json";

/**
 * The spectator's routes (docs/spectator.md, SPEC §10): the snapshot, the live feed, the
 * leaderboard and the analysis of a field. Each first asks the registry whether the field
 * exists, so an unknown id answers 404 without creating a field object or any storage.
 */
export function spectatorRoutes(): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();

  app.get("/api/games/:id/snapshot", async (c) => {
    const stub = await fieldOf(c);
    if (stub instanceof Response) return stub;
    return answer(c, await stub.spectatorSnapshot(c.req.header("If-None-Match") ?? null));
  });

  app.get("/api/games/:id/leaderboard", async (c) => {
    const stub = await fieldOf(c);
    if (stub instanceof Response) return stub;
    return answer(c, await stub.leaderboard(c.req.header("If-None-Match") ?? null));
  });

  app.get("/api/games/:id/analysis", async (c) => {
    const stub = await fieldOf(c);
    if (stub instanceof Response) return stub;
    return answer(c, await stub.analysis(c.req.header("If-None-Match") ?? null));
  });

  app.get("/api/games/:id/live", async (c) => {
    if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
      return c.json({ error: { code: "bad_input", message: "the live feed is a WebSocket: connect with Upgrade: websocket" } }, 426);
    }
    const stub = await fieldOf(c);
    if (stub instanceof Response) return stub;
    return stub.fetch(c.req.raw);
  });

  return app;
}

type FieldStub = DurableObjectStub<import("../game/field-object").FieldObject>;

/** The field's object, or the error answer when the id is malformed or no such field exists. */
async function fieldOf(c: Context<{ Bindings: Env }>): Promise<FieldStub | Response> {
  const id = c.req.param("id") ?? "";
  if (!GAME_ID_RE.test(id)) return jsonError(400, "bad_input", "game id must match ^[a-zA-Z0-9_-]{1,80}$");
  return (await existingField(c.env, id)) ?? noSuchGame(id);
}

/** A field object's answer as an HTTP response: cacheable JSON with its ETag, gzip when accepted. */
function answer(c: Context<{ Bindings: Env }>, a: SpectatorAnswer): Response {
  const headers = new Headers({ "Content-Type": "application/json; charset=utf-8", Vary: "Accept-Encoding" });
  if (a.etag) {
    headers.set("ETag", a.etag);
    // Revalidate every time: the ETag names the revision, so a 304 is cheap and never stale.
    headers.set("Cache-Control", "public, no-cache");
  } else headers.set("Cache-Control", "no-store");
  if (a.retryAfter !== undefined) headers.set("Retry-After", String(a.retryAfter));
  if (a.status === 304) return new Response(null, { status: 304, headers });
  // The runtime compresses the body itself when Content-Encoding is set.
  if (a.body.length > 1024 && clientAcceptsGzip(c.req.raw)) headers.set("Content-Encoding", "gzip");
  return new Response(a.body, { status: a.status, headers });
}
