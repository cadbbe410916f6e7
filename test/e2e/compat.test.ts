import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { generateField } from "../../src/engine";
import type { Field } from "../../src/engine/types";
import { joinProofArgs, mintToken, newMachine, type TestMachine } from "../support/identity";
import { connectClient, type ClientFlavour, type McpClient, type ToolCallResult } from "../support/mcp-clients";
import { readModelText, structuredPictures } from "../support/model-text";
import {
  COMMIT,
  ERROR,
  expectShape,
  GAME,
  JOIN,
  LIST_GAMES,
  OBSERVE,
  OBSERVE_STATUS,
  RETRACT,
  REVEAL,
  START,
  type Shape,
} from "../support/reference-shapes";
import { startDevServer, type DevServer } from "../support/wrangler-dev";

/**
 * Compatibility with the reference server (SPEC §6 "Compatible with the reference", §6.1): an
 * agent program written for it plays unchanged. Through the official SDK client against
 * `wrangler dev`, every tool is called with the reference's argument names, types, ranges and
 * defaults, and every answer field the reference has is checked present with its type. Every
 * answer, refusals included, is also read as a model on a content-only client reads it: the text
 * carries the pictures and a summary, never the JSON (SPEC §6 "What a model reads").
 */

type Obj = Record<string, unknown>;

/**
 * Every answer of this suite goes through here: the text is written for a model without code (a
 * summary line, pictures, coordinates; no JSON), every picture structuredContent carries is in it,
 * and a refusal's text is its message.
 */
async function call(client: McpClient, name: string, args: Obj = {}): Promise<ToolCallResult> {
  const result = await client.callTool(name, args);
  const { summary, pictures } = readModelText(result.text);
  expect(summary.length, `${name}: summary`).toBeGreaterThan(0);
  expect(summary.length, `${name}: summary ${summary.slice(0, 80)}…`).toBeLessThanOrEqual(400);
  const drawn = Object.values(structuredPictures(result.structuredContent));
  for (const picture of drawn) expect(result.text, `${name}: the text draws every picture of structuredContent`).toContain(picture);
  expect(pictures.length, `${name}: pictures in the text`).toBe(drawn.length);
  if (result.isError) {
    expectShape(result.structuredContent, ERROR);
    expect(result.text).toBe((result.structuredContent as { error: { message: string } }).error.message);
  }
  return result;
}

async function ok(client: McpClient, name: string, args: Obj, shape: Shape): Promise<Obj> {
  return (await okWithText(client, name, args, shape)).data;
}

async function okWithText(client: McpClient, name: string, args: Obj, shape: Shape): Promise<{ data: Obj; text: string }> {
  const result = await call(client, name, args);
  expect(result.isError, result.text.slice(0, 300)).toBe(false);
  expectShape(result.structuredContent, shape);
  return { data: result.structuredContent as Obj, text: result.text };
}

async function refused(client: McpClient, name: string, args: Obj, code: string): Promise<string> {
  const result = await call(client, name, args);
  expect(result.isError, `${name} ${JSON.stringify(args).slice(0, 120)} must be refused`).toBe(true);
  const error = (result.structuredContent as { error: { code: string; message: string } }).error;
  expect(error.code, error.message).toBe(code);
  return error.message;
}

/** The reference's poll loop: `observe {game_id}` until `status` is `playing`. */
async function pollUntilPlaying(client: McpClient, gameId: string): Promise<{ observation: Obj; polls: number; generatingSeen: number }> {
  let generatingSeen = 0;
  for (let polls = 1; polls < 2400; polls++) {
    const result = await call(client, "observe", { game_id: gameId });
    expect(result.isError, result.text.slice(0, 300)).toBe(false);
    const observation = (result.structuredContent as { observation: Obj }).observation;
    if (observation.status === "playing") {
      expectShape(result.structuredContent, OBSERVE);
      return { observation, polls, generatingSeen };
    }
    expectShape(result.structuredContent, OBSERVE_STATUS);
    expect(observation).toMatchObject({ game_id: gameId, status: "generating", revision: 0 });
    generatingSeen++;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`field ${gameId} never reached playing`);
}

