import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { messageOf, modernRequest } from "../support/mcp-wire";
import { waitPlaying } from "./game-helpers";
import { machine, mint, nowS } from "./identity-helpers";

/**
 * The tool definitions and their JSON Schema are built once per isolate and shared by every
 * request's server; only the handlers close over the request. Interleaved requests of different
 * machines must still each be answered from their own request: identity, harness, agent.
 */

type ToolResult = { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Record<string, unknown> };

async function call(name: string, args: Record<string, unknown>, token: string, client: string): Promise<ToolResult> {
  const req = modernRequest("tools/call", { name, arguments: args }, { headers: { Authorization: `Bearer ${token}` }, client: { name: client, version: "1.0" } });
  const message = await messageOf(await exports.default.fetch(new Request("http://localhost:8787/mcp", { method: "POST", headers: req.headers, body: req.body })));
  if (!message.result) throw new Error(`protocol error: ${JSON.stringify(message.error)}`);
  return message.result as ToolResult;
}

async function listTools(): Promise<string> {
  const req = modernRequest("tools/list");
  const message = await messageOf(await exports.default.fetch(new Request("http://localhost:8787/mcp", { method: "POST", headers: req.headers, body: req.body })));
  return JSON.stringify((message.result as { tools: unknown[] }).tools);
}

describe("per-request state with per-isolate tool definitions", () => {
  it("answers interleaved calls of two machines each with its own identity, harness and agent", async () => {
    const [a, b] = [await machine(), await machine()];
    const [tokenA, tokenB] = [await mint(a), await mint(b)];
    const listedBefore = await listTools();
    const started = await call("start_mosaic", { kind: "scatter", G: 24 }, tokenA, "harness-a");
    const gameId = String(started.structuredContent!.game_id);
    await waitPlaying(env.FIELDS.getByName(gameId));

    // Both machines join at once, several sessions each, so their requests overlap in the isolate.
    const sessions = ["1", "2", "3"];
    const joins = await Promise.all(
      sessions.flatMap((s) => [call("join", { game_id: gameId, session: s }, tokenA, "harness-a"), call("join", { game_id: gameId, session: s }, tokenB, "harness-b")]),
    );
    for (const [i, joined] of joins.entries()) {
      const [who, harness] = i % 2 === 0 ? [a, "harness-a"] : [b, "harness-b"];
      expect(joined.isError, JSON.stringify(joined.structuredContent)).toBeFalsy();
      expect(joined.structuredContent).toMatchObject({ agent: `${who.machineId}/${sessions[Math.floor(i / 2)]}`, verified: true, harness: "harness-a" === harness ? "harness-a/1.0" : "harness-b/1.0" });
    }
    const agentA = String(joins[0].structuredContent!.agent);
    const agentB = String(joins[1].structuredContent!.agent);
    const revision = Math.max(...joins.map((j) => Number(j.structuredContent!.revision)));

    // Interleaved observes see each caller's own perspective; a write naming the other machine's
    // agent is refused with that machine's token, while each machine's own write goes through.
    const [obsA, obsB, crossAB, crossBA] = await Promise.all([
      call("observe", { game_id: gameId, agent: agentA }, tokenA, "harness-a"),
      call("observe", { game_id: gameId, agent: agentB }, tokenB, "harness-b"),
      call("reveal", { game_id: gameId, agent: agentB, expected_revision: revision, tile: Number(joins[1].structuredContent!.seed_tile), intent: "x" }, tokenA, "harness-a"),
      call("reveal", { game_id: gameId, agent: agentA, expected_revision: revision, tile: Number(joins[0].structuredContent!.seed_tile), intent: "x" }, tokenB, "harness-b"),
    ]);
    expect(obsA.isError).toBeFalsy();
    expect(obsB.isError).toBeFalsy();
    const code = (r: ToolResult) => (r.structuredContent?.error as { code?: string } | undefined)?.code;
    expect(code(crossAB)).toBe("not_your_agent");
    expect(code(crossBA)).toBe("not_your_agent");
    const own = await Promise.all([
      call("reveal", { game_id: gameId, agent: agentA, expected_revision: revision, tile: Number(joins[0].structuredContent!.seed_tile), intent: "a" }, tokenA, "harness-a"),
      call("reveal", { game_id: gameId, agent: agentB, expected_revision: revision, tile: Number(joins[1].structuredContent!.seed_tile), intent: "b" }, tokenB, "harness-b"),
    ]);
    // Both reach the field as their own machine: at most a revision conflict, never an identity refusal.
    for (const r of own) expect(["conflict", undefined]).toContain(code(r));

    // The shared definitions are unchanged by all of the above: the same list, byte for byte.
    expect(await listTools()).toBe(listedBefore);
  });

  it("reads from the perspective a token proves, not the one it claims; a token that proves nothing is refused, as on a write", async () => {
    const [a, b] = [await machine(), await machine()];
    const replaced = await mint(a);
    const tokenA = await mint(a, nowS() + 1); // minting again (a fresh signature) replaces the first token
    const tokenB = await mint(b);
    const started = await call("start_mosaic", { kind: "scatter", G: 24 }, tokenB, "harness-b");
    const gameId = String(started.structuredContent!.game_id);
    await waitPlaying(env.FIELDS.getByName(gameId));
    const agentB = String((await call("join", { game_id: gameId, session: "1" }, tokenB, "harness-b")).structuredContent!.agent);
    const code = (r: ToolResult) => (r.structuredContent?.error as { code?: string } | undefined)?.code;
    // The current token proves machine A: B's agent is not A's to observe as.
    expect(code(await call("observe", { game_id: gameId, agent: agentB }, tokenA, "harness-a"))).toBe("not_your_agent");
    // The replaced token names A too, but proves nothing: refused with its reason, so the agent learns it at its next read.
    const asReplaced = await call("observe", { game_id: gameId, agent: agentB }, replaced, "harness-a");
    expect(code(asReplaced)).toBe("token");
    expect(asReplaced.content[0].text).toMatch(/replaced by a newer one/);
    // A header that cannot hold a token of ours is refused too; no header at all reads as a spectator.
    const headerOnly = async (authorization: string | undefined) => {
      const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization };
      const req = modernRequest("tools/call", { name: "observe", arguments: { game_id: gameId, agent: agentB } }, { client: { name: "harness-a", version: "1.0" }, headers });
      return (await messageOf(await exports.default.fetch(new Request("http://localhost:8787/mcp", { method: "POST", headers: req.headers, body: req.body })))).result as ToolResult;
    };
    expect(code(await headerOnly("Bearer msc_notarealtoken"))).toBe("token");
    expect(code(await headerOnly("Basic abc"))).toBe("token");
    const asSpectator = await headerOnly(undefined);
    expect(asSpectator.isError, JSON.stringify(asSpectator.structuredContent)).toBeFalsy();
    // A malformed agent id is refused as such, as a write refuses it, not as "not seated".
    const malformed = await call("observe", { game_id: gameId, agent: "bogus" }, tokenB, "harness-b");
    expect(code(malformed)).toBe("bad_input");
    expect(malformed.content[0].text).toMatch(/agent must be "<machine_id>\/<session>"/);
  });
});
