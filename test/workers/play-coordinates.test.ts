import { env } from "cloudflare:workers";
import { createExecutionContext, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { generateField } from "../../src/engine";
import type { Field } from "../../src/engine/types";
import { createApp } from "../../src/http/app";
import { messageOf, modernRequest } from "../support/mcp-wire";
import { fieldApi, ok, uniqueId, waitPlaying } from "./game-helpers";

/**
 * Cells by coordinates on commit and retract, the field's rules in list_games, join and observe,
 * and the health warning's margin (SPEC §4.8, §6, §6.1), through the real /mcp route. A
 * development server seats callers without identity; their writes prove the seat by agent_secret.
 */

type ToolResult = { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Record<string, unknown> };
type Seat = { agent: string; agent_secret: string; seed_tile: number; revision: number; rules: unknown };

const DEV = { ...env, MOSAIC_DEV: "1" };

async function call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const req = modernRequest("tools/call", { name, arguments: args }, { client: { name: "xy-test", version: "1.0" } });
  const res = await createApp().fetch(new Request("http://localhost:8787/mcp", { method: "POST", headers: req.headers, body: req.body }), DEV, createExecutionContext());
  const message = await messageOf(res);
  if (!message.result) throw new Error(`protocol error: ${JSON.stringify(message.error)}`);
  return message.result as ToolResult;
}

function data(r: ToolResult): Record<string, unknown> {
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  return r.structuredContent!;
}

function refusal(r: ToolResult): { code: string; message: string } {
  expect(r.isError).toBe(true);
  return (r.structuredContent as { error: { code: string; message: string } }).error;
}

/** A playing scatter field of side 24 started over MCP, and the oracle of its seed. */
async function playing(seed: string, rules?: Record<string, unknown>): Promise<{ gameId: string; field: Field }> {
  const started = data(await call("start_mosaic", { kind: "scatter", G: 24, seed, ...(rules ? { rules } : {}) }));
  const gameId = String(started.game_id);
  await waitPlaying(env.FIELDS.getByName(gameId));
  return { gameId, field: await generateField({ kind: "scatter", seed, G: 24 }) };
}

/** The seed tile's cells that are not givens, as [id, value] with the solution's values. */
function freeCells(field: Field, tileId: number): Array<[number, 0 | 1]> {
  const tile = field.tiles[tileId];
  const given = new Set(tile.givens);
  return tile.cellIds.filter((c) => !given.has(c)).map((c) => [c, field.solution[c] as 0 | 1]);
}

async function lastInput(gameId: string): Promise<string> {
  return runInDurableObject(env.FIELDS.getByName(gameId), (_o, state) => state.storage.sql.exec<{ input: string }>("SELECT input FROM events ORDER BY seq DESC LIMIT 1").one().input);
}

/** The public event without what differs between two fields (time, chain). */
async function lastEvent(gameId: string): Promise<Record<string, unknown>> {
  const events = ok(await fieldApi(env.FIELDS.getByName(gameId)).events(0)).events;
  const { at: _at, prev: _prev, hash: _hash, ...rest } = events[events.length - 1];
  return rest;
}

