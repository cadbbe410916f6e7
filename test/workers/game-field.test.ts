import { env } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/engine/canonical-json";
import { chainEventHash, seedCommit } from "../../src/engine/commitments";
import type { FieldObject } from "../../src/game/field-object";
import { listGames } from "../../src/game/registry";
import { createPlaying, errorOf, fieldApi, joinArgs, machineId, ok, RULES, ScriptedPlayers, uniqueId, type Stub } from "./game-helpers";

const SCATTER = { kind: "scatter" as const, G: 24 };
const GRID = { kind: "grid" as const, G: 11, n: 6 };
const FIELD = { kind: "field" as const, chunks: 2, chunk_g: 40 };

async function snapshot(stub: Stub) {
  const manifest = ok(await stub.manifest());
  const events = ok(await stub.events(0)).events;
  const full = ok(await stub.observe({ rect: [0, 0, 120, 120] }));
  return { manifest, events, full };
}

describe("field object: generation", () => {
  it.each([
    ["scatter", SCATTER, 24],
    ["grid", GRID, 11],
    ["field", FIELD, 80],
  ] as const)("generates a small %s field and flips to playing", async (_kind, params, G) => {
    const { stub, raw, field, seed } = await createPlaying(params, G);
    const manifest = ok(await stub.manifest());
    expect(manifest.status).toBe("playing");
    expect(manifest.G).toBe(field.G);
    expect(manifest.tiles_total).toBe(field.tiles.length);
    expect(manifest.seed_commit).toBe(await seedCommit(seed));
    expect(manifest.log_head).toEqual({ hash: manifest.seed_commit, rev: 0 });
    expect(JSON.stringify(manifest.params)).not.toContain(seed);
    // What the object stored and reloads is exactly what the engine generated.
    await evictDurableObject(raw);
    const observation = ok(await stub.observe({ full: true })).observation as { tiles: Array<{ id: number; x0: number; w: number; m: number }> };
    expect(observation.tiles.map((t) => [t.id, t.x0, t.w, t.m])).toEqual(field.tiles.map((t) => [t.id, t.x0, t.w, t.m]));
  });

  it("answers observe with the observation {game_id, status: generating, seconds, revision: 0}, and refuses joins, until generated", async () => {
    const gameId = uniqueId("gen");
    const raw = env.FIELDS.getByName(gameId);
    const stub = fieldApi(raw);
    // Large enough to take a while: requests must be answered between generation steps.
    ok(await stub.create({ gameId, params: { kind: "scatter", G: 140 }, rules: RULES, G: 140, seed: "s" }));
    const alarm = runDurableObjectAlarm(raw);
    const seen: Array<{ done: number; total: number }> = [];
    for (let i = 0; i < 2000 && (await stub.status()).status === "generating"; i++) {
      const o = await stub.observe({});
      const observation = o.ok ? (o.answer.observation as Record<string, unknown>) : undefined;
      if (observation?.status === "generating") {
        // Programs read observe answers under `observation` (SPEC §6, §6.1): the reference's shape.
        expect(Object.keys(o.ok ? o.answer : {})).toEqual(["observation"]);
        expect(observation).toEqual({ game_id: gameId, status: "generating", seconds: observation.seconds, revision: 0, progress: observation.progress });
        expect(Number.isInteger(observation.seconds)).toBe(true);
        seen.push(observation.progress as { done: number; total: number });
        if (seen.length === 1) expect(errorOf(await stub.join(joinArgs(machineId(1)))).code).toBe("generating");
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    await alarm;
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.some((p) => p.done > 0)).toBe(true);
    expect((await stub.status()).status).toBe("playing");
    // A retried alarm does not regenerate or change anything.
    const before = await snapshot(stub);
    await runInDurableObject(raw, async (instance: FieldObject) => {
      await instance.alarm();
    });
    expect(await snapshot(stub)).toEqual(before);
  });

  it("rejects creating the same game twice", async () => {
    const { stub, gameId } = await createPlaying(SCATTER, 24);
    expect(errorOf(await stub.create({ gameId, params: SCATTER, rules: RULES, G: 24, seed: "x" })).code).toBe("bad_input");
  });
});

describe("field object: play", () => {
  it.each([
    ["scatter", SCATTER, 24],
    ["grid", GRID, 11],
  ] as const)("a scripted agent plays a small %s field to completion", async (_kind, params, G) => {
    const { stub, field } = await createPlaying(params, G);
    const players = new ScriptedPlayers(stub, field);
    await players.playToEnd();
    const manifest = ok(await stub.manifest());
    expect(manifest.status).toBe("solved");
    const observation = ok(await stub.observe({ full: true })).observation as { tiles: Array<{ status: string }> };
    expect(observation.tiles.every((t) => t.status === "solved")).toBe(true);
    // Writes after the end are refused or ignored, never crash.
    const late = await stub.write({ input: { type: "commit", agent: players.agents[0], expectedRevision: players.revision, cells: [[0, 0]], intent: "late" }, machineId: machineId(1) });
    expect(!late.ok || Array.isArray(late.answer.ignored)).toBe(true);
  });

  it("chains every event from seed_commit, with revisions 1, 2, 3, …", async () => {
    const { stub, field } = await createPlaying(SCATTER, 24);
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    await players.pass(3);
    const manifest = ok(await stub.manifest());
    const events = ok(await stub.events(0)).events;
    expect(events.length).toBeGreaterThan(2);
    let prev = manifest.seed_commit;
    events.forEach((e, i) => {
      expect(e.rev).toBe(i + 1);
      expect(e.prev).toBe(prev);
      prev = String(e.hash);
    });
    for (const e of events) {
      const { hash, ...rest } = e;
      expect(await chainEventHash(String(e.prev), rest)).toBe(hash);
      expect(canonicalJson(rest)).not.toContain('"hash"');
    }
    expect(manifest.log_head).toEqual({ hash: prev, rev: events.length });
    expect(ok(await stub.events(2)).events.map((e) => e.rev)).toEqual(events.slice(2).map((e) => e.rev));
  });

  it("eviction in the middle of a game loses nothing and doubles nothing", async () => {
    const { stub, raw, field } = await createPlaying(SCATTER, 24);
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    await players.pass(2);
    const before = await snapshot(stub);
    expect(before.events.length).toBeGreaterThan(1);
    await evictDurableObject(raw);
    const after = await snapshot(stub);
    expect(after).toEqual(before);
    // Rejoining after the restart is the same seat, not a new one.
    const again = ok(await stub.join(joinArgs(machineId(1))));
    expect(again.agent).toBe(players.agents[0]);
    expect(ok(await stub.manifest()).log_head).toEqual(before.manifest.log_head);
    // Play on across another eviction to the end.
    await players.pass(2);
    await evictDurableObject(raw);
    await players.playToEnd();
    expect(ok(await stub.manifest()).status).toBe("solved");
    const events = ok(await stub.events(0)).events;
    expect(new Set(events.map((e) => e.rev)).size).toBe(events.length);
  });

  it("a storage failure between judge and store leaves memory equal to storage", async () => {
    const { stub, raw, field } = await createPlaying(SCATTER, 24);
    const players = new ScriptedPlayers(stub, field);
    const agent = await players.join();
    const seedTile = Number(ok(await stub.join(joinArgs(machineId(1)))).seed_tile);
    const before = await snapshot(stub);
    // Make the next append fail after the referee has already judged (and changed its memory).
    await runInDurableObject(raw, (instance: FieldObject) => {
      const store = (instance as unknown as { context: { store: { appendEvent: (e: unknown) => void } } }).context.store;
      const original = store.appendEvent.bind(store);
      store.appendEvent = () => {
        store.appendEvent = original;
        throw new Error("disk full");
      };
    });
    const failed = errorOf(await stub.write({ input: { type: "reveal", agent, expectedRevision: players.revision, tile: seedTile, intent: "x" }, machineId: machineId(1) }));
    expect(failed.message).toMatch(/nothing was changed/);
    expect(await snapshot(stub)).toEqual(before);
    // The same write then goes through, at the revision it would have had.
    const r = ok(await stub.write({ input: { type: "reveal", agent, expectedRevision: players.revision, tile: seedTile, intent: "x" }, machineId: machineId(1) }));
    expect(r.revision).toBe(before.manifest.log_head.rev + 1);
  });

  it("serialises concurrent writers: nothing lost or doubled, conflicts only on contradicted cells", async () => {
    // A fixed seed: the same field (and seed tiles) on every run.
    const { stub, field } = await createPlaying({ kind: "scatter", G: 100 }, 100, { seed: "concurrent-writers" });
    const players = new ScriptedPlayers(stub, field, 100);
    // Eight machines join at once: eight seats, eight revisions, eight distinct seed tiles.
    await Promise.all(Array.from({ length: 8 }, () => players.join()));
    expect(new Set(players.agents).size).toBe(8);
    // Cells that only the seed tile covers: committing them touches that tile and no other.
    const coverCount = new Map<number, number>();
    for (const t of field.tiles) for (const c of t.cellIds) coverCount.set(c, (coverCount.get(c) ?? 0) + 1);
    const ownCells = (tile: number) => field.tiles[tile].cellIds.filter((c) => coverCount.get(c) === 1 && !field.tiles[tile].givens.includes(c));
    const seeds = await Promise.all(players.agents.map(async (agent) => ({ agent, tile: Number(ok(await stub.join(joinArgs(agent.split("/")[0]))).seed_tile) })));
    expect(new Set(seeds.map((s) => s.tile)).size).toBe(8);
    const base = ok(await stub.manifest()).log_head.rev;
    expect(base).toBe(8);
    // Everyone reveals their own seed tile at once, all from the same (soon stale) revision.
    const reveals = await Promise.all(
      seeds.map(({ agent, tile }) => stub.write({ input: { type: "reveal", agent, expectedRevision: base, tile, intent: "seed" }, machineId: agent.split("/")[0] })),
    );
    const revs = reveals.map((r) => Number(ok(r).revision)).sort((a, b) => a - b);
    expect(revs).toEqual(seeds.map((_, i) => base + 1 + i));
    // Everyone commits their seed tile's cells at once, again from the stale base revision.
    const commits = await Promise.all(
      seeds.map(({ agent, tile }) => {
        const cells = ownCells(tile).slice(0, 4).map((c) => [c, field.solution[c]] as [number, 0 | 1]);
        return stub.write({ input: { type: "commit", agent, expectedRevision: base + seeds.length, cells, intent: "go" }, machineId: agent.split("/")[0] });
      }),
    );
    const commitRevs = commits.map((r) => Number(ok(r).revision)).sort((a, b) => a - b);
    expect(commitRevs).toEqual(seeds.map((_, i) => base + seeds.length + 1 + i));
    // The seat whose tile has the most cells of its own left.
    const { agent, tile } = seeds.reduce((a, b) => (ownCells(b.tile).length > ownCells(a.tile).length ? b : a));
    const rest = ownCells(tile).slice(4);
    expect(rest.length).toBeGreaterThanOrEqual(8);
    const race = (sets: number[][], rev: number) =>
      Promise.all(
        sets.map((ids) =>
          stub.write({ input: { type: "commit", agent, expectedRevision: rev, cells: ids.map((c) => [c, field.solution[c]] as [number, 0 | 1]), intent: "race" }, machineId: agent.split("/")[0] }),
        ),
      );
    // Two writes on different cells of the same tile from the same revision: both go through.
    const rev = ok(await stub.manifest()).log_head.rev;
    const disjoint = await race([rest.slice(0, 2), rest.slice(2, 4)], rev);
    expect(disjoint.map((r) => Number(ok(r).revision)).sort((a, b) => a - b)).toEqual([rev + 1, rev + 2]);
    // Two writes sharing a cell, same values, from the same revision: both go through, the shared
    // cell judged once and ignored as known (with its value) in whichever came second.
    const shared = await race([[rest[4], rest[5]], [rest[4], rest[6]]], rev + 2);
    expect(shared.map((r) => Number(ok(r).revision)).sort((a, b) => a - b)).toEqual([rev + 3, rev + 4]);
    const ignoredShared = shared.flatMap((r) => ok(r).ignored as Array<{ id: number; reason: string; v?: number }>);
    expect(ignoredShared).toEqual([{ id: rest[4], reason: "known", v: field.solution[rest[4]] }]);
    // A cell that became known since with the other value than sent: the stale view is contradicted.
    const contradicted = await stub.write({
      input: { type: "commit", agent, expectedRevision: rev + 2, cells: [[rest[7], field.solution[rest[7]] as 0 | 1], [rest[5], (1 - field.solution[rest[5]]) as 0 | 1]], intent: "stale" },
      machineId: agent.split("/")[0],
    });
    const conflict = errorOf(contradicted) as { code: string; revision?: number; cells?: number[]; tiles?: number[]; known?: number[][] };
    expect(conflict).toMatchObject({ code: "conflict", revision: rev + 4, cells: [rest[5]], tiles: [], known: [[rest[5], field.solution[rest[5]]]] });
    const events = ok(await stub.events(0)).events;
    expect(events.map((e) => e.rev)).toEqual(events.map((_, i) => i + 1));
    expect(events.length).toBe(rev + 4);
  });
});

describe("field object: bad input changes nothing (SPEC §12)", () => {
  it("answers every refusal clearly with the revision unchanged", async () => {
    const { stub, field, gameId } = await createPlaying(SCATTER, 24);
    const players = new ScriptedPlayers(stub, field);
    const agent = await players.join();
    const mine = machineId(1);
    const seedTile = Number(ok(await stub.join(joinArgs(mine))).seed_tile);
    const before = await snapshot(stub);
    const rev = before.manifest.log_head.rev;
    const expectRefused = async (outcome: Promise<Awaited<ReturnType<Stub["write"]>>>, code: string, pattern?: RegExp) => {
      const error = errorOf(await outcome);
      expect(error.code).toBe(code);
      expect(error.message.length).toBeGreaterThan(10);
      if (pattern) expect(error.message).toMatch(pattern);
      expect(await snapshot(stub)).toEqual(before);
      return error;
    };
    const reveal = (over: Record<string, unknown> = {}, auth: Record<string, unknown> = { machineId: mine }) =>
      stub.write({ input: { type: "reveal", agent, expectedRevision: rev, tile: seedTile, intent: "x", ...over } as never, ...auth });

    // unknown field
    expect(errorOf(await fieldApi(env.FIELDS.getByName(uniqueId("nothing"))).observe({})).code).toBe("missing");
    expect(errorOf(await fieldApi(env.FIELDS.getByName(uniqueId("nothing"))).join(joinArgs(mine))).code).toBe("missing");
    // not seated: a proven machine writing as an agent it never seated
    await expectRefused(reveal({ agent: `${machineId(9)}/1` }, { machineId: machineId(9) }), "not_seated");
    // not your agent: another machine's token naming my agent
    await expectRefused(reveal({}, { machineId: machineId(2) }), "not_your_agent", new RegExp(machineId(2)));
    // no proof at all; a wrong agent_secret
    await expectRefused(reveal({}, {}), "identity");
    await expectRefused(reveal({}, { agentSecret: "as_wrong" }), "not_your_agent");
    await expectRefused(reveal({ agent: `${machineId(9)}/1` }, { agentSecret: "as_wrong" }), "not_seated");
    // malformed agent id
    await expectRefused(reveal({ agent: "nobody" }), "bad_input");
    // a tile off the frontier
    const far = field.tiles.find((t) => t.id !== seedTile && !t.cellIds.some((c) => field.tiles[seedTile].cellIds.includes(c)))!;
    await expectRefused(reveal({ tile: far.id }), "off_frontier");
    // a tile that does not exist
    await expectRefused(reveal({ tile: field.tiles.length + 5 }), "bad_input");
    // a stale view contradicted: reveal, then commit from before it a given with the other value
    const r = ok(await reveal());
    const after = await snapshot(stub);
    const given = field.tiles[seedTile].givens[0];
    const stale = errorOf(await stub.write({ input: { type: "commit", agent, expectedRevision: rev, cells: [[given, (1 - field.solution[given]) as 0 | 1]], intent: "x" }, machineId: mine }));
    expect(stale).toMatchObject({ code: "conflict", revision: Number(r.revision) });
    expect(await snapshot(stub)).toEqual(after);
    // batch too large; cell out of range
    const tooMany = Array.from({ length: 513 }, (_, i) => [i % (24 * 24), 0] as [number, 0 | 1]);
    expect(errorOf(await stub.write({ input: { type: "commit", agent, expectedRevision: Number(r.revision), cells: tooMany, intent: "x" }, machineId: mine })).code).toBe("too_large");
    expect(errorOf(await stub.write({ input: { type: "commit", agent, expectedRevision: Number(r.revision), cells: [[24 * 24 + 3, 1]], intent: "x" }, machineId: mine })).code).toBe("bad_input");
    expect(await snapshot(stub)).toEqual(after);
    void gameId;
  });

  it("kills a machine that commits wrong cells and refuses its writes; a closed field refuses everyone", async () => {
    const { stub, raw, field } = await createPlaying({ kind: "scatter", G: 40 }, 40);
    const players = new ScriptedPlayers(stub, field);
    const agent = await players.join();
    const seedTile = Number(ok(await stub.join(joinArgs(machineId(1)))).seed_tile);
    let rev = Number(ok(await stub.write({ input: { type: "reveal", agent, expectedRevision: players.revision, tile: seedTile, intent: "x" }, machineId: machineId(1) })).revision);
    const t = field.tiles[seedTile];
    const wrong = t.cellIds.filter((c) => !t.givens.includes(c)).map((c) => [c, (1 - field.solution[c]) as 0 | 1] as [number, 0 | 1]);
    let health: { state: string } = { state: "healthy" };
    for (let i = 0; i < 40 && health.state !== "dead"; i++) {
      const out = await stub.write({ input: { type: "commit", agent, expectedRevision: rev, cells: [wrong[i % wrong.length]], intent: "bad" }, machineId: machineId(1) });
      if (!out.ok) break;
      rev = Number(out.answer.revision);
      health = out.answer.health as { state: string };
    }
    expect(health.state).toBe("dead");
    const before = await snapshot(stub);
    const dead = errorOf(await stub.write({ input: { type: "commit", agent, expectedRevision: rev, cells: [wrong[0]], intent: "bad" }, machineId: machineId(1) }));
    expect(dead.code).toBe("dead");
    expect(await snapshot(stub)).toEqual(before);

    ok(await stub.close());
    const closedBefore = await snapshot(stub);
    expect(closedBefore.manifest.status).toBe("closed");
    expect(errorOf(await stub.join(joinArgs(machineId(5)))).code).toBe("closed");
    await evictDurableObject(raw);
    expect(await snapshot(stub)).toEqual(closedBefore);
  });
});

describe("field object: damaged storage", () => {
  it("a log that no longer replays leaves the field unloaded and answering failed, storage untouched", async () => {
    const { stub, raw, field } = await createPlaying(SCATTER, 24);
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    await players.pass(1);
    const events = ok(await stub.events(0)).events;
    await runInDurableObject(raw, (_instance, state) => {
      state.storage.sql.exec("UPDATE events SET input = ? WHERE seq = 2", JSON.stringify({ type: "reveal", machineId: machineId(1), agent: `${machineId(1)}/1`, expectedRevision: 0, tile: 999999, intent: "" }));
    });
    await evictDurableObject(raw);
    // observe answers the failure as an observation (SPEC §6), so a poll loop sees it and stops.
    const failed = ok(await stub.observe({ full: true })).observation as { status: string; error: string; seconds: number };
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/could not be loaded: replay diverged at revision 2/);
    expect(failed.seconds).toBeGreaterThanOrEqual(0);
    expect(errorOf(await stub.join(joinArgs(machineId(2)))).code).toBe("failed");
    expect(ok(await stub.events(0)).events).toEqual(events);
  });
});

