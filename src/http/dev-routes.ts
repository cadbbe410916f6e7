import { Hono } from "hono";
import { z } from "zod";
import type { Env } from "../env";
import { closeDay, openDay } from "../daily/daily-lifecycle";
import { isDate, utcDate } from "../daily/day-dates";
import type { ImportPart } from "../daily/day-import";
import { jsonError, JSON_TYPE } from "./public-json";

/** Dev bodies are a date and a few numbers. */
const MAX_BODY = 4096;

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
export function devRoutes(): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();
  app.use("/api/dev/*", async (c, next) => {
    if (c.env.MOSAIC_DEV !== "1") return jsonError(404, "missing", "not found");
    return next();
  });

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

async function readBody<T>(request: Request, schema: z.ZodType<T>): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY) return { ok: false, message: `body too large: at most ${MAX_BODY} bytes` };
  const text = await request.text();
  if (text.length > MAX_BODY) return { ok: false, message: `body too large: at most ${MAX_BODY} bytes` };
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
