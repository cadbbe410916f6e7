import { describe, expect, inject, it } from "vitest";
import type { Field } from "../../src/engine/types";
import { connectClient, type McpClient, type ToolCallResult } from "../support/mcp-clients";
import { RULES_CORE } from "../../src/mcp/rules";
import { readModelText, structuredPictures } from "../support/model-text";
import { McpTeam, newPlayer, startPlaying } from "./play-helpers";

/**
 * A user's reading of every answer (SPEC §6.1, §6 token economy, §12): a real client plays a real
 * field through /mcp and checks each answer field by field, each text's length, each refusal's
 * code, and that odd but valid inputs change nothing.
 */

/** "A summary of at most a few hundred characters" (SPEC §6): the first line of the text. */
const MAX_TEXT = 400;

type Obj = Record<string, unknown>;

function keysOf(o: unknown): string[] {
  return Object.keys(o as Obj).sort();
}

/** The answer fields SPEC §6.1 names must be present (more may be added). */
function expectFields(o: unknown, names: string[]): void {
  expect(o).toBeTypeOf("object");
  expect(keysOf(o)).toEqual(expect.arrayContaining(names));
}

function okAnswer(r: ToolCallResult): Obj {
  expect(r.isError, r.text).toBe(false);
  const { summary, pictures } = readModelText(r.text);
  expect(summary.length).toBeLessThanOrEqual(MAX_TEXT);
  expect(summary.length).toBeGreaterThan(0);
  expect(r.structuredContent).toBeDefined();
  // The text draws every tile structuredContent pictures, for clients that show their model only the text.
  const drawn = Object.values(structuredPictures(r.structuredContent));
  for (const picture of drawn) expect(r.text).toContain(picture);
  expect(pictures.length).toBe(drawn.length);
  return r.structuredContent as Obj;
}

function refusal(r: ToolCallResult, code: string): { code: string; message: string; revision?: number } {
  expect(r.isError, r.text).toBe(true);
  const error = (r.structuredContent as { error?: { code: string; message: string; revision?: number } } | undefined)?.error;
  expect(error, r.text).toBeDefined();
  expect(error!.code, error!.message).toBe(code);
  // A refusal's text is its message, nothing else.
  expect(r.text).toBe(error!.message);
  expect(readModelText(r.text).summary.length).toBeLessThanOrEqual(MAX_TEXT);
  return error!;
}

function expectHealth(h: unknown): void {
  expectFields(h, ["state", "rate", "committed", "wrong", "window", "died_at"]);
  const health = h as Obj;
  expect(["healthy", "warning", "dead"]).toContain(health.state);
  for (const k of ["rate", "committed", "wrong", "window"]) expect(health[k]).toBeTypeOf("number");
}

function decodeKnown(known: { gaps: number[]; values: string }): Map<number, number> {
  const out = new Map<number, number>();
  let id = 0;
  known.gaps.forEach((g, i) => {
    id += g;
    out.set(id, Number(known.values[i]));
  });
  return out;
}