describe("registry and expiry", () => {
  it("lists fields newest first and forgets fields nobody joined after 30 minutes", async () => {
    const a = await createPlaying(SCATTER, 24);
    const b = await createPlaying(GRID, 11);
    let games = await listGames(env);
    const ids = games.map((g) => g.game_id);
    expect(ids.indexOf(b.gameId)).toBeLessThan(ids.indexOf(a.gameId));
    expect(games.find((g) => g.game_id === b.gameId)).toMatchObject({ status: "playing", G: 11, tiles: b.field.tiles.length, agents: [], agents_total: 0, fog: false, grown: 0 });
    expect(games.find((g) => g.game_id === b.gameId)).not.toHaveProperty("error");

    // b gets a player; then both pass their expiry time.
    ok(await b.stub.join(joinArgs(machineId(1))));
    for (const raw of [a.raw, b.raw]) {
      await runInDurableObject(raw, (_instance, state) => {
        state.storage.sql.exec("UPDATE meta SET value = ? WHERE key = 'expires_at'", JSON.stringify(Date.now() - 1));
      });
      await runDurableObjectAlarm(raw);
    }
    expect((await a.stub.status()).status).toBe("missing");
    expect(errorOf(await a.stub.observe({})).code).toBe("missing");
    expect((await b.stub.status()).status).toBe("playing");
    // Registry reports are sent after the answer: poll briefly.
    for (let i = 0; i < 60; i++) {
      games = await listGames(env);
      if (games.find((g) => g.game_id === b.gameId)?.agents_total === 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(games.some((g) => g.game_id === a.gameId)).toBe(false);
    expect(games.find((g) => g.game_id === b.gameId)).toMatchObject({ agents: [`${machineId(1)}/1`], agents_total: 1 });
  });

  it("reports a failed generation with its reason", async () => {
    const gameId = uniqueId("bad");
    const raw = env.FIELDS.getByName(gameId);
    const stub = fieldApi(raw);
    // A grid whose side does not fit its tiles: the engine refuses it.
    ok(await stub.create({ gameId, params: { kind: "grid", G: 12, n: 6 }, rules: RULES, G: 12, seed: "s" }));
    await runDurableObjectAlarm(raw);
    for (let i = 0; i < 200 && (await stub.status()).status === "generating"; i++) await new Promise((r) => setTimeout(r, 50));
    const status = await stub.status();
    expect(status.status).toBe("failed");
    expect(status.failure).toMatch(/generation failed/);
    // observe answers the failure as an observation (the reference's poll loop stops on it); writes are refused.
    const observed = ok(await stub.observe({}));
    expect(Object.keys(observed)).toEqual(["observation"]);
    expect(observed.observation).toEqual({ game_id: gameId, status: "failed", seconds: expect.any(Number), revision: 0, error: status.failure });
    expect(errorOf(await stub.join(joinArgs(machineId(1)))).code).toBe("failed");
    // list_games names the reason too.
    let row: Awaited<ReturnType<typeof listGames>>[number] | undefined;
    for (let i = 0; i < 60 && row?.status !== "failed"; i++) {
      row = (await listGames(env)).find((g) => g.game_id === gameId);
      if (row?.status !== "failed") await new Promise((r) => setTimeout(r, 50));
    }
    expect(row).toMatchObject({ status: "failed", error: status.failure, agents: [], agents_total: 0 });
  });
});