describe("commit and retract by coordinates (SPEC §6, §6.1)", () => {
  it("an xy write is judged, answered and logged exactly as the same write by ids", async () => {
    const seed = uniqueId("xy-twin");
    const twins = [await playing(seed), await playing(seed)];
    const field = twins[0].field;
    const results: Array<{ commit: Record<string, unknown>; retract: Record<string, unknown>; inputs: string[]; events: unknown[] }> = [];
    for (const [i, { gameId }] of twins.entries()) {
      const seat = data(await call("join", { game_id: gameId, session: "xy", model: "m" })) as unknown as Seat;
      const base = { game_id: gameId, agent: seat.agent, agent_secret: seat.agent_secret };
      const revealed = data(await call("reveal", { ...base, expected_revision: seat.revision, tile: seat.seed_tile, intent: "look" }));
      // One wrong cell first, then the rest of the tile but one: every verdict class at once.
      const cells = freeCells(field, seat.seed_tile);
      const [wrongId, wrongV] = cells[0];
      const batch: Array<[number, 0 | 1]> = [[wrongId, (1 - wrongV) as 0 | 1], ...cells.slice(1, -1)];
      const byXy = batch.map(([id, v]) => [id % 24, Math.floor(id / 24), v]);
      const commitArgs = i === 0 ? { cells: batch } : { xy: byXy };
      const commit = data(await call("commit", { ...base, expected_revision: revealed.revision, intent: "fill", ...commitArgs }));
      const commitInput = await lastInput(gameId);
      const commitEvent = await lastEvent(gameId);
      const taken = [cells[1][0], cells[2][0]];
      const retractArgs = i === 0 ? { cells: taken } : { xy: taken.map((id) => [id % 24, Math.floor(id / 24)]) };
      const retract = data(await call("retract", { ...base, expected_revision: commit.revision, intent: "undo", ...retractArgs }));
      results.push({ commit, retract, inputs: [commitInput, await lastInput(gameId)], events: [commitEvent, await lastEvent(gameId)] });
    }
    const [ids, xy] = results;
    expect((ids.commit.accepted as unknown[]).length).toBeGreaterThan(2);
    expect(ids.commit.rejected).toHaveLength(1);
    expect(xy.commit).toEqual(ids.commit);
    expect(xy.retract).toEqual(ids.retract);
    expect(ids.retract.retracted).toHaveLength(2);
    // The stored inputs name cells by id either way: replay and the archive see one kind of write.
    expect(xy.inputs).toEqual(ids.inputs);
    expect(xy.inputs[0]).not.toContain(`"xy"`);
    expect(xy.events).toEqual(ids.events);
  });

  it("refuses both or neither, a pair outside the field by name, and oversized batches, changing nothing", async () => {
    const { gameId, field } = await playing(uniqueId("xy-refusals"));
    const seat = data(await call("join", { game_id: gameId, session: "xy", model: "m" })) as unknown as Seat;
    const base = { game_id: gameId, agent: seat.agent, agent_secret: seat.agent_secret, intent: "" };
    const rev = Number(data(await call("reveal", { ...base, expected_revision: seat.revision, tile: seat.seed_tile })).revision);
    const [id, v] = freeCells(field, seat.seed_tile)[0];
    const x = id % 24;
    const y = Math.floor(id / 24);
    const both = refusal(await call("commit", { ...base, expected_revision: rev, cells: [[id, v]], xy: [[x, y, v]] }));
    expect(both).toEqual({ code: "bad_input", message: "commit takes exactly one of cells and xy (both were sent): cells [[id, 0|1], …] or xy [[x, y, 0|1], …]; nothing changed." });
    expect(refusal(await call("commit", { ...base, expected_revision: rev })).message).toMatch(/exactly one of cells and xy \(neither was sent\)/);
    expect(refusal(await call("retract", { ...base, expected_revision: rev, cells: [id], xy: [[x, y]] })).message).toMatch(/^retract takes exactly one of cells and xy \(both were sent\)/);
    expect(refusal(await call("retract", { ...base, expected_revision: rev })).code).toBe("bad_input");
    // Outside the field: named as a pair, with the field's range.
    expect(refusal(await call("commit", { ...base, expected_revision: rev, xy: [[x, y, v], [24, 3, 1]] }))).toEqual({
      code: "bad_input",
      message: "xy[1]: (24,3) is outside the field (x and y run 0..23)",
    });
    expect(refusal(await call("retract", { ...base, expected_revision: rev, xy: [[-1, 3]] })).message).toBe("xy[0]: (-1,3) is outside the field (x and y run 0..23)");
    expect(refusal(await call("commit", { ...base, expected_revision: rev, xy: [[x, y, 2]] })).message).toMatch(/xy\.0\.2: a cell value must be 0 or 1, got 2/);
    expect(refusal(await call("commit", { ...base, expected_revision: rev, xy: [[x, y]] })).message).toMatch(/xy\.0: each cell is an \[x, y, value\] triple/);
    // Over the limits of cells: too_large, as by ids.
    const triples = Array.from({ length: 513 }, (_, i) => [i % 24, Math.floor(i / 24) % 24, 0]);
    expect(refusal(await call("commit", { ...base, expected_revision: rev, xy: triples })).code).toBe("too_large");
    const pairs = Array.from({ length: 8193 }, (_, i) => [i % 24, Math.floor(i / 24) % 24]);
    expect(refusal(await call("retract", { ...base, expected_revision: rev, xy: pairs })).code).toBe("too_large");
    // Nothing was stored by any of them.
    const after = data(await call("observe", { game_id: gameId, agent: seat.agent }));
    expect((after.observation as { revision: number }).revision).toBe(rev);
    // The same cell by coordinates is then accepted.
    const accepted = data(await call("commit", { ...base, expected_revision: rev, xy: [[x, y, v]] }));
    expect(accepted.accepted).toEqual([expect.objectContaining({ id, v })]);
  });
});