interface Player {
  machine: TestMachine;
  client: McpClient;
}

async function player(base: string, flavour: ClientFlavour = "v2-modern"): Promise<Player> {
  const machine = newMachine();
  const token = await mintToken(base, machine);
  const client = await connectClient(base, { flavour, headers: { Authorization: `Bearer ${token}` }, clientInfo: { name: "compat-suite", version: "1.0.0" } });
  return { machine, client };
}

function seedOf(label: string): string {
  return `compat-${label}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** Cells of a tile with their true values, in the tile's order. */
function tileCells(field: Field, tile: number): Array<[number, 0 | 1]> {
  return field.tiles[tile].cellIds.map((c) => [c, field.solution[c] as 0 | 1]);
}

describe("reference compatibility: arguments and answers (SPEC §6, §6.1)", () => {
  const base = inject("baseUrl");
  const players: Player[] = [];
  let host: Player;
  let spectator: McpClient;

  beforeAll(async () => {
    host = await player(base);
    players.push(host);
    spectator = await connectClient(base, { flavour: "v2-modern" });
  });

  afterAll(async () => {
    await Promise.all([...players.map((p) => p.client.close()), spectator.close()]);
  });

  it("start_mosaic takes every argument with every kind, names the ones it ignored, and still refuses out-of-range values", async () => {
    const everything = { G: 100, n: 14, chunks: 3, chunk_g: 60, rules: { guess: "accept", depth: 0, fog: false }, grow: { every_minutes: 1440, frontier_coverage: 1 } };
    const cases: Array<[Obj, string[], number]> = [
      // Every default written out, on each kind: the arguments a kind does not use are named.
      [{ kind: "scatter", ...everything }, ["n", "chunks", "chunk_g", "grow"], 100],
      [{ kind: "grid", ...everything, G: 27 }, ["chunks", "chunk_g", "grow"], 27],
      [{ kind: "field", ...everything, chunks: 2, chunk_g: 40, G: 300 }, ["n"], 300],
      // chunks/chunk_g with a field and G (no growth: G is derived, so ignored).
      [{ kind: "field", chunks: 2, chunk_g: 40, G: 80 }, ["G"], 80],
      // grow on a scatter; n on a scatter; the range ends of every rule.
      [{ kind: "scatter", G: 6, grow: { every_minutes: 0.1, frontier_coverage: 0.1 } }, ["grow"], 6],
      [{ kind: "scatter", G: 8, n: 16, rules: { guess: "reject", depth: 2, fog: true } }, ["n"], 8],
      // The reference's defaults when nothing is given.
      [{}, [], 100],
      [{ kind: "grid" }, [], 27],
    ];
    for (const [args, ignored, G] of cases) {
      const started = await ok(host.client, "start_mosaic", { ...args, seed: seedOf("start") }, START);
      expect(started, JSON.stringify(args)).toMatchObject({ status: "generating", kind: args.kind ?? "scatter", G });
      if (ignored.length > 0) expect(started.ignored, JSON.stringify(args)).toEqual(ignored);
      else expect(started).not.toHaveProperty("ignored");
    }
    for (const args of [
      { G: 5 },
      { G: 1001 },
      { kind: "scatter", n: 17 },
      { kind: "scatter", chunks: 13 },
      { kind: "grid", chunk_g: 39 },
      { kind: "scatter", rules: { depth: 3 } },
      { kind: "scatter", rules: { guess: "maybe" } },
      { kind: "scatter", grow: { every_minutes: 1441 } },
      { kind: "scatter", grow: { frontier_coverage: 0.05 } },
      { kind: "grid", n: 6, G: 12 },
      { kind: "tiles" },
    ]) {
      await refused(host.client, "start_mosaic", args, "bad_input");
    }
  });

  it("the poll loop observe {game_id} reaches playing on a small field (full listing) and on a large one (the header and a note)", async () => {
    const small = await ok(host.client, "start_mosaic", { kind: "scatter", G: 20, seed: seedOf("small") }, START);
    const smallPoll = await pollUntilPlaying(spectator, small.game_id as string);
    expect(smallPoll.observation.tiles_total).toBeGreaterThan(1);
    expect((smallPoll.observation.tiles as unknown[]).length).toBe(smallPoll.observation.tiles_total);

    const large = await ok(host.client, "start_mosaic", { kind: "scatter", G: 121, seed: seedOf("large") }, START);
    const largePoll = await pollUntilPlaying(spectator, large.game_id as string);
    expect(largePoll.generatingSeen).toBeGreaterThan(0);
    const header = largePoll.observation;
    expect(header).toMatchObject({ game_id: large.game_id, status: "playing", G: 121, grown: 0, fog: false, tiles: [], frontier: [], known: { gaps: [], values: "" } });
    expect(header.tiles_total).toBeGreaterThan(10);
    expect(header.note).toMatch(/\{agent\}/);
    expect(header.note).toMatch(/\{rect/);
    const headerText = readModelText((await call(spectator, "observe", { game_id: large.game_id })).text).summary;
    expect(headerText).toMatch(/too many to list: observe \{agent\}/);
    // The scopes the note names work.
    const rect = await ok(spectator, "observe", { game_id: large.game_id, rect: [0, 0, 30, 30] }, OBSERVE);
    expect(((rect.observation as Obj).tiles as unknown[]).length).toBeGreaterThan(0);
  });

  it("plays through every tool with the reference's argument and answer shapes; reveal {tile: seed_tile} works as written", async () => {
    const seed = seedOf("play");
    const started = await ok(host.client, "start_mosaic", { kind: "scatter", G: 24, seed }, START);
    const gameId = started.game_id as string;
    const field = await generateField({ kind: "scatter", G: 24, seed });
    await pollUntilPlaying(host.client, gameId);

    const listed = await ok(host.client, "list_games", {}, LIST_GAMES);
    const row = (listed.games as Obj[]).find((g) => g.game_id === gameId);
    expectShape(row, GAME);
    expect(row).toMatchObject({ status: "playing", G: 24, tiles: field.tiles.length, agents: [], agents_total: 0 });

    const joined = await ok(host.client, "join", { game_id: gameId, session: "compat play", name: "compat", model: "none", harness: "compat-suite", tags: { suite: "compat", run: "1" } }, JOIN);
    expect(joined.agent).toBe(`${host.machine.machineId}/compat play`);
    const seedTile = joined.seed_tile as number;
    expect(joined.seed).toMatchObject({ id: seedTile, x0: field.tiles[seedTile].x0, cells: field.tiles[seedTile].cellIds.length, m: field.tiles[seedTile].m });
    const agent = joined.agent as string;

    const mine = await ok(host.client, "observe", { game_id: gameId, agent }, OBSERVE);
    const observation = mine.observation as Obj;
    expect(observation.frontier).toEqual([seedTile]);
    expect(observation.health).toBeDefined();

    // Exactly as a reference agent writes it.
    const { data: revealed, text: revealedText } = await okWithText(host.client, "reveal", { game_id: gameId, agent, expected_revision: joined.revision, tile: joined.seed_tile, intent: "reveal my seed" }, REVEAL);
    expect(revealed.tile).toBe(seedTile);
    // A model without code reads the seed's cells and givens off the picture in the text, by coordinates.
    const [picture] = readModelText(revealedText).pictures;
    const G = field.G;
    expect(picture.cells.map((c) => c.y * G + c.x)).toEqual(field.tiles[seedTile].cellIds);
    for (const [c, v] of revealed.givens as number[][]) expect(picture.cells.find((p) => p.x === c % G && p.y === Math.floor(c / G))?.v).toBe(v);

    // Commit: one wrong cell (rejected, with the value sent) and all but one of the other unknown cells.
    const known = new Set([...(revealed.givens as number[][]), ...(revealed.seam as number[][])].map(([c]) => c));
    const open = tileCells(field, seedTile).filter(([c]) => !known.has(c));
    expect(open.length).toBeGreaterThan(2);
    const [wrongCell, ...rest] = open;
    const batch: Array<[number, number]> = [[wrongCell[0], 1 - wrongCell[1]], ...rest.slice(0, -1)];
    const { data: committed, text: committedText } = await okWithText(host.client, "commit", { game_id: gameId, agent, expected_revision: revealed.revision, cells: batch, intent: "one wrong, then the truth" }, COMMIT);
    expect(committed.rejected).toEqual([{ id: wrongCell[0], reason: "wrong", v: 1 - wrongCell[1] }]);
    expect(committedText).toContain(`(${wrongCell[0] % G},${Math.floor(wrongCell[0] / G)}) is ${wrongCell[1]}, not ${1 - wrongCell[1]}`);
    expect((committed.accepted as unknown[]).length).toBe(rest.length - 1);
    expect(committed.solved).toEqual([]);

    const retracted = await ok(host.client, "retract", { game_id: gameId, agent, expected_revision: committed.revision, cells: [rest[0][0]], intent: "take one back" }, RETRACT);
    expect(retracted.retracted).toEqual([rest[0][0]]);

    // Refusals carry the reference's error shape, and a model reading only text gets the code.
    const offFrontier = field.tiles.find((t) => t.id !== seedTile && !t.cellIds.some((c) => field.tiles[seedTile].cellIds.includes(c)));
    if (offFrontier) await refused(host.client, "reveal", { game_id: gameId, agent, expected_revision: retracted.revision, tile: offFrontier.id, intent: "" }, "off_frontier");
    await refused(host.client, "observe", { game_id: "no-such-game" }, "missing");
    await refused(host.client, "commit", { game_id: gameId, agent, expected_revision: 0, cells: Array.from({ length: 513 }, (_, i) => [i, 0]), intent: "" }, "too_large");
    await refused(host.client, "reveal", { game_id: gameId, agent, expected_revision: 0, tile: "seven" }, "bad_input");
    const other = await player(base);
    players.push(other);
    await refused(other.client, "commit", { game_id: gameId, agent, expected_revision: 0, cells: [[rest[0][0], rest[0][1]]], intent: "" }, "not_your_agent");

    // list_games now lists the agent id, and a list of tags is accepted too.
    const second = await ok(host.client, "join", { game_id: gameId, session: "tags as a list", tags: ["fast", "v2"] }, JOIN);
    const after = ((await ok(host.client, "list_games", {}, LIST_GAMES)).games as Obj[]).find((g) => g.game_id === gameId);
    expect(after).toMatchObject({ agents: [agent, second.agent], agents_total: 2 });
  });

  it("seats sessions with spaces and non-ASCII (bearer token and proof join), and lets them write", async () => {
    const seed = seedOf("sessions");
    const started = await ok(host.client, "start_mosaic", { kind: "scatter", G: 30, seed }, START);
    const gameId = started.game_id as string;
    const field = await generateField({ kind: "scatter", G: 30, seed });
    await pollUntilPlaying(host.client, gameId);

    const writeAs = async (client: McpClient, joined: Obj, secret?: string): Promise<void> => {
      const tile = joined.seed_tile as number;
      const auth = secret ? { agent_secret: secret } : {};
      const revealed = await ok(client, "reveal", { game_id: gameId, agent: joined.agent, expected_revision: joined.revision, tile, intent: "seed", ...auth }, REVEAL);
      const known = new Set([...(revealed.givens as number[][]), ...(revealed.seam as number[][])].map(([c]) => c));
      const cell = tileCells(field, tile).find(([c]) => !known.has(c));
      if (!cell) return;
      const committed = await ok(client, "commit", { game_id: gameId, agent: joined.agent, expected_revision: revealed.revision, cells: [cell], intent: "one cell", ...auth }, COMMIT);
      expect(committed.accepted).toEqual([expect.objectContaining({ id: cell[0], v: cell[1] })]);
    };

    for (const session of ["my first session", "café ☕", "東京 2", "😀".repeat(24)]) {
      const p = await player(base);
      players.push(p);
      const joined = await ok(p.client, "join", { game_id: gameId, session }, JOIN);
      expect(joined.agent).toBe(`${p.machine.machineId}/${session}`);
      await ok(p.client, "observe", { game_id: gameId, agent: joined.agent }, OBSERVE);
      await writeAs(p.client, joined);
    }

    // A proof join (no headers) with a non-ASCII session: the signature covers its UTF-8 bytes.
    const machine = newMachine();
    const bare = await connectClient(base, { flavour: "v1" });
    try {
      const session = "équipe B";
      const joined = await ok(bare, "join", { game_id: gameId, ...joinProofArgs(machine, gameId, session), harness: "compat-proof" }, JOIN);
      expect(joined.agent).toBe(`${machine.machineId}/${session}`);
      await writeAs(bare, joined, joined.agent_secret as string);
    } finally {
      await bare.close();
    }

    // Still refused: a '/', more than 24 characters, control characters.
    for (const session of ["a/b", "x".repeat(25), "tab\there"]) await refused(host.client, "join", { game_id: gameId, session }, "bad_input");
  });

  it("serves the same content to 2025-era clients: the v1 SDK reads the same texts", async () => {
    const v1 = await player(base, "v1");
    players.push(v1);
    await ok(v1.client, "list_games", {}, LIST_GAMES);
    await refused(v1.client, "observe", { game_id: "no-such-game" }, "missing");
    const started = await ok(v1.client, "start_mosaic", { kind: "grid", n: 6, seed: seedOf("v1") }, START);
    await pollUntilPlaying(v1.client, started.game_id as string);
  });
});

describe("reference compatibility: a field whose generation failed (SPEC §6)", () => {
  let server: DevServer;
  let stateDir: string;

  beforeAll(() => {
    stateDir = mkdtempSync(join(tmpdir(), "mosaic-compat-"));
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it("observe answers {status: failed, seconds, revision: 0, error}; list_games carries the error; join is refused", async () => {
    // A field interrupted while generating, whose stored parameters the engine then refuses:
    // generation resumes on restart and fails, through the service's own failure path.
    server = await startDevServer({ vars: { MOSAIC_DEV: "1" }, stateDir });
    let client = await connectClient(server.baseUrl, { flavour: "v2-modern" });
    const started = await ok(client, "start_mosaic", { kind: "scatter", G: 400, seed: seedOf("fail") }, START);
    const gameId = started.game_id as string;
    await client.close();
    await server.stop();
    const objects = join(stateDir, "v3", "do");
    const fieldDir = join(objects, readdirSync(objects).find((d) => d.endsWith("FieldObject"))!);
    let damaged = 0;
    for (const file of readdirSync(fieldDir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")) {
      const db = new DatabaseSync(join(fieldDir, file));
      try {
        const id = db.prepare("SELECT value FROM meta WHERE key = 'game_id'").get() as { value: string } | undefined;
        if (id && JSON.parse(id.value) === gameId) {
          db.prepare("UPDATE meta SET value = ? WHERE key = 'params'").run(JSON.stringify({ kind: "grid", n: 6, G: 12 }));
          damaged++;
        }
      } finally {
        db.close();
      }
    }
    expect(damaged).toBe(1);

    server = await startDevServer({ vars: { MOSAIC_DEV: "1" }, stateDir });
    client = await connectClient(server.baseUrl, { flavour: "v2-modern" });
    try {
      let observation: Obj = {};
      for (let i = 0; i < 600; i++) {
        const result = await ok(client, "observe", { game_id: gameId }, OBSERVE_STATUS);
        observation = result.observation as Obj;
        if (observation.status === "failed") break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(observation).toMatchObject({ game_id: gameId, status: "failed", revision: 0 });
      expect(observation.error).toMatch(/generation failed/);
      // Every scope answers the same (a poll loop never sees an error for a failed field).
      const scoped = await ok(client, "observe", { game_id: gameId, rect: [0, 0, 10, 10] }, OBSERVE_STATUS);
      expect((scoped.observation as Obj).status).toBe("failed");
      const games = (await ok(client, "list_games", {}, LIST_GAMES)).games as Obj[];
      expect(games.find((g) => g.game_id === gameId)).toMatchObject({ status: "failed", error: observation.error, agents: [], agents_total: 0 });
      await refused(client, "join", { game_id: gameId }, "failed");
    } finally {
      await client.close();
    }
  });
});
