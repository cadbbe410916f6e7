import { Hono } from "hono";
import type { Env } from "../env";
import { retryRead } from "../game/object-failures";
import { EVENTS_PAGE_MAX, type PublicQuery } from "../game/public-reads";
import { listGames } from "../game/registry";
import { existingField } from "./known-fields";
import { hashedJson, jsonAnswer, jsonError, noSuchGame } from "./public-json";

/**
 * The public read API of fields (SPEC §9, §10): the list, a field's manifest, its tile hashes, the
 * tiles of a rectangle (fog respected) and its chained events. Read-only and cacheable (weak
 * ETags on the revision; `If-None-Match` → 304). A read never creates a field: the id is looked
 * up in the registry first, so an unknown id touches no field object (and no storage).
 */
export function gameRoutes(): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();

  app.get("/api/games", async (c) => hashedJson(c.req.raw, JSON.stringify({ games: await listGames(c.env) })));

  app.get("/api/games/:id", (c) => fieldRead(c.env, c.req.raw, c.req.param("id"), { kind: "manifest" }));
  app.get("/api/games/:id/hashes", (c) => fieldRead(c.env, c.req.raw, c.req.param("id"), { kind: "hashes" }));

  app.get("/api/games/:id/tiles", (c) => {
    const rect = parseRect(c.req.query("rect"));
    if (!rect) return jsonError(400, "bad_input", "rect=x,y,w,h is required: four non-negative integers, w and h at least 1");
    return fieldRead(c.env, c.req.raw, c.req.param("id"), { kind: "tiles", rect });
  });

  app.get("/api/games/:id/events", (c) => {
    const from = intParam(c.req.query("from"), 1);
    const limit = intParam(c.req.query("limit"), EVENTS_PAGE_MAX);
    if (from === null) return jsonError(400, "bad_input", "from must be a revision: an integer, 0 or more");
    if (limit === null || limit < 1 || limit > EVENTS_PAGE_MAX) return jsonError(400, "bad_input", `limit must be an integer 1..${EVENTS_PAGE_MAX}`);
    // Events are rev ≥ from and the first is rev 1, so 0 (what live?from=0 starts at) is the start too:
    // asked as 1, so both share one answer and one ETag.
    return fieldRead(c.env, c.req.raw, c.req.param("id"), { kind: "events", from: Math.max(from, 1), limit });
  });

  return app;
}

async function fieldRead(env: Env, request: Request, gameId: string, query: PublicQuery): Promise<Response> {
  const stub = await existingField(env, gameId);
  if (!stub) return noSuchGame(gameId);
  // A read: tried again after a reset or transient failure, each time through a fresh stub.
  const answer = await retryRead(() => env.FIELDS.getByName(gameId).publicRead(query, request.headers.get("If-None-Match")));
  return jsonAnswer(answer.status, answer.body, answer.etag, answer.immutable === true);
}

function parseRect(value: string | undefined): [number, number, number, number] | null {
  if (value === undefined) return null;
  const parts = value.split(",");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,7}$/.test(p.trim()))) return null;
  const [x, y, w, h] = parts.map((p) => Number(p.trim()));
  return w >= 1 && h >= 1 ? [x, y, w, h] : null;
}

function intParam(value: string | undefined, fallback: number): number | null {
  if (value === undefined || value === "") return fallback;
  return /^\d{1,15}$/.test(value) ? Number(value) : null;
}
