import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "./types";
import { closeDay, openDay } from "../daily/daily-lifecycle";
import { isDate, utcDate } from "../daily/archive/day-dates";
import type { ImportPart } from "../game/day-import";
import { bodyLimit } from "./middleware/body-limit";
import { jsonError, JSON_TYPE } from "./public-json";

/** Dev bodies are a date and a few numbers. */
const MAX_BODY = 4096;
/** An import part carries up to a few thousand tiles, 4 MB of events or a whole referee snapshot. */
const MAX_IMPORT_PART = 64 * 1024 * 1024;

const dateArg = z.string().refine(isDate, "date must be a UTC date YYYY-MM-DD");
const openBody = z
  .object({
    date: dateArg.optional(),
    params: z
      .object({
        G: z.number().int().min(200).max(1000).optional(),
        chunks: z.number().int().min(2).max(12).optional(),
        chunk_g: z.number().int().min(40).max(120).optional(),
        grow: z
          .object({ every_minutes: z.number().min(0.1).max(1440).optional(), frontier_coverage: z.number().min(0.1).max(1).optional() })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
const closeBody = z.object({ date: dateArg }).strict();

/**
 * Local development only (`MOSAIC_DEV=1`; otherwise every path here is 404): open a day at once
 * for any date, with smaller parameters if wanted, and close it at once, archive included.
 * `npm run day -- open|close` wraps them.
 */
export function devRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("/api/dev/*", async (c, next) => {
    if (c.env.MOSAIC_DEV !== "1") return jsonError(404, "missing", "not found");
    return next();
  });
  // Mounted ahead of the API's 16 KiB guard (only reachable in development), with limits of their own.
  app.use("/api/dev/day/*", devBodyLimit(MAX_BODY));
  app.use("/api/dev/import/*", devBodyLimit(MAX_IMPORT_PART));

  app.post("/api/dev/day/open", async (c) => {
    const body = await readBody(c.req.raw, openBody);
    if (!body.ok) return jsonError(400, "bad_input", body.message);
    const date = body.value.date ?? utcDate(Date.now());
    const r = await openDay(c.env, date, body.value.params);
    if (!r.ok) return jsonError(r.error.code === "missing" ? 404 : 400, r.error.code, r.error.message);
    return json(r.answer);
  });

  app.post("/api/dev/day/close", async (c) => {
    const body = await readBody(c.req.raw, closeBody);
    if (!body.ok) return jsonError(400, "bad_input", body.message);
    const r = await closeDay(c.env, body.value.date);
    if (!r.ok) return jsonError(r.error.code === "missing" ? 404 : 409, r.error.code, r.error.message);
    return json(r.answer);
  });

  // Loads a day recorded elsewhere into an empty field object, part by part (the close benchmark).
  app.post("/api/dev/import/:id", async (c) => {
    const gameId = c.req.param("id");
    if (!/^[a-zA-Z0-9_-]{1,80}$/.test(gameId)) return jsonError(400, "bad_input", "bad game id");
    const part = (await c.req.json()) as ImportPart;
    const r = await c.env.FIELDS.getByName(gameId).devImport(part);
    if (!r.ok) return jsonError(400, r.error.code, r.error.message);
    return json(r.answer);
  });

  return app;
}

function json(value: unknown): Response {
  return new Response(JSON.stringify(value), { headers: { "Content-Type": JSON_TYPE, "Cache-Control": "no-store" } });
}

function devBodyLimit(maxBytes: number) {
  return bodyLimit({ maxBytes, refuse: (status, message) => jsonError(status, status === 413 ? "too_large" : "bad_input", message) });
}

async function readBody<T>(request: Request, schema: z.ZodType<T>): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  const text = await request.text();
  let parsed: unknown;
  try {
    parsed = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return { ok: false, message: "the body must be JSON" };
  }
  const result = schema.safeParse(parsed);
  if (!result.success) return { ok: false, message: result.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") };
  return { ok: true, value: result.data };
}