describe("answers as a user reads them (SPEC §6.1)", () => {
  const base = inject("baseUrl");

  it("tools/list stays under 16 KB; join carries the rules, every other tool points to mosaic://rules", async () => {
    const { client } = await newPlayer(base);
    try {
      const tools = await client.listTools();
      expect(JSON.stringify({ tools }).length).toBeLessThan(16_000);
      const join = tools.find((t) => t.name === "join")!;
      expect(join.description).toContain("MOSAIC RULES");
      for (const t of tools.filter((t) => t.name !== "join")) expect(t.description).toContain("mosaic://rules");
      const [rules] = await client.readResource("mosaic://rules");
      expect(rules.mimeType).toBe("text/plain");
      // The play rules ride in join's description; the resource has them plus the notes read once.
      expect(join.description).toContain(RULES_CORE);
      expect(rules.text!.startsWith(RULES_CORE)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("join, observe, reveal, commit, retract and conflict answer with the §6.1 fields; odd inputs change nothing", async () => {
    const { client } = await newPlayer(base);
    try {
      const { gameId, field } = await startPlaying(client, { kind: "grid", n: 6, G: 11 });
      await play(client, gameId, field);
    } finally {
      await client.close();
    }
  });

  it("malformed calls of every play tool get a coded refusal and change nothing (random fuzz)", async () => {
    const { client } = await newPlayer(base);
    try {
      const { gameId, field } = await startPlaying(client, { kind: "scatter", G: 24 });
      const joined = okAnswer(await client.callTool("join", { game_id: gameId }));
      const agent = joined.agent as string;
      const revision = async () => ((okAnswer(await client.callTool("observe", { game_id: gameId, rect: [0, 0, 1, 1] })).observation as Obj).revision as number);
      const rev = await revision();
      let state = 12345;
      const rnd = (n: number) => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) % n);
      const junk = (): unknown => [null, -1, 1.5, "x", true, {}, [], [1], [[1]], 2 ** 53, -(2 ** 31), "😀".repeat(200), field.G * field.G][rnd(13)];
      const codes = new Set(["missing", "generating", "failed", "identity", "token", "proof", "not_seated", "not_your_agent", "off_frontier", "solved", "conflict", "too_large", "bad_input", "dead", "closed", "rate_limited", "unavailable"]);
      for (let i = 0; i < 60; i++) {
        const tool = ["reveal", "commit", "retract", "observe"][i % 4];
        const args: Obj = { game_id: gameId, agent, expected_revision: rev };
        if (tool === "reveal") args.tile = junk();
        if (tool === "commit") args.cells = [[rnd(field.G * field.G), rnd(2)], [junk(), rnd(2)]];
        if (tool === "retract") args.cells = [rnd(field.G * field.G), junk()];
        if (tool === "observe") args.rect = [rnd(field.G), rnd(field.G), [null, -1, 0, 1.5, "x", [], 2 ** 53][rnd(7)], 1];
        const r = await client.callTool(tool, args);
        expect(r.isError, `${tool} ${JSON.stringify(args).slice(0, 200)}`).toBe(true);
        const error = (r.structuredContent as { error?: { code: string } } | undefined)?.error;
        expect(codes.has(error?.code ?? ""), r.text).toBe(true);
        expect(readModelText(r.text).summary.length).toBeLessThanOrEqual(MAX_TEXT);
      }
      expect(await revision()).toBe(rev);
    } finally {
      await client.close();
    }
  });

  it("under fog, a {rect} view by a seated caller (bearer token, no agent) shows what its group reached, and its frontier", async () => {
    const { client } = await newPlayer(base);
    const spectator = await connectClient(base, { flavour: "v2-modern" });
    try {
      const { gameId, field } = await startPlaying(client, { kind: "scatter", G: 24, rules: { fog: true } });
      const joined = okAnswer(await client.callTool("join", { game_id: gameId }));
      const seed = joined.seed_tile as number;
      okAnswer(await client.callTool("reveal", { game_id: gameId, agent: joined.agent, expected_revision: joined.revision, tile: seed }));
      const seedCells = new Set(field.tiles[seed].cellIds);
      const reached = field.tiles.filter((t) => t.id === seed || t.cellIds.some((c) => seedCells.has(c))).map((t) => t.id);
      const whole = [0, 0, field.G, field.G];
      const mine = okAnswer(await client.callTool("observe", { game_id: gameId, rect: whole })).observation as { fog: boolean; tiles: Obj[]; frontier: number[] };
      expect(mine.fog).toBe(true);
      expect(mine.tiles.map((t) => t.id)).toEqual(reached);
      expect(mine.frontier).toEqual([seed]);
      // A spectator (no token) sees only the revealed tile.
      const theirs = okAnswer(await spectator.callTool("observe", { game_id: gameId, rect: whole })).observation as { tiles: Obj[]; frontier: number[] };
      expect(theirs.tiles.map((t) => t.id)).toEqual([seed]);
      expect(theirs.frontier).toEqual([]);
    } finally {
      await client.close();
      await spectator.close();
    }
  });

  it("a join on a solved field says there is no seed tile instead of a placeholder", async () => {
    const host = await newPlayer(base);
    const { gameId, field } = await startPlaying(host.client, { kind: "grid", n: 6, G: 11 });
    const team = new McpTeam(base, gameId, field);
    const late = await newPlayer(base);
    try {
      await team.add(host);
      await team.playToEnd();
      const joined = await late.client.callTool("join", { game_id: gameId });
      expect(okAnswer(joined).seed_tile).toBeNull();
      expect(okAnswer(joined).seed).toBeNull();
      expect(readModelText(joined.text).summary).not.toContain("?");
      expect(readModelText(joined.text).summary).toMatch(/no seed tile/);
    } finally {
      await team.close();
      await late.client.close();
    }
  });
});

async function play(client: McpClient, gameId: string, field: Field): Promise<void> {
  const call = (name: string, args: Obj) => client.callTool(name, { game_id: gameId, ...args });
  const revisionNow = async (): Promise<number> => ((okAnswer(await call("observe", { rect: [0, 0, 1, 1] })).observation as Obj).revision as number);

  // list_games
  const games = okAnswer(await client.callTool("list_games")).games as Obj[];
  const listed = games.find((g) => g.game_id === gameId);
  expectFields(listed, ["game_id", "status", "revision", "G", "tiles", "grown", "fog", "agents"]);
  expect(listed).toMatchObject({ status: "playing", G: field.G, tiles: field.tiles.length, grown: 0, fog: false });

  // join
  const joined = okAnswer(await call("join", { model: "review" }));
  expect(okAnswer(await client.callTool("list_games")).games).toBeDefined();
  expect((await client.callTool("list_games")).text).toContain(`${gameId}: playing, G=${field.G}, 1 agent, revision 1; rules: guess accept, depth 0, fog off`);
  expectFields(joined, ["agent", "seed_tile", "seed", "revision", "verified", "harness", "harness_source"]);
  const agent = joined.agent as string;
  const seed = joined.seed as { id: number; x0: number; y0: number; w: number; h: number; rects: unknown; cells: number; m: number };
  expectFields(seed, ["id", "x0", "y0", "w", "h", "rects", "cells", "m"]);
  expect(joined.seed_tile).toBe(seed.id);
  const seedTile = field.tiles[seed.id];
  expect(seed).toMatchObject({ x0: seedTile.x0, y0: seedTile.y0, w: seedTile.w, h: seedTile.h, cells: seedTile.cellIds.length });

  // observe {agent}
  const observed = await call("observe", { agent });
  const obs = okAnswer(observed).observation as Obj;
  // The summary names the frontier's tiles, not only how many there are.
  expect(readModelText(observed.text).summary).toContain(`frontier: ${seed.id}.`);
  expectFields(obs, ["game_id", "status", "revision", "G", "tiles_total", "grown", "fog", "tiles", "frontier", "known", "agents", "totals", "health"]);
  expect(obs.frontier).toEqual([seed.id]);
  expect(obs.known).toEqual({ gaps: [], values: "" });
  expectFields(obs.totals, ["reward", "solved"]);
  expectHealth(obs.health);
  for (const t of obs.tiles as Obj[]) {
    expectFields(t, ["id", "x0", "y0", "w", "h", "rects", "cells", "m", "status", "agent", "neighbours"]);
    const cells = new Set(field.tiles[t.id as number].cellIds);
    const sharing = field.tiles.filter((u) => u.id !== t.id && u.cellIds.some((c) => cells.has(c))).map((u) => u.id);
    expect(t.neighbours).toEqual(sharing);
  }

  // reveal
  let rev = obs.revision as number;
  const revealed = okAnswer(await call("reveal", { agent, expected_revision: rev, tile: seed.id, intent: "" }));
  expectFields(revealed, ["tile", "x0", "y0", "w", "h", "rects", "cells", "m", "givens", "seam", "solved", "revision"]);
  expect(revealed.givens).toEqual(seedTile.givens.map((c) => [c, field.solution[c]]));
  expect(revealed.seam).toEqual([]);
  rev = revealed.revision as number;

  // commit: one wrong, one right, a given, a duplicate, a cell of a hidden tile.
  const given = new Set(seedTile.givens);
  const free = seedTile.cellIds.filter((c) => !given.has(c));
  const other = field.tiles.find((t) => t.id !== seed.id)!.cellIds.find((c) => !seedTile.cellIds.includes(c))!;
  const [wrongCell, rightCell] = free;
  const wrongValue = (1 - field.solution[wrongCell]) as 0 | 1;
  const commitResult = await call("commit", {
    agent,
    expected_revision: rev,
    intent: "",
    cells: [[wrongCell, wrongValue], [rightCell, field.solution[rightCell]], [seedTile.givens[0], field.solution[seedTile.givens[0]]], [rightCell, field.solution[rightCell]], [other, 0]],
  });
  const committed = okAnswer(commitResult);
  // 1 wrong of 2: a warning, and the text says how close death is under both rules (12 wrong at 300 cells, 30 before).
  expect(commitResult.text).toMatch(/warning.*11 more wrong cells among your next 298 counted cells kill this machine.*29 more wrong in a row kill it now/i);
  expectFields(committed, ["revision", "status", "accepted", "rejected", "ignored", "unevaluated", "solved", "meets", "reward", "frontier", "health"]);
  expect(committed.rejected).toEqual([{ id: wrongCell, reason: "wrong", v: wrongValue }]);
  expect(committed.accepted).toEqual([expect.objectContaining({ id: rightCell, v: field.solution[rightCell], class: expect.stringMatching(/^(forced|guess)$/) })]);
  // Ignored cells that are known carry their value, so no observe is needed to learn it.
  expect(committed.ignored).toEqual([
    { id: seedTile.givens[0], reason: "given", v: field.solution[seedTile.givens[0]] },
    { id: rightCell, reason: "duplicate", v: field.solution[rightCell] },
    { id: other, reason: "not_revealed" },
  ]);
  expect(committed).toMatchObject({ unevaluated: [], solved: [], meets: [], reward: 0, frontier: [seed.id], status: "playing", changed: true });
  expectHealth(committed.health);
  expect(committed.health).toMatchObject({ committed: 2, wrong: 1, window: 2 });
  expect(committed.revision).toBe(rev + 1);
  const stale = rev;
  rev = committed.revision as number;

  // conflict: rightCell became known after `stale` with the other value than sent; the error carries
  // the current revision, names it and gives its value.
  const conflict = refusal(
    await call("commit", { agent, expected_revision: stale, cells: [[free[2], field.solution[free[2]]], [rightCell, 1 - field.solution[rightCell]]], intent: "" }),
    "conflict",
  );
  expect(conflict).toMatchObject({ revision: rev, cells: [rightCell], tiles: [], known: [[rightCell, field.solution[rightCell]]] });
  const ahead = refusal(await call("commit", { agent, expected_revision: rev + 5, cells: [[free[2], field.solution[free[2]]]], intent: "" }), "conflict");
  expect(ahead).toMatchObject({ revision: rev, cells: [], tiles: [] });
  // A re-reveal of the revealed seed is a read at any revision: givens and seam, changed false.
  const reread = okAnswer(await call("reveal", { agent, expected_revision: 0, tile: seed.id, intent: "" }));
  expect(reread).toMatchObject({ tile: seed.id, status: "playing", tile_status: "revealed", revision: rev, changed: false, givens: revealed.givens });
  // From that stale view, cells nobody touched go through, and one that became known with the value
  // sent is ignored as known, with its value (SPEC §4.9).
  const fromStale = okAnswer(
    await call("commit", { agent, expected_revision: stale, cells: [[free[4], field.solution[free[4]]], [rightCell, field.solution[rightCell]]], intent: "" }),
  );
  expect(fromStale).toMatchObject({ revision: rev + 1, changed: true, ignored: [{ id: rightCell, reason: "known", v: field.solution[rightCell] }] });
  rev = fromStale.revision as number;

  // retract: the accepted cell; a never-committed cell, a given, a duplicate are ignored with reasons.
  const retracted = okAnswer(await call("retract", { agent, expected_revision: rev, cells: [rightCell, free[3], seedTile.givens[0], rightCell, free[4]] }));
  expectFields(retracted, ["revision", "retracted", "ignored"]);
  expect(retracted.retracted).toEqual([rightCell, free[4]]);
  expect(retracted.ignored).toEqual([
    { id: free[3], reason: "unknown" },
    { id: seedTile.givens[0], reason: "given", v: field.solution[seedTile.givens[0]] },
    { id: rightCell, reason: "duplicate" },
  ]);
  expect(retracted.changed).toBe(true);
  rev = retracted.revision as number;

  // Odd but valid inputs: clear answers that change nothing.
  const noChange = async (r: ToolCallResult) => {
    expect(okAnswer(r).changed).toBe(false);
    expect(await revisionNow()).toBe(rev);
  };
  await noChange(await call("commit", { agent, expected_revision: rev, cells: Array.from({ length: 512 }, () => [seedTile.givens[0], field.solution[seedTile.givens[0]]]), intent: "" }));
  await noChange(await call("retract", { agent, expected_revision: rev, cells: free.slice(0, 8) }));
  await noChange(await call("reveal", { agent, expected_revision: rev, tile: seed.id }));
  const partly = okAnswer(await call("observe", { rect: [field.G - 2, field.G - 2, 50, 50] })).observation as Obj;
  expect((partly.tiles as Obj[]).map((t) => t.id)).toEqual(field.tiles.filter((t) => t.x0 + t.w > field.G - 2 && t.y0 + t.h > field.G - 2).map((t) => t.id));

  // Bad input: a code and nothing changed.
  const badInputs: Array<[string, Obj, string]> = [
    ["observe", { rect: [0, 0, 0, 3] }, "bad_input"],
    ["observe", { rect: [field.G, 0, 3, 3] }, "bad_input"],
    ["commit", { agent, expected_revision: rev, cells: [[-1, 0]] }, "bad_input"],
    ["commit", { agent, expected_revision: rev, cells: [[field.G * field.G, 0]] }, "bad_input"],
    ["commit", { agent, expected_revision: rev, cells: [[1e15, 0]] }, "bad_input"],
    ["commit", { agent, expected_revision: rev, cells: [] }, "bad_input"],
    ["commit", { agent, expected_revision: rev, cells: Array.from({ length: 513 }, () => [0, 0]) }, "too_large"],
    ["commit", { agent, expected_revision: rev, cells: [[free[2], field.solution[free[2]]]], intent: "x".repeat(161) }, "too_large"],
    ["reveal", { agent, expected_revision: rev, tile: Number.MAX_SAFE_INTEGER }, "bad_input"],
    ["reveal", { agent, expected_revision: rev, tile: -3 }, "bad_input"],
    ["retract", { agent, expected_revision: rev, cells: [-5] }, "bad_input"],
    ["retract", { agent: `${agent}x`, expected_revision: rev, cells: [free[0]] }, "not_seated"],
  ];
  for (const [tool, args, code] of badInputs) refusal(await call(tool, args), code);
  expect(await revisionNow()).toBe(rev);

  // Known cells are delta-coded: decoding gives exactly the seed tile's known cells.
  const after = okAnswer(await call("observe", { agent })).observation as { known: { gaps: number[]; values: string } };
  const known = decodeKnown(after.known);
  expect([...known.keys()]).toEqual([...given].sort((a, b) => a - b));
  for (const [id, v] of known) expect(v).toBe(field.solution[id]);

  // Solve the seed: solved, reward, the new frontier; then a neighbour's reveal carries its seam.
  const solvingResult = await call("commit", { agent, expected_revision: rev, cells: free.map((c) => [c, field.solution[c]]), intent: "finish the seed" });
  const solving = okAnswer(solvingResult);
  expect(solving).toMatchObject({ solved: [seed.id], reward: seedTile.cellIds.length, rejected: [] });
  const seedCells = new Set(seedTile.cellIds);
  const neighbours = field.tiles.filter((t) => t.id !== seed.id && t.cellIds.some((c) => seedCells.has(c))).map((t) => t.id);
  expect(solving.frontier).toEqual(neighbours);
  // The summary says which tile was solved and where the frontier is now (no observe needed to go on).
  expect(readModelText(solvingResult.text).summary).toContain(`Solved tile ${seed.id}, reward ${seedTile.cellIds.length}.`);
  expect(readModelText(solvingResult.text).rest).toContain(`frontier: ${neighbours.slice(0, 20).join(", ")}`);
  const resolved = await call("reveal", { agent, expected_revision: 0, tile: seed.id, intent: "" });
  // The field plays on: `status` is the field's, the tile's own is tile_status (SPEC §6.1).
  expect(okAnswer(resolved)).toMatchObject({ status: "playing", tile_status: "solved", changed: false });
  expect(readModelText(resolved.text).summary).toMatch(/Already solved by your group: nothing changed/);
  rev = solving.revision as number;
  const next = field.tiles[neighbours[0]];
  const opened = okAnswer(await call("reveal", { agent, expected_revision: rev, tile: next.id, intent: "next" }));
  const nextGivens = new Set(next.givens);
  const seam = next.cellIds.filter((c) => seedCells.has(c) && !nextGivens.has(c)).sort((a, b) => a - b);
  expect(seam.length).toBeGreaterThan(0);
  expect(opened.seam).toEqual(seam.map((c) => [c, field.solution[c]]));

  // A join that leaves the model unknown is told how to be told apart in the analysis; one that names it is not.
  expect(readModelText((await call("join", { model: "review", session: "2" })).text).summary).not.toMatch(/unknown/);
  const anonymous = readModelText((await call("join", { session: "3" })).text).summary;
  expect(anonymous).toMatch(/For the analysis, model unknown: pass it on join\./);
}
