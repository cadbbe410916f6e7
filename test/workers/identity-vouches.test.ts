import { env, exports } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { messageOf, modernRequest } from "../support/mcp-wire";
import { waitPlaying } from "./game-helpers";
import { machine, mint, nowS } from "./identity-helpers";

/**
 * A field trusts the tokens the machine's identity object vouched for without asking again
 * (src/identity/vouched-tokens.ts). SPEC §8 still holds from the moment a new token is minted:
 * the replaced one is refused by every field that held it, with the same refusal as before.
 */

type ToolResult = { isError?: boolean; content?: Array<{ text: string }>; structuredContent?: Record<string, unknown> };

async function call(name: string, args: Record<string, unknown>, token?: string): Promise<ToolResult> {
  const req = modernRequest("tools/call", { name, arguments: args }, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const message = await messageOf(await exports.default.fetch(new Request("http://localhost:8787/mcp", { method: "POST", headers: req.headers, body: req.body })));
  if (!message.result) throw new Error(`protocol error: ${JSON.stringify(message.error)}`);
  return message.result as ToolResult;
}

const errorOf = (r: ToolResult) => r.structuredContent?.error as { code?: string; message?: string } | undefined;

async function playingField(token: string): Promise<string> {
  const started = await call("start_mosaic", { kind: "scatter", G: 24 }, token);
  const gameId = String(started.structuredContent!.game_id);
  await waitPlaying(env.FIELDS.getByName(gameId));
  return gameId;
}

async function watchersOf(machineId: string): Promise<Array<{ field: string; vouched_at: number }>> {
  return runInDurableObject(env.IDENTITY.getByName(machineId), (_instance, state) =>
    state.storage.sql.exec<{ field: string; vouched_at: number }>("SELECT field, vouched_at FROM token_watchers ORDER BY field").toArray(),
  );
}

describe("tokens vouched for and held by fields", () => {
  it("a replaced token is refused at once by every field that held it; the new one works at once", async () => {
    const a = await machine();
    const first = await mint(a);
    const fields = [await playingField(first), await playingField(first)];
    const agents: string[] = [];
    for (const gameId of fields) {
      const joined = await call("join", { game_id: gameId, session: "1" }, first);
      agents.push(String(joined.structuredContent!.agent));
      // A write and a read with the token: each field now holds its vouch.
      const reveal = await call("reveal", { game_id: gameId, agent: agents.at(-1), expected_revision: Number(joined.structuredContent!.revision), tile: Number(joined.structuredContent!.seed_tile), intent: "seed" }, first);
      expect(reveal.isError, JSON.stringify(reveal.structuredContent)).toBeFalsy();
      expect((await call("observe", { game_id: gameId, agent: agents.at(-1) }, first)).isError).toBeFalsy();
    }
    expect((await watchersOf(a.machineId)).map((w) => w.field).sort()).toEqual([...fields].sort());

    const second = await mint(a, nowS() + 1);
    for (const [i, gameId] of fields.entries()) {
      const revision = ((await call("observe", { game_id: gameId, rect: [0, 0, 1, 1] })).structuredContent!.observation as { revision: number }).revision;
      const commit = await call("commit", { game_id: gameId, agent: agents[i], expected_revision: revision, cells: [[0, 0]], intent: "old token" }, first);
      expect(errorOf(commit)?.code).toBe("token");
      expect(errorOf(commit)?.message).toMatch(/replaced by a newer one.*Mint a new one: POST \/api\/keys\/auth/);
      // A read with the replaced token is refused the same way: the agent learns it at its next call.
      const asOld = await call("observe", { game_id: gameId, agent: agents[i] }, first);
      expect(errorOf(asOld)?.code).toBe("token");
      expect(errorOf(asOld)?.message).toMatch(/replaced by a newer one/);
      // The new token is the machine's at once.
      const retract = await call("retract", { game_id: gameId, agent: agents[i], expected_revision: revision, cells: [0], intent: "new token" }, second);
      expect(errorOf(retract)?.code, JSON.stringify(retract.structuredContent)).toBeUndefined();
      const own = await call("observe", { game_id: gameId, agent: agents[i] }, second);
      expect((own.structuredContent!.observation as { health?: unknown }).health).toBeDefined();
    }
  });

  it("a join with a token leaves the field holding its vouch: the first write asks nobody, a new mint still reaches it", async () => {
    const a = await machine();
    const first = await mint(a);
    const gameId = await playingField(first);
    const joined = await call("join", { game_id: gameId, session: "1" }, first);
    expect(joined.isError, JSON.stringify(joined.structuredContent)).toBeFalsy();
    expect(joined.structuredContent!.verified).toBe(true);
    // The field proved the token itself at the join and is noted as holding it.
    expect((await watchersOf(a.machineId)).map((w) => w.field)).toEqual([gameId]);
    const vouchedAt = (await watchersOf(a.machineId))[0].vouched_at;
    await new Promise((r) => setTimeout(r, 5));
    const agent = String(joined.structuredContent!.agent);
    const reveal = await call("reveal", { game_id: gameId, agent, expected_revision: Number(joined.structuredContent!.revision), tile: Number(joined.structuredContent!.seed_tile), intent: "seed" }, first);
    expect(reveal.isError, JSON.stringify(reveal.structuredContent)).toBeFalsy();
    // The first write used the vouch the join left: the identity object was not asked again.
    expect((await watchersOf(a.machineId))[0].vouched_at).toBe(vouchedAt);
    await mint(a, nowS() + 1);
    const commit = await call("commit", { game_id: gameId, agent, expected_revision: Number(reveal.structuredContent!.revision), cells: [[0, 0]], intent: "old token" }, first);
    expect(errorOf(commit)?.code).toBe("token");
    // A join with a token the machine replaced is refused as such, and seats nothing.
    const again = await call("join", { game_id: gameId, session: "2" }, first);
    expect(errorOf(again)?.code).toBe("token");
    expect(errorOf(again)?.message).toMatch(/replaced by a newer one/);
  });

  it("the identity object tells only fields that asked lately, and forgets the others", async () => {
    const a = await machine();
    const token = await mint(a);
    const gameId = await playingField(token);
    const joined = await call("join", { game_id: gameId, session: "1" }, token);
    await call("observe", { game_id: gameId, agent: joined.structuredContent!.agent }, token);
    expect((await watchersOf(a.machineId)).map((w) => w.field)).toEqual([gameId]);
    // A vouch asked for long ago has expired in the field: the next mint need not reach it.
    await runInDurableObject(env.IDENTITY.getByName(a.machineId), (_instance, state) => {
      state.storage.sql.exec("UPDATE token_watchers SET vouched_at = ?", Date.now() - 12 * 60_000);
    });
    await mint(a, nowS() + 1);
    expect(await watchersOf(a.machineId)).toEqual([]);
  });

  it("a token on a field that was never created is checked without noting the field", async () => {
    const a = await machine();
    const token = await mint(a);
    const gameId = `never-${crypto.randomUUID()}`;
    const agent = `${a.machineId}/1`;
    expect(errorOf(await call("observe", { game_id: gameId, agent }, token))?.code).toBe("missing");
    expect(errorOf(await call("reveal", { game_id: gameId, agent, expected_revision: 0, tile: 0, intent: "" }, token))?.code).toBe("missing");
    const replaced = token;
    await mint(a, nowS() + 1);
    expect(errorOf(await call("reveal", { game_id: gameId, agent, expected_revision: 0, tile: 0, intent: "" }, replaced))?.code).toBe("token");
    expect(errorOf(await call("observe", { game_id: gameId, agent }, replaced))?.code).toBe("token");
    const watchers = await runInDurableObject(env.IDENTITY.getByName(a.machineId), (_instance, state) =>
      state.storage.sql.exec("SELECT name FROM sqlite_master WHERE name = 'token_watchers'").toArray(),
    );
    expect(watchers).toEqual([]);
  });
});
