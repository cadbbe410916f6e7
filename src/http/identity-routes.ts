import { Hono, type Context } from "hono";
import type { z } from "zod";
import type { Env } from "../env";
import { checkJoinProof, displayName, machineFromBearer, proofSpent } from "../identity/api";
import { SPENT_PROOF_MESSAGE } from "../identity/messages";
import { gameExists } from "../game/registry";
import { identityDocument, identityHtml } from "../identity/docs";
import { MACHINE_ID_RE } from "../referee/agent-id";
import { keyAuthSchema, keyNameSchema, proofCheckSchema, mintToken, setName, type KeyError, type RequestFacts } from "../identity/key-requests";
import { identityStub } from "../identity/stub";
import { hostGuard } from "./middleware/origin-host";

export type Ctx = Context<{ Bindings: Env }>;

/** Identity routes (SPEC §8): key requests under /api/keys and the /identity documents. */
export function identityRoutes(): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();
  // Key requests are signed over the Host: one signed for another server's name is not taken here.
  app.use("/api/keys/*", hostGuard((message) => Response.json({ error: { code: "wrong_host", message } }, { status: 403 })));

  app.post("/api/keys/auth", async (c) => {
    const body = await readJson(c, keyAuthSchema);
    if (!body.ok) return refuse(c, body);
    const r = await mintToken(c.env, body.value, facts(c));
    if (!r.ok) return refuse(c, r);
    return c.json({ token: r.token, machine_id: r.machineId }, 200, { "Cache-Control": "no-store" });
  });

  app.post("/api/keys/name", async (c) => {
    const body = await readJson(c, keyNameSchema);
    if (!body.ok) return refuse(c, body);
    const r = await setName(c.env, body.value, facts(c));
    if (!r.ok) return refuse(c, r);
    return c.json({ machine_id: r.machineId, name: r.name });
  });

  // Checks a join proof without spending it, so clients can debug their signing before `join`.
  app.post("/api/keys/proof-check", async (c) => {
    const body = await readJson(c, proofCheckSchema);
    if (!body.ok) return refuse(c, body);
    const v = body.value;
    const r = await checkJoinProof({ gameId: v.game_id, machineId: v.machine_id, publicKey: v.public_key, proof: v.proof, session: v.session });
    if (!r.ok) return c.json({ error: { code: r.code, message: r.message } }, r.code === "bad_input" ? 400 : 401);
    // The check a join would make next: a spent proof is refused there, so it is refused here too.
    if (await proofSpent(c.env, r.machineId, r.message)) return c.json({ error: { code: "proof", message: SPENT_PROOF_MESSAGE } }, 409);
    const game = (await gameExists(c.env, v.game_id)) ? "" : ` (no game ${v.game_id} exists on this server yet: a join would answer missing; see list_games)`;
    return c.json({ ok: true, machine_id: r.machineId, minute: r.minute, signed: r.message, note: `verified, not spent: join with it during minute ${r.minute} or the next${game}` });
  });

  app.get("/api/keys/whoami", async (c) => {
    const who = await machineFromBearer(c.env, c.req.header("authorization") ?? null);
    if (who === null) return c.json({ error: { code: "token", message: "no Authorization header: send 'Authorization: Bearer msc_…' (see /identity)" } }, 401);
    if (!who.ok) return c.json({ error: { code: who.code, message: who.message } }, 401);
    const name = await displayName(c.env, who.machineId);
    return c.json({ machine_id: who.machineId, name }, 200, { "Cache-Control": "no-store" });
  });

  app.get("/api/keys/:machine_id", async (c) => {
    const id = c.req.param("machine_id");
    if (!MACHINE_ID_RE.test(id)) return c.json({ error: { code: "bad_input", message: "machine id must be 'm-' followed by 16 lowercase hex digits" } }, 400);
    const d = await identityStub(c.env, id).describe(id);
    if (!d) return c.json({ error: { code: "missing", message: `no machine ${id} has authenticated here` } }, 404);
    return c.json({ machine_id: d.machineId, public_key: d.publicKey, name: d.name, created_at: new Date(d.createdAt).toISOString() });
  });

  app.get("/identity.md", (c) => c.text(identityDocument(origin(c)), 200, { "Content-Type": "text/plain; charset=utf-8" }));
  app.get("/identity", (c) => c.html(identityHtml(origin(c))));

  return app;
}

function hostOf(c: Ctx): string {
  return c.req.header("host") ?? new URL(c.req.url).host;
}

export function origin(c: Ctx): { scheme: string; host: string } {
  const forwarded = c.req.header("x-forwarded-proto");
  const scheme = forwarded === "https" || forwarded === "http" ? forwarded : new URL(c.req.url).protocol.replace(":", "");
  return { scheme, host: hostOf(c) };
}

export function facts(c: Ctx): RequestFacts {
  const host = hostOf(c);
  const alt = new Set<string>([new URL(c.req.url).host, host.replace(/:\d+$/, "")]);
  const port = /:(\d+)$/.exec(host)?.[1];
  for (const name of ["localhost", "127.0.0.1", "[::1]"]) alt.add(port ? `${name}:${port}` : name);
  const fwd = c.req.header("x-forwarded-host");
  if (fwd) alt.add(fwd);
  alt.delete(host);
  return { host, altHosts: [...alt], nowMs: Date.now() };
}

type Parsed<T> = { ok: true; value: T } | KeyError;

/** The body, already read under the edge's limit (`bodyLimit` in app.ts), as one JSON object. */
async function readObject(c: Ctx): Promise<Parsed<Record<string, unknown>>> {
  const text = await c.req.text();
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return { ok: false, status: 400, code: "bad_input", message: "malformed request: the body must be a JSON object" };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return { ok: false, status: 400, code: "bad_input", message: "malformed request: the body must be a JSON object" };
  }
  return { ok: true, value: json as Record<string, unknown> };
}

export async function readJson<S extends z.ZodType>(c: Ctx, schema: S): Promise<Parsed<z.infer<S>>> {
  const body = await readObject(c);
  if (!body.ok) return body;
  const r = schema.safeParse(body.value);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
    return { ok: false, status: 400, code: "bad_input", message: `malformed request: ${where}${issue.message}` };
  }
  return { ok: true, value: r.data };
}

export function refuse(c: Ctx, e: { status: 400 | 401 | 403 | 404 | 409 | 410; code: string; message: string }): Response {
  return c.json({ error: { code: e.code, message: e.message } }, e.status);
}
