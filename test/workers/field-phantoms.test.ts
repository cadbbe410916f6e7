import { env, exports } from "cloudflare:workers";
import { createExecutionContext, evictDurableObject, listDurableObjectIds, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app";
import { messageOf, modernRequest } from "../support/mcp-wire";
import { createPlaying, errorOf, fieldApi, joinArgs, machineId, ok, uniqueId, type RawStub } from "./game-helpers";

const SCATTER_24 = { kind: "scatter" as const, G: 24 };

/**
 * No phantom objects (SPEC §4.7, §12: reads do not write, bad input changes nothing): calls on a
 * game_id that was never created answer `missing` and leave no storage behind; a stray object left
 * by earlier versions (tables, no game) deletes its storage when it is next touched.
 */

/** Everything an object's SQLite database holds (tables, indexes, the platform's own), and its alarm. */
async function storedBy(raw: RawStub): Promise<{ schema: string[]; alarm: number | null }> {
  return runInDurableObject(raw, async (_instance, state) => ({
    schema: state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master")
      .toArray()
      .map((r) => r.name),
    alarm: await state.storage.getAlarm(),
  }));
}

async function tablesOf(raw: RawStub): Promise<string[]> {
  return (await storedBy(raw)).schema.filter((name) => !name.startsWith("sqlite_") && !name.startsWith("_cf_") && !name.includes("autoindex") && name !== "events_rev");
}

async function tool(name: string, args: Record<string, unknown>, vars?: Partial<typeof env>): Promise<{ isError?: boolean; structuredContent?: Record<string, unknown> }> {
  const req = modernRequest("tools/call", { name, arguments: args });
  const request = new Request("http://localhost:8787/mcp", { method: "POST", headers: req.headers, body: req.body });
  const res = vars ? await createApp().fetch(request, { ...env, ...vars }, createExecutionContext()) : await exports.default.fetch(request);
  return (await messageOf(res)).result as { isError?: boolean; structuredContent?: Record<string, unknown> };
}

const codeOf = (r: { structuredContent?: Record<string, unknown> }) => (r.structuredContent?.error as { code?: string } | undefined)?.code;

describe("no phantom field objects", () => {
  it("calls on game_ids that were never created answer missing and store nothing", async () => {
    const ids = Array.from({ length: 12 }, (_, i) => uniqueId(`phantom-${i}`));
    const agent = `${machineId(7)}/1`;
    for (const [i, gameId] of ids.entries()) {
      // Through /mcp as a stranger would: anonymous observe in every scope, a development-mode
      // join, and writes with an agent_secret.
      const calls: Array<Promise<{ structuredContent?: Record<string, unknown> }>> = [
        tool("observe", { game_id: gameId }),
        tool("observe", { game_id: gameId, rect: [0, 0, 5, 5] }),
        tool("observe", { game_id: gameId, agent }),
        tool("join", { game_id: gameId, session: "s" }, { MOSAIC_DEV: "1" }),
        tool("reveal", { game_id: gameId, agent, expected_revision: 0, tile: i, agent_secret: "as_x" }),
        tool("commit", { game_id: gameId, agent, expected_revision: 0, cells: [[i, 1]], agent_secret: "as_x" }),
        tool("retract", { game_id: gameId, agent, expected_revision: 3, cells: [i], agent_secret: "as_x" }),
      ];
      for (const r of await Promise.all(calls)) expect(codeOf(r)).toBe("missing");
      // And over RPC: every read, a bearer-proven join and write, the close, the alarm.
      const raw = env.FIELDS.getByName(gameId);
      const stub = fieldApi(raw);
      expect(errorOf(await stub.join(joinArgs(machineId(7)))).code).toBe("missing");
      expect(errorOf(await stub.write({ input: { type: "commit", agent, expectedRevision: 0, cells: [[1, 0]], intent: "" }, machineId: machineId(7) })).code).toBe("missing");
      expect(errorOf(await stub.close()).code).toBe("missing");
      expect(errorOf(await stub.manifest()).code).toBe("missing");
      expect(errorOf(await stub.events(0)).code).toBe("missing");
      expect(await stub.status()).toEqual({ status: "missing", revision: 0 });
      await runDurableObjectAlarm(raw);
    }
    // Nothing stored: no table, no index, not even the platform's own, and no alarm. (The local
    // runtime's listDurableObjectIds lists every object whose database was opened, even an empty
    // one, so the database itself is what is checked.)
    for (const gameId of ids) expect(await storedBy(env.FIELDS.getByName(gameId)), gameId).toEqual({ schema: [], alarm: null });
  });

  it("a created field has its tables; an expired one keeps none", async () => {
    const { raw, gameId } = await createPlaying(SCATTER_24, 24);
    expect(await tablesOf(raw)).toEqual(expect.arrayContaining(["meta", "tiles", "solution", "events", "snapshots", "agents"]));
    expect((await listDurableObjectIds(env.FIELDS)).map((id) => id.toString())).toContain(env.FIELDS.idFromName(gameId).toString());
    await runInDurableObject(raw, (_instance, state) => {
      state.storage.sql.exec("UPDATE meta SET value = ? WHERE key = 'expires_at'", JSON.stringify(Date.now() - 1));
    });
    await runDurableObjectAlarm(raw);
    expect((await fieldApi(raw).status()).status).toBe("missing");
    expect(await tablesOf(raw)).toEqual([]);
    expect((await storedBy(raw)).alarm).toBeNull();
  });

  it("a stray object of an earlier version (tables, no game) deletes its storage when next touched", async () => {
    const gameId = uniqueId("stray");
    const raw = env.FIELDS.getByName(gameId);
    // What earlier versions left: the constructor created the tables for any game_id asked about.
    await runInDurableObject(raw, (_instance, state) => {
      state.storage.sql.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      state.storage.sql.exec("CREATE TABLE events (seq INTEGER PRIMARY KEY, rev INTEGER NOT NULL, at INTEGER NOT NULL, input TEXT NOT NULL, event TEXT NOT NULL, hash TEXT NOT NULL)");
      state.storage.sql.exec("CREATE TABLE agents (agent TEXT PRIMARY KEY, machine TEXT NOT NULL, secret_hash TEXT, joined_at INTEGER NOT NULL)");
    });
    expect(await tablesOf(raw)).toEqual(["meta", "events", "agents"]);
    await evictDurableObject(raw);
    expect(errorOf(await fieldApi(raw).observe({})).code).toBe("missing");
    expect(await storedBy(raw)).toEqual({ schema: [], alarm: null });
    // The id stays usable: a game created on it later works.
    const { stub } = await createPlaying(SCATTER_24, 24, { gameId });
    expect((await stub.status()).status).toBe("playing");
    expect(ok(await stub.join(joinArgs(machineId(3)))).agent).toBe(`${machineId(3)}/1`);
  });
});
