import { env } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app";
import { routeError } from "../../src/http/route-errors";
import type { AppEnv } from "../../src/http/types";
import type { FaultPlan } from "../../src/game/fault-hook";
import { objectFailure, retryAfterSeconds } from "../../src/game/object-failures";
import { messageOf, modernRequest } from "../support/mcp-wire";
import { createPlaying, fieldApi, ok } from "./game-helpers";

/**
 * Failures in the route's format (SPEC §13.1): failures are injected into the real field object
 * (its test-only hook, MOSAIC_FAULTS=1: an abort of the object or a throw inside the method,
 * before it runs or after a write was stored). Every answer parses in its route's format, reads
 * are retried through the failure, and no write is applied twice.
 */

type ToolResult = { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Record<string, unknown> };
type ToolError = { code: string; message: string; retry_after?: number; request_id?: string };

const DEV = { MOSAIC_DEV: "1" };

async function rawCall(name: string, args: Record<string, unknown>): Promise<{ res: Response; result: ToolResult }> {
  const req = modernRequest("tools/call", { name, arguments: args }, { client: { name: "faults-test", version: "1" } });
  const request = new Request("http://localhost:8787/mcp", { method: "POST", headers: req.headers, body: req.body });
  const res = await createApp().fetch(request, { ...env, ...DEV }, createExecutionContext());
  const message = await messageOf(res.clone());
  if (!message.result) throw new Error(`protocol error: ${JSON.stringify(message.error)}`);
  const result = message.result as ToolResult;
  // Every answer's text is written for a model (no JSON; SPEC §6); a refusal's is its message.
  const text = result.content[0].text;
  expect(text).not.toMatch(/\{"/);
  const error = result.structuredContent?.error as { message?: string } | undefined;
  if (result.isError && error?.message !== undefined) expect(text).toBe(error.message);
  return { res, result };
}

const errorOf = (r: ToolResult): ToolError | undefined => (r.structuredContent?.error as ToolError | undefined) ?? undefined;

async function seated(G = 24) {
  const playing = await createPlaying({ kind: "scatter", G }, G);
  const { result } = await rawCall("join", { game_id: playing.gameId, machine_id: "m-00000000000000f1", session: "1" });
  const joined = result.structuredContent as { agent: string; agent_secret: string; seed_tile: number; revision: number };
  const arm = (plan: FaultPlan) => env.FIELDS.getByName(playing.gameId).injectFault(plan);
  return { ...playing, agent: joined.agent, secret: joined.agent_secret, seedTile: joined.seed_tile, arm };
}

async function logOf(gameId: string): Promise<Array<Record<string, unknown>>> {
  return ok(await fieldApi(env.FIELDS.getByName(gameId)).events(0)).events;
}

describe("failures under a tool call answer as tool errors; reads are retried, writes never doubled", () => {
  it("an observe through a reset object is retried and answered; through failures that persist it is `unavailable`", async () => {
    const { gameId, agent, arm } = await seated();
    expect(await arm({ method: "observe", when: "before", kind: "reset" })).toEqual({ ok: true });
    const retried = await rawCall("observe", { game_id: gameId, agent });
    expect(retried.result.isError).toBeUndefined();
    expect((retried.result.structuredContent?.observation as { status: string }).status).toBe("playing");
    // Three failing attempts: the read gives up with the tool error, its wait and its request id.
    await arm({ method: "observe", when: "before", kind: "throw", times: 3 });
    const failed = await rawCall("observe", { game_id: gameId, agent });
    expect(failed.result.isError).toBe(true);
    const error = errorOf(failed.result)!;
    expect(error).toMatchObject({ code: "unavailable", retry_after: 1 });
    expect(error.message).toMatch(/nothing was changed\. Retry after 1 s/);
    expect(failed.res.headers.get("X-Request-Id")).toBe(error.request_id);
    // The hook spent its plan: the next call is answered.
    expect((await rawCall("observe", { game_id: gameId, agent })).result.isError).toBeUndefined();
  });

  it("a write whose object fails before or after storing it answers `unavailable`, is never retried, and is logged at most once", async () => {
    const { gameId, agent, secret, seedTile, field, arm } = await seated();
    const revealed = (await rawCall("reveal", { game_id: gameId, agent, expected_revision: 1, tile: seedTile, agent_secret: secret, intent: "seed" })).result;
    const rev = (revealed.structuredContent as { revision: number }).revision;
    const givens = new Set(field.tiles[seedTile].givens);
    const open = field.tiles[seedTile].cellIds.filter((c) => !givens.has(c));
    const cell = (c: number): [number, 0 | 1] => [c, field.solution[c] as 0 | 1];
    const commit = (cells: Array<[number, 0 | 1]>, intent: string, expected: number) =>
      rawCall("commit", { game_id: gameId, agent, expected_revision: expected, cells, agent_secret: secret, intent });

    // Before: nothing stored; the answer says the outcome is unknown and how to check it.
    await arm({ method: "write", when: "before", kind: "reset" });
    const before = await commit([cell(open[0])], "lost before", rev);
    expect(errorOf(before.result)).toMatchObject({ code: "unavailable", retry_after: 1 });
    expect(errorOf(before.result)!.message).toMatch(/may or may not have been applied\. Do not resend it blindly: observe \{agent\} first/);
    expect(before.res.headers.get("X-Request-Id")).toBe(errorOf(before.result)!.request_id);
    expect((await logOf(gameId)).filter((e) => e.intent === "lost before")).toEqual([]);

    // After: the commit is durable, its answer lost; it is not sent again, so it is logged once.
    await arm({ method: "write", when: "after", kind: "reset" });
    const after = await commit([cell(open[0]), cell(open[1])], "stored, answer lost", rev);
    expect(errorOf(after.result)?.code).toBe("unavailable");
    const logged = (await logOf(gameId)).filter((e) => e.intent === "stored, answer lost");
    expect(logged.length).toBe(1);
    expect((logged[0].accepted as Array<{ id: number }>).map((c) => c.id)).toEqual([open[0], open[1]]);
    // The agent observes, sees its cells known, and does not resend: the revision tells it.
    const seen = (await rawCall("observe", { game_id: gameId, agent })).result.structuredContent?.observation as { revision: number };
    expect(seen.revision).toBe(rev + 1);

    // A throw after storing (a bug after the transaction): the same, logged once.
    await arm({ method: "write", when: "after", kind: "throw" });
    expect(errorOf((await commit([cell(open[2])], "thrown after", seen.revision)).result)?.code).toBe("unavailable");
    expect((await logOf(gameId)).filter((e) => e.intent === "thrown after").length).toBe(1);
  });

  it("a run of writes under random faults: every answer parses, none is doubled, the log is contiguous", async () => {
    const { gameId, agent, secret, seedTile, field, arm } = await seated(40);
    let rev = (((await rawCall("reveal", { game_id: gameId, agent, expected_revision: 1, tile: seedTile, agent_secret: secret, intent: "seed" })).result.structuredContent) as { revision: number }).revision;
    const givens = new Set(field.tiles[seedTile].givens);
    const open = field.tiles[seedTile].cellIds.filter((c) => !givens.has(c));
    const plans: Array<FaultPlan | null> = [
      null,
      { method: "write", when: "before", kind: "reset" },
      { method: "write", when: "after", kind: "reset" },
      { method: "write", when: "before", kind: "throw" },
      { method: "write", when: "after", kind: "throw" },
    ];
    const outcomes: Record<string, number> = { ok: 0, unavailable: 0 };
    for (let i = 0; i < Math.min(open.length, 20); i++) {
      const plan = plans[i % plans.length];
      if (plan) await arm(plan);
      const c = open[i];
      const { result } = await rawCall("commit", { game_id: gameId, agent, expected_revision: rev, cells: [[c, field.solution[c]]], agent_secret: secret, intent: `w${i}` });
      const code = errorOf(result)?.code;
      outcomes[code ?? "ok"] = (outcomes[code ?? "ok"] ?? 0) + 1;
      if (code === undefined) rev = (result.structuredContent as { revision: number }).revision;
      else {
        expect(code).toBe("unavailable");
        // As an agent must: observe for the revision before the next write.
        rev = ((await rawCall("observe", { game_id: gameId, agent })).result.structuredContent?.observation as { revision: number }).revision;
      }
    }
    const events = await logOf(gameId);
    expect(events.map((e) => e.rev)).toEqual(events.map((_, i) => i + 1));
    const intents = events.map((e) => e.intent).filter((x): x is string => typeof x === "string" && /^w\d+$/.test(x));
    expect(new Set(intents).size).toBe(intents.length);
    // Those that failed after storing are in the log; those that failed before are not.
    for (let i = 0; i < Math.min(open.length, 20); i++) {
      const plan = plans[i % plans.length];
      expect(intents.includes(`w${i}`), `w${i} ${JSON.stringify(plan)}`).toBe(plan === null || plan.when === "after");
    }
    expect(outcomes.unavailable).toBeGreaterThan(0);
    expect(outcomes.ok).toBeGreaterThan(0);
  });
});

describe("failures escaping a route answer in the route's format (app.onError)", () => {
  it("a public read through a reset object is retried; one that keeps failing is the API's JSON error with a request id", async () => {
    const { gameId, arm } = await seated();
    const get = () => createApp().fetch(new Request(`http://localhost:8787/api/games/${gameId}`), env, createExecutionContext());
    await arm({ method: "publicRead", when: "before", kind: "reset" });
    expect((await get()).status).toBe(200);
    await arm({ method: "publicRead", when: "before", kind: "throw", times: 3 });
    const res = await get();
    expect(res.status).toBe(500);
    expect(res.headers.get("Content-Type")).toMatch(/application\/json/);
    expect(res.headers.get("Retry-After")).toBe("1");
    const body = (await res.json()) as { error: ToolError };
    expect(body.error).toMatchObject({ code: "unavailable", retry_after: 1 });
    expect(res.headers.get("X-Request-Id")).toBe(body.error.request_id);
    expect((await get()).status).toBe(200);
  });

  it("a failure on /mcp outside any tool is a JSON-RPC error carrying the request's id", async () => {
    // The app's own handler on a route that throws after the edge parsed the message.
    const app = new Hono<AppEnv>();
    app.post(
      "/mcp",
      async (c, next) => {
        c.set("message", await c.req.json());
        await next();
      },
      () => {
        throw Object.assign(new Error("Durable Object is overloaded"), { overloaded: true });
      },
    );
    app.onError((err, c) => routeError(err, c, true));
    const req = modernRequest("tools/list");
    const res = await app.fetch(new Request("http://localhost:8787/mcp", { method: "POST", headers: req.headers, body: req.body }), env);
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe("5");
    const body = (await res.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string; data: { request_id: string; retry_after: number } } };
    expect(body).toMatchObject({ jsonrpc: "2.0", id: JSON.parse(req.body).id, error: { code: -32603, data: { retry_after: 5 } } });
    expect(res.headers.get("X-Request-Id")).toBe(body.error.data.request_id);
  });

  it("reads the platform's error properties: an overload is never retried and waits longer", () => {
    const overloaded = objectFailure(Object.assign(new Error("overloaded"), { overloaded: true, retryable: false }));
    expect(overloaded).toMatchObject({ overloaded: true, reset: false });
    expect(retryAfterSeconds(overloaded)).toBe(5);
    expect(objectFailure(Object.assign(new Error("reset"), { durableObjectReset: true }))).toMatchObject({ reset: true, overloaded: false });
    expect(objectFailure("a string")).toMatchObject({ message: "a string", remote: false });
  });

  it("the hook is refused unless the test-only variable enables it", async () => {
    expect(env.MOSAIC_FAULTS).toBe("1");
    const { FaultHook } = await import("../../src/game/fault-hook");
    const off = new FaultHook(false, () => {});
    expect(off.arm({ method: "write", when: "before", kind: "throw" })).toMatchObject({ ok: false });
    // With nothing armed, a call runs as it would without the hook.
    expect(await off.around("write", () => 7)).toBe(7);
  });
});
