import { Hono, type Context } from "hono";
import type { Env } from "../env";
import type { SpectatorAnswer } from "../live/live-duties";
import { existingField, GAME_ID_RE } from "./known-fields";
import { cachedRead, headTtl, waitUntilOf } from "./edge-cache";
import { RELAY_GAME_HEADER, RELAY_NAME_HEADER } from "../live/relay-object";
import { jsonError, noSuchGame } from "./public-json";

/**
 * The spectator's routes (docs/spectator.md, SPEC §10): the snapshot, the live feed, the
 * leaderboard and the analysis of a field. Each first asks the registry whether the field
 * exists, so an unknown id answers 404 without creating a field object or any storage.
 */
export function spectatorRoutes(): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();

  // Through the edge cache (edge-cache.ts): a crowd reading the same answer costs the object one read.
  app.get("/api/games/:id/snapshot", (c) => cachedSpectatorRead(c, (stub, inm) => stub.spectatorSnapshot(inm)));
  app.get("/api/games/:id/leaderboard", (c) => cachedSpectatorRead(c, (stub, inm) => stub.leaderboard(inm)));
  app.get("/api/games/:id/analysis", (c) => cachedSpectatorRead(c, (stub, inm) => stub.analysis(inm)));

  app.get("/api/games/:id/live", async (c) => {
    if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
      return c.json({ error: { code: "bad_input", message: "the live feed is a WebSocket: connect with Upgrade: websocket" } }, 426);
    }
    const stub = await fieldOf(c);
    if (stub instanceof Response) return stub;
    // Spectators are spread over the field's relays (src/live/relay-object.ts, docs/scale.md):
    // the field sends each batch once per relay, and the relays hold the sockets.
    const id = c.req.param("id")!;
    const name = `${id}#${relayIndex(relayCount(c.env.MOSAIC_LIVE_RELAYS))}`;
    const request = new Request(c.req.raw);
    request.headers.set(RELAY_GAME_HEADER, id);
    request.headers.set(RELAY_NAME_HEADER, name);
    return c.env.RELAYS.getByName(name).fetch(request);
  });

  return app;
}

/** Relays per field from `MOSAIC_LIVE_RELAYS` (default 16, at most 1,000). */
export function relayCount(value: string | undefined): number {
  const n = Number(value ?? "16");
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 1000) : 16;
}

/** A relay for a new spectator, uniformly (routing only: nothing in play depends on it). */
function relayIndex(count: number): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] % count;
}

type FieldStub = DurableObjectStub<import("../game/field-object").FieldObject>;

/** The field's object, or the error answer when the id is malformed or no such field exists. */
async function fieldOf(c: Context<{ Bindings: Env }>): Promise<FieldStub | Response> {
  const id = c.req.param("id") ?? "";
  if (!GAME_ID_RE.test(id)) return jsonError(400, "bad_input", "game id must match ^[a-zA-Z0-9_-]{1,80}$");
  return (await existingField(c.env, id)) ?? noSuchGame(id);
}

/** A spectator read from the edge cache, or from the field's object on a miss; gzip when accepted. */
function cachedSpectatorRead(c: Context<{ Bindings: Env }>, read: (stub: FieldStub, ifNoneMatch: string | null) => Promise<SpectatorAnswer>): Promise<Response> | Response {
  if (!GAME_ID_RE.test(c.req.param("id") ?? "")) return jsonError(400, "bad_input", "game id must match ^[a-zA-Z0-9_-]{1,80}$");
  return cachedRead(c.req.raw, { waitUntil: waitUntilOf(c), gzip: true, headTtlS: headTtl(c.env.MOSAIC_EDGE_CACHE_S) }, async (ifNoneMatch) => {
    const stub = await fieldOf(c);
    if (stub instanceof Response) return { status: stub.status, body: await stub.text() };
    return read(stub, ifNoneMatch);
  });
}