describe("the field's rules and the health warning (SPEC §4.8, §6.1)", () => {
  it("list_games, join and observe carry rules {guess, depth, fog}", async () => {
    const rules = { guess: "reject", depth: 1, fog: true };
    const { gameId } = await playing(uniqueId("rules"), rules);
    const seat = data(await call("join", { game_id: gameId, session: "r", model: "m" })) as unknown as Seat;
    expect(seat.rules).toEqual(rules);
    const observed = data(await call("observe", { game_id: gameId, agent: seat.agent })).observation as Record<string, unknown>;
    expect(observed.rules).toEqual(rules);
    expect((data(await call("observe", { game_id: gameId, full: true })).observation as Record<string, unknown>).rules).toEqual(rules);
    const games = data(await call("list_games", {})).games as Array<{ game_id: string; rules: unknown; fog: boolean }>;
    expect(games.find((g) => g.game_id === gameId)).toMatchObject({ rules, fog: true });
    // A field started without rules lists the defaults.
    const plain = await playing(uniqueId("rules-default"));
    const listed = (data(await call("list_games", {})).games as Array<{ game_id: string; rules: unknown }>).find((g) => g.game_id === plain.gameId);
    expect(listed?.rules).toEqual({ guess: "accept", depth: 0, fog: false });
  });

  it("a warning's commit and observe answers say exactly how close death is, in the text and the data", async () => {
    const { gameId, field } = await playing(uniqueId("warning"));
    const seat = data(await call("join", { game_id: gameId, session: "w", model: "m" })) as unknown as Seat;
    const base = { game_id: gameId, agent: seat.agent, agent_secret: seat.agent_secret, intent: "" };
    const rev = Number(data(await call("reveal", { ...base, expected_revision: seat.revision, tile: seat.seed_tile })).revision);
    const [[wrongId, wrongV], right] = freeCells(field, seat.seed_tile);
    // 1 wrong of 2 counted: 11 more wrong among the next 298 reach 12 of 300 (4 %); in a row, the 30th wrong kills first.
    const result = await call("commit", { ...base, expected_revision: rev, cells: [[wrongId, 1 - wrongV], right] });
    const committed = data(result);
    const sentence = "11 more wrong cells among your next 298 counted cells kill this machine (at 300 counted, 12 wrong is 4 %); 29 more wrong in a row kill it now";
    expect(committed.health).toMatchObject({ state: "warning", wrong: 1, window: 2, margin: { wrong: 29, before_300: { wrong: 11, cells: 298 } } });
    expect(committed.note).toBe(`health warning: 1 wrong of the last 2 counted cells (50.00 %); ${sentence}`);
    expect(result.content[0].text).toContain(sentence);
    const observed = await call("observe", { game_id: gameId, agent: seat.agent });
    const observation = data(observed).observation as Record<string, unknown>;
    expect(observation.note).toBe(committed.note);
    expect(observation.health).toMatchObject({ margin: { wrong: 29, before_300: { wrong: 11, cells: 298 } } });
    expect(observed.content[0].text).toContain(sentence);
  });
});
