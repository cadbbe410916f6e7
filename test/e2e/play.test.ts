import { describe, expect, inject, it } from "vitest";
import { callToolStructured, connectClient } from "../support/mcp-clients";
import { joinProofArgs, newMachine } from "../support/identity";
import { McpTeam, newPlayer, startPlaying } from "./play-helpers";

/** Scripted agents playing real fields through /mcp with real bearer tokens (SPEC §4, §6, §8). */
describe("play over MCP", () => {
  const base = inject("baseUrl");

  it.each([
    ["scatter", { kind: "scatter" as const, G: 24 }],
    ["grid", { kind: "grid" as const, n: 6, G: 11 }],
    ["field", { kind: "field" as const, chunks: 2, chunk_g: 40 }],
  ])("scripted agents play a small %s field to completion", async (_label, args) => {
    const host = await newPlayer(base);
    const { gameId, field, G } = await startPlaying(host.client, args);
    expect(G).toBe(field.G);
    const team = new McpTeam(base, gameId, field);
    try {
      await team.add(host);
      await team.playToEnd();
      const o = await callToolStructured<{ observation: { status: string; totals: { solved: number; reward: number } } }>(host.client, "observe", { game_id: gameId, rect: [0, 0, 1, 1] });
      expect(o.observation.status).toBe("solved");
      expect(o.observation.totals.solved).toBe(field.tiles.length);
      const listed = await callToolStructured<{ games: Array<{ game_id: string; status: string; agents: string[]; agents_total: number; tiles: number }> }>(host.client, "list_games");
      expect(listed.games.find((g) => g.game_id === gameId)).toMatchObject({
        status: "solved",
        agents: team.seats.map((s) => s.agent),
        agents_total: team.seats.length,
        tiles: field.tiles.length,
      });
    } finally {
      await team.close();
    }
  });

  it("two agents meet; nobody writes as another machine; a fourth session is refused", async () => {
    const a = await newPlayer(base);
    const b = await newPlayer(base, "v1");
    // A 2×2 grid of 6×6 tiles: every pair of tiles shares the centre cell, so two solved seeds meet.
    const { gameId, field } = await startPlaying(a.client, { kind: "grid", n: 6, G: 11 });
    const team = new McpTeam(base, gameId, field);
    try {
      const seatA = await team.add(a);
      const seatB = await team.add(b);
      const seedA = (await team.observe(seatA)).frontier[0];
      const seedB = (await team.observe(seatB)).frontier[0];
      expect(seedA).not.toBe(seedB);

      // B's token naming A's agent: refused, and nothing changes.
      const rev = team.revision;
      const stolen = await b.client.callTool("reveal", { game_id: gameId, agent: seatA.agent, expected_revision: rev, tile: seedA, intent: "not mine" });
      expect(stolen.isError).toBe(true);
      expect((stolen.structuredContent?.error as { code: string }).code).toBe("not_your_agent");
      expect(stolen.text).toContain(b.machine.machineId);
      const after = await callToolStructured<{ observation: { revision: number } }>(a.client, "observe", { game_id: gameId, rect: [0, 0, 1, 1] });
      expect(after.observation.revision).toBe(rev);

      await team.playTile(seatA, seedA, "hidden");
      expect(team.meets).toEqual([]);
      await team.playTile(seatB, seedB, "hidden");
      expect(team.meets.length).toBeGreaterThan(0);
      expect(JSON.stringify(team.meets)).toContain(seatA.agent);

      // Sessions 2 and 3 of machine A are seated; a fourth is refused, a rejoin is not.
      await team.add(a, "2");
      await team.add(a, "3");
      const fourth = await a.client.callTool("join", { game_id: gameId, session: "4" });
      expect(fourth.isError).toBe(true);
      expect(fourth.text).toMatch(/3 sessions/);
      const rejoin = await callToolStructured<{ agent: string }>(a.client, "join", { game_id: gameId, session: "1" });
      expect(rejoin.agent).toBe(seatA.agent);
    } finally {
      await team.close();
    }
  });

  it("a proof join plays with its agent_secret and no header; another machine cannot use that agent", async () => {
    const host = await newPlayer(base);
    const { gameId, field } = await startPlaying(host.client, { kind: "scatter", G: 24 });
    const machine = newMachine();
    const bare = await connectClient(base, { flavour: "v2-legacy" });
    try {
      const joined = await callToolStructured<{ agent: string; agent_secret: string; revision: number; seed_tile: number }>(bare, "join", {
        game_id: gameId,
        ...joinProofArgs(machine, gameId, "7"),
        harness: "proof-client",
      });
      expect(joined.agent).toBe(`${machine.machineId}/7`);
      expect(joined.agent_secret).toMatch(/^as_[0-9a-f]{48}$/);
      const tile = joined.seed_tile;
      const noSecret = await bare.callTool("reveal", { game_id: gameId, agent: joined.agent, expected_revision: joined.revision, tile, intent: "x" });
      expect((noSecret.structuredContent?.error as { code: string }).code).toBe("identity");
      const wrongSecret = await bare.callTool("reveal", { game_id: gameId, agent: joined.agent, expected_revision: joined.revision, tile, intent: "x", agent_secret: "as_00" });
      expect((wrongSecret.structuredContent?.error as { code: string }).code).toBe("not_your_agent");
      // The host's valid token does not make the proof agent its own.
      const hostTry = await host.client.callTool("reveal", { game_id: gameId, agent: joined.agent, expected_revision: joined.revision, tile, intent: "x", agent_secret: joined.agent_secret });
      expect((hostTry.structuredContent?.error as { code: string }).code).toBe("not_your_agent");
      const revealed = await callToolStructured<{ revision: number; tile: number }>(bare, "reveal", {
        game_id: gameId, agent: joined.agent, expected_revision: joined.revision, tile, intent: "mine", agent_secret: joined.agent_secret,
      });
      expect(revealed).toMatchObject({ tile, revision: joined.revision + 1 });
      const t = field.tiles[tile];
      const cells = t.cellIds.filter((c) => !t.givens.includes(c)).map((c) => [c, field.solution[c]]);
      const committed = await callToolStructured<{ solved: number[]; rejected: unknown[] }>(bare, "commit", {
        game_id: gameId, agent: joined.agent, expected_revision: revealed.revision, cells, intent: "solve", agent_secret: joined.agent_secret,
      });
      expect(committed.rejected).toEqual([]);
      expect(committed.solved).toContain(tile);
      // The same proof cannot be used twice.
      const replay = await bare.callTool("join", { game_id: gameId, ...joinProofArgs(machine, gameId, "7") });
      expect(replay.isError).toBe(true);
    } finally {
      await bare.close().catch(() => {});
      await host.client.close().catch(() => {});
    }
  });

  it("answers bad play input clearly (SPEC §12)", async () => {
    const p = await newPlayer(base);
    try {
      const missing = await p.client.callTool("observe", { game_id: "no-such-game" });
      expect((missing.structuredContent?.error as { code: string }).code).toBe("missing");
      const badId = await p.client.callTool("observe", { game_id: "bad id!" });
      expect(badId.isError).toBe(true);
      expect(badId.text).toMatch(/game_id/);
      const grid = await p.client.callTool("start_mosaic", { kind: "grid", n: 6, G: 12 });
      expect((grid.structuredContent?.error as { code: string }).code).toBe("bad_input");
      expect(grid.text).toMatch(/multiple of n-1/);
      const started = await callToolStructured<{ game_id: string }>(p.client, "start_mosaic", { kind: "scatter", G: 120 });
      const early = await p.client.callTool("join", { game_id: started.game_id });
      if (early.isError) expect((early.structuredContent?.error as { code: string }).code).toBe("generating");
      const tooMany = await p.client.callTool("commit", {
        game_id: started.game_id, agent: `${p.machine.machineId}/1`, expected_revision: 0, cells: Array.from({ length: 513 }, (_, i) => [i, 0]), intent: "x",
      });
      expect((tooMany.structuredContent?.error as { code: string }).code).toBe("too_large");
      const badToken = await connectClient(base, { headers: { Authorization: "Bearer msc_not_a_token" } });
      const refused = await badToken.callTool("join", { game_id: started.game_id });
      expect((refused.structuredContent?.error as { code: string }).code).toBe("token");
      await badToken.close();
    } finally {
      await p.client.close().catch(() => {});
    }
  });
});
