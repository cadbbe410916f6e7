import { env } from "cloudflare:workers";
import { abortAllDurableObjects, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { generateRing, type FieldParams } from "../../src/engine";
import type { Field } from "../../src/engine/types";
import type { FieldObject } from "../../src/game/field-object";
import { FieldStore } from "../../src/game/field-store";
import { rebuildReferee, SNAPSHOT_EVERY } from "../../src/game/replay";
import type { Referee } from "../../src/referee";
import type { FieldRules } from "../../src/referee/types";
import type { WriteArgs } from "../../src/game/field-types";
import { createPlaying, fieldApi, joinArgs, machineId, ok, ScriptedPlayers, type RawStub, type Stub } from "./game-helpers";

/**
 * Restore from the newest referee snapshot plus the writes after it: the object takes a snapshot
 * in the background once SNAPSHOT_EVERY events were stored since the last one; after eviction the
 * state, the log and every answer are those of a full replay, and play continues. A damaged
 * snapshot falls back to the full replay.
 */

const SCATTER = { kind: "scatter" as const, G: 40 };

/** What the object keeps in memory that the tests look at (its private field context). */
type Inside = { referee: Referee | null; snapshotRev: number; snapshotting: Promise<void> | null };
const inside = (o: FieldObject): Inside => (o as unknown as { context: Inside }).context;

async function view(stub: Stub, agents: string[]) {
  const manifest = ok(await stub.manifest());
  const events = ok(await stub.events(0)).events;
  // The whole field, or on a larger canvas two rects covering the grown area (at most 120 a side).
  const G = ok(await stub.manifest()).G;
  const full = G <= 120 ? ok(await stub.observe({ full: true })) : [ok(await stub.observe({ rect: [0, 0, 120, 120] })), ok(await stub.observe({ rect: [80, 80, 120, 120] }))];
  const perAgent = await Promise.all(agents.map(async (agent) => ok(await stub.observe({ agent, callerMachineId: agent.split("/")[0] }))));
  return { manifest, events, full, perAgent };
}

/** Many small writes: every unknown cell of the agents' frontier tiles committed one by one. */
async function playCells(stub: Stub, field: Field, players: ScriptedPlayers, untilRevision: number): Promise<void> {
  for (let guard = 0; players.revision < untilRevision && guard < 50; guard++) {
    let progressed = false;
    for (const agent of players.agents) {
      const o = ok(await stub.observe({ agent })).observation as { frontier: number[]; tiles: Array<{ id: number; status: string }>; revision: number };
      const status = new Map(o.tiles.map((t) => [t.id, t.status]));
      for (const tile of o.frontier) {
        if (players.revision >= untilRevision) return;
        if (status.get(tile) === "hidden") {
          players.revision = Number(ok(await stub.write({ input: { type: "reveal", agent, expectedRevision: players.revision, tile, intent: "open" }, machineId: agent.split("/")[0] })).revision);
        }
        const knownIds = await knownCells(stub, field, tile);
        for (const c of field.tiles[tile].cellIds) {
          if (players.revision >= untilRevision) return;
          if (knownIds.has(c)) continue;
          const r = ok(await stub.write({ input: { type: "commit", agent, expectedRevision: players.revision, cells: [[c, field.solution[c] as 0 | 1]], intent: `cell ${c}` }, machineId: agent.split("/")[0] }));
          players.revision = Number(r.revision);
          progressed = true;
        }
      }
    }
    if (!progressed) await players.join();
  }
}

/** The known cells of a tile, as anyone observes them. */
async function knownCells(stub: Stub, field: Field, tile: number): Promise<Set<number>> {
  const t = field.tiles[tile];
  const o = ok(await stub.observe({ rect: [t.x0, t.y0, t.w, t.h] })).observation as { known: { gaps: number[] } };
  const ids = new Set<number>();
  o.known.gaps.reduce((id, gap) => (ids.add(id + gap), id + gap), 0);
  return ids;
}

/** Reveals every agent's frontier tiles, then lists the cells of those tiles still unknown, each once with one agent that may commit it. */
async function revealFrontiersAndListOpenCells(stub: Stub, field: Field, players: ScriptedPlayers): Promise<Array<{ agent: string; cell: number }>> {
  const frontiers = new Map<string, number[]>();
  for (const agent of players.agents) {
    const frontier = (ok(await stub.observe({ agent })).observation as { frontier: number[] }).frontier;
    frontiers.set(agent, frontier);
    for (const tile of frontier) {
      if (ok(await stub.write({ input: { type: "reveal", agent, expectedRevision: players.revision, tile, intent: "open" }, machineId: agent.split("/")[0] })).changed) players.revision++;
    }
  }
  const open: Array<{ agent: string; cell: number }> = [];
  const taken = new Set<number>();
  for (const [agent, frontier] of frontiers) {
    for (const tile of frontier) {
      const known = await knownCells(stub, field, tile);
      for (const cell of field.tiles[tile].cellIds) {
        if (known.has(cell) || taken.has(cell)) continue;
        taken.add(cell);
        open.push({ agent, cell });
      }
    }
  }
  return open;
}

/** An event sent inside the object; what it answers: the agent that made it and the revision. */
type DueEvent = (obj: FieldObject) => Promise<{ agent: string; revision: number }>;

/**
 * The next event: a write by the first agent that has one (a reveal of a hidden frontier tile, else
 * a commit of an unknown cell on its frontier), else the join of a new machine, as when
 * ScriptedPlayers runs out of frontier (a field's seed of randomness decides when that happens).
 */
async function dueEvent(stub: Stub, field: Field, players: ScriptedPlayers): Promise<DueEvent> {
  const write = (agent: string, input: WriteArgs["input"]): DueEvent => async (obj) => ({ agent, revision: Number(ok(await obj.write({ input, machineId: agent.split("/")[0] })).revision) });
  for (const agent of players.agents) {
    const o = ok(await stub.observe({ agent })).observation as { frontier: number[]; tiles: Array<{ id: number; status: string }> };
    const status = new Map(o.tiles.map((t) => [t.id, t.status]));
    const hidden = o.frontier.find((t) => status.get(t) === "hidden");
    if (hidden !== undefined) return write(agent, { type: "reveal", agent, expectedRevision: players.revision, tile: hidden, intent: "due" });
    for (const tile of o.frontier) {
      const known = await knownCells(stub, field, tile);
      const cell = field.tiles[tile].cellIds.find((c) => !known.has(c));
      if (cell !== undefined) return write(agent, { type: "commit", agent, expectedRevision: players.revision, cells: [[cell, field.solution[cell] as 0 | 1]], intent: "due" });
    }
  }
  return async (obj) => {
    const joined = ok(await obj.join(joinArgs(machineId(40))));
    return { agent: String(joined.agent), revision: Number(joined.revision) };
  };
}

/** The digest of a referee rebuilt from the whole log (no snapshot), inside the object. */
async function fullReplayDigest(raw: RawStub): Promise<string> {
  return runInDurableObject(raw, (_o: FieldObject, state) => {
    const store = new FieldStore(state.storage.sql);
    const field = store.loadField(store.getMeta<number>("G")!);
    const base = { gameId: store.getMeta<string>("game_id")!, seed: store.getMeta<string>("seed")!, rules: store.getMeta<FieldRules>("rules")! };
    const { referee, fromSnapshot } = rebuildReferee(field, store.getMeta<number>("initial_tiles")!, base, undefined, (rev) => store.inputs(rev));
    expect(fromSnapshot).toBeNull();
    return referee.stateDigest();
  });
}

/** The stored snapshots' revisions, once the snapshot being taken in the background (if any) is stored. */
async function snapshotRevs(raw: RawStub): Promise<Array<{ rev: number; parts: number }>> {
  await runInDurableObject(raw, async (o: FieldObject) => {
    await inside(o).snapshotting;
  });
  return runInDurableObject(raw, (_o: FieldObject, state) => state.storage.sql.exec<{ rev: number; parts: number }>("SELECT DISTINCT rev, parts FROM snapshots").toArray());
}

/** The one stored snapshot's revision, which must lie in [from, to]. */
async function oneSnapshotIn(raw: RawStub, from: number, to: number): Promise<number> {
  const revs = await snapshotRevs(raw);
  expect(revs).toHaveLength(1);
  expect(revs[0].parts).toBe(1);
  expect(revs[0].rev).toBeGreaterThanOrEqual(from);
  expect(revs[0].rev).toBeLessThanOrEqual(to);
  return revs[0].rev;
}

/**
 * The stored snapshot is exactly the state after its revision: restored, it has the digest of a
 * referee rebuilt from the log's events up to that revision alone.
 */
async function snapshotIsStateAt(raw: RawStub): Promise<number> {
  return runInDurableObject(raw, (_o: FieldObject, state) => {
    const store = new FieldStore(state.storage.sql);
    const snapshot = store.latestSnapshot()!;
    const field = store.loadField(store.getMeta<number>("G")!);
    const base = { gameId: store.getMeta<string>("game_id")!, seed: store.getMeta<string>("seed")!, rules: store.getMeta<FieldRules>("rules")! };
    const upTo = (rev: number) => [...store.inputs(rev)].filter((i) => i.rev <= snapshot.rev);
    const viaSnapshot = rebuildReferee(field, store.getMeta<number>("initial_tiles")!, base, snapshot, () => []);
    const viaLog = rebuildReferee(field, store.getMeta<number>("initial_tiles")!, base, undefined, upTo);
    expect(viaSnapshot.fromSnapshot).toBe(snapshot.rev);
    expect(viaSnapshot.referee.revision).toBe(snapshot.rev);
    expect(viaSnapshot.referee.stateDigest()).toBe(viaLog.referee.stateDigest());
    return snapshot.rev;
  });
}

/**
 * Evicted and woken, the object answers as before, came back through the snapshot at `snapRev`
 * (not a fallback to the whole log), and equals a referee rebuilt from the whole log.
 */
async function expectRestoredThrough(stub: Stub, raw: RawStub, agents: string[], snapRev: number): Promise<void> {
  const before = await view(stub, agents);
  const digest = await runInDurableObject(raw, (o: FieldObject) => inside(o).referee!.stateDigest());
  await evictDurableObject(raw);
  expect(await view(stub, agents)).toEqual(before);
  const restored = await runInDurableObject(raw, (o: FieldObject) => ({ digest: inside(o).referee!.stateDigest(), snapshotRev: inside(o).snapshotRev }));
  expect(restored).toEqual({ digest, snapshotRev: snapRev });
  expect(await fullReplayDigest(raw)).toBe(digest);
}

describe("field object: referee snapshots", () => {
  it("restores from the newest snapshot plus the later writes, identical to a full replay, and plays on", async () => {
    const { stub, raw, field } = await createPlaying(SCATTER, 40);
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    await players.join();
    const target = 2 * SNAPSHOT_EVERY + 37;
    await playCells(stub, field, players, target);
    expect(players.revision).toBe(target);
    // One snapshot kept, the newest, taken after the answer once 2 × SNAPSHOT_EVERY events were stored.
    const snapRev = await oneSnapshotIn(raw, 2 * SNAPSHOT_EVERY, target);
    expect(await snapshotIsStateAt(raw)).toBe(snapRev);

    const before = await view(stub, players.agents);
    const digest = await runInDurableObject(raw, (o: FieldObject) => inside(o).referee!.stateDigest());
    await evictDurableObject(raw);
    expect(await view(stub, players.agents)).toEqual(before);
    const restored = await runInDurableObject(raw, (o: FieldObject) => ({ digest: inside(o).referee!.stateDigest(), snapshotRev: inside(o).snapshotRev }));
    // It came back through the snapshot, and equals both the state before and a full replay.
    expect(restored).toEqual({ digest, snapshotRev: snapRev });
    expect(await fullReplayDigest(raw)).toBe(digest);

    // Play on to the end across another eviction; the log stays one contiguous chain.
    await players.pass(3);
    await evictDurableObject(raw);
    await players.playToEnd();
    expect(ok(await stub.manifest()).status).toBe("solved");
    const events = ok(await stub.events(0)).events;
    expect(events.map((e) => e.rev)).toEqual(events.map((_, i) => i + 1));
    for (let i = 1; i < events.length; i++) expect(events[i].prev).toBe(events[i - 1].hash);
  });

  it("restores a snapshot taken after a ring grew, on the tiles of that moment", async () => {
    const params = { kind: "field" as const, chunks: 2, chunk_g: 40, grow: true, G: 200 };
    const { stub, raw, field, seed } = await createPlaying(params, 200, { rules: { guess: "accept", depth: 0, fog: true }, grow: { frontier_coverage: 0.1 } });
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    const grown = async () => (ok(await stub.manifest()).grown);
    for (let i = 0; i < 200 && (await grown()) === 0; i++) {
      if ((await players.pass(1)) === 0) await players.join();
      await runDurableObjectAlarm(raw);
    }
    for (let i = 0; i < 600 && (await grown()) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await grown()).toBe(1);
    const growRev = Number(ok(await stub.events(0)).events.find((e) => e.type === "grow")!.rev);
    expect(growRev).toBeLessThan(SNAPSHOT_EVERY);
    const ring = await generateRing(seed, { ...params, seed } as FieldParams, 1, field);
    const whole: Field = { G: field.G, tiles: [...field.tiles, ...ring.tiles], solution: ring.solution };

    players.revision = ok(await stub.manifest()).log_head.rev;
    await playCells(stub, whole, players, SNAPSHOT_EVERY + 11);
    const snapRev = await oneSnapshotIn(raw, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 11);
    expect(await snapshotIsStateAt(raw)).toBe(snapRev);
    expect(await grown()).toBe(1);
    await expectRestoredThrough(stub, raw, players.agents, snapRev);
  });

  it("restores a snapshot taken before a ring grew: the stored solution then holds the ring's cells too", async () => {
    const params = { kind: "field" as const, chunks: 2, chunk_g: 40, grow: true, G: 200 };
    const { stub, raw, field, seed } = await createPlaying(params, 200, { rules: { guess: "accept", depth: 0, fog: false }, grow: { every_minutes: 1440, frontier_coverage: 1 } });
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    await players.join();
    await playCells(stub, field, players, SNAPSHOT_EVERY + 5);
    const snapRev = await oneSnapshotIn(raw, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 5);
    expect(ok(await stub.manifest()).grown).toBe(0);
    // The timer comes due: a ring grows after the snapshot, and play goes on in it.
    await runInDurableObject(raw, (_o: FieldObject, state) => {
      new FieldStore(state.storage.sql).setMeta("next_grow_at", Date.now() - 1);
    });
    await runDurableObjectAlarm(raw);
    for (let i = 0; i < 600 && ok(await stub.manifest()).grown === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(ok(await stub.manifest()).grown).toBe(1);
    const ring = await generateRing(seed, { ...params, seed } as FieldParams, 1, field);
    const whole: Field = { G: field.G, tiles: [...field.tiles, ...ring.tiles], solution: ring.solution };
    players.revision = ok(await stub.manifest()).log_head.rev;
    await playCells(stub, whole, players, players.revision + 6);
    expect(await oneSnapshotIn(raw, snapRev, snapRev)).toBe(snapRev);

    await expectRestoredThrough(stub, raw, players.agents, snapRev);
  });

  it("a snapshot taken while writes keep arriving is the state at its revision, and restores", async () => {
    const { stub, raw, field } = await createPlaying(SCATTER, 40);
    const players = new ScriptedPlayers(stub, field);
    for (let i = 0; i < 3; i++) await players.join();
    await playCells(stub, field, players, SNAPSHOT_EVERY - 25);
    expect(await snapshotRevs(raw)).toEqual([]);
    // Every agent's frontier tiles revealed, then their open cells listed. When the frontiers hold
    // fewer than thirty (the field's random seed decides), a new machine joins, as ScriptedPlayers
    // does when play runs out, and the cells are listed again.
    let open = await revealFrontiersAndListOpenCells(stub, field, players);
    for (let extra = 0; open.length < 30 && extra < 4; extra++) {
      await players.join();
      open = await revealFrontiersAndListOpenCells(stub, field, players);
    }
    expect(open.length).toBeGreaterThanOrEqual(30);
    const base = ok(await stub.manifest()).log_head.rev;
    expect(base).toBeLessThan(SNAPSHOT_EVERY);
    expect(base + 30).toBeGreaterThan(SNAPSHOT_EVERY + 5);
    // Thirty one-cell commits in waves of three at once, all from the same revision (scoped
    // conflicts: none conflict), crossing SNAPSHOT_EVERY: the snapshot is taken and encoded while
    // the later waves keep arriving.
    const answers: Array<Awaited<ReturnType<Stub["write"]>>> = [];
    for (let i = 0; i < 30; i += 3) {
      const wave = open.slice(i, i + 3).map(({ agent, cell }) =>
        stub.write({ input: { type: "commit", agent, expectedRevision: base, cells: [[cell, field.solution[cell] as 0 | 1]], intent: "burst" }, machineId: agent.split("/")[0] }),
      );
      answers.push(...(await Promise.all(wave)));
    }
    expect(answers.map((a) => Number(ok(a).revision)).sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => base + 1 + i));
    const snapRev = await oneSnapshotIn(raw, SNAPSHOT_EVERY, base + 30);
    expect(await snapshotIsStateAt(raw)).toBe(snapRev);
    const before = await view(stub, players.agents);
    const digest = await runInDurableObject(raw, (o: FieldObject) => inside(o).referee!.stateDigest());
    await evictDurableObject(raw);
    expect(await view(stub, players.agents)).toEqual(before);
    expect(await runInDurableObject(raw, (o: FieldObject) => ({ digest: inside(o).referee!.stateDigest(), snapshotRev: inside(o).snapshotRev }))).toEqual({ digest, snapshotRev: snapRev });
    expect(await fullReplayDigest(raw)).toBe(digest);
  });

  it("answers the write that makes a snapshot due before taking it; an object aborted meanwhile loses nothing", async () => {
    const created = await createPlaying(SCATTER, 40);
    const { field, gameId } = created;
    const players = new ScriptedPlayers(created.stub, field);
    await players.join();
    await playCells(created.stub, field, players, SNAPSHOT_EVERY - 1);
    // The 128th event, sent inside the object: when its answer arrives, the snapshot is due and
    // under way, and nothing of it is stored yet. It is a write some agent can make, or a new
    // machine's join when every agent's frontier has run out (dueEvent).
    const due = await dueEvent(created.stub, field, players);
    const atAnswer = await runInDurableObject(created.raw, async (obj: FieldObject, state) => {
      const answer = await due(obj);
      return {
        agent: answer.agent,
        revision: answer.revision,
        underWay: inside(obj).snapshotting !== null,
        stored: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM snapshots").one().n,
      };
    });
    const { agent, ...atDue } = atAnswer;
    expect(atDue).toEqual({ revision: SNAPSHOT_EVERY, underWay: true, stored: 0 });
    // Aborted at once (the snapshot finished, half-way or not started): nothing is lost.
    await abortAllDurableObjects();
    const raw = env.FIELDS.getByName(gameId);
    const stub = fieldApi(raw);
    expect(ok(await stub.manifest()).log_head.rev).toBe(SNAPSHOT_EVERY);
    const restored = await runInDurableObject(raw, (obj: FieldObject) => ({ digest: inside(obj).referee!.stateDigest(), snapshotRev: inside(obj).snapshotRev }));
    expect(restored.digest).toBe(await fullReplayDigest(raw));
    const revs = await snapshotRevs(raw);
    expect(revs.length).toBeLessThanOrEqual(1);
    if (revs.length === 1) {
      expect(await snapshotIsStateAt(raw)).toBe(SNAPSHOT_EVERY);
      expect(restored.snapshotRev).toBe(SNAPSHOT_EVERY);
    } else {
      expect(restored.snapshotRev).toBe(0);
    }
    // Play goes on, and a snapshot is stored and restores.
    const again = new ScriptedPlayers(stub, field, 50);
    again.revision = SNAPSHOT_EVERY;
    again.agents.push(agent);
    await playCells(stub, field, again, SNAPSHOT_EVERY + 3);
    expect((await snapshotRevs(raw)).length).toBe(1);
    const rev = await snapshotIsStateAt(raw);
    expect(rev).toBeGreaterThanOrEqual(SNAPSHOT_EVERY);
    const digest = await runInDurableObject(raw, (obj: FieldObject) => inside(obj).referee!.stateDigest());
    await evictDurableObject(raw);
    expect(await runInDurableObject(raw, (obj: FieldObject) => ({ digest: inside(obj).referee!.stateDigest(), snapshotRev: inside(obj).snapshotRev }))).toEqual({ digest, snapshotRev: rev });
    expect(await fullReplayDigest(raw)).toBe(digest);
  });

  it("a damaged or missing snapshot falls back to the full replay, and the next write stores a fresh one", async () => {
    const { stub, raw, field } = await createPlaying(SCATTER, 40);
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    const target = SNAPSHOT_EVERY + 9;
    await playCells(stub, field, players, target);
    const snapRev = await oneSnapshotIn(raw, SNAPSHOT_EVERY, target);
    const before = await view(stub, players.agents);

    const good = await runInDurableObject(raw, (_o: FieldObject, state) => new TextDecoder().decode(state.storage.sql.exec<{ data: ArrayBuffer }>("SELECT data FROM snapshots").one().data));
    const changed = JSON.parse(good) as { machines: Array<{ reward: number }> };
    changed.machines[0].reward += 1;
    const damages: Array<{ what: string; bytes: string; parts: number }> = [
      { what: "not JSON", bytes: "{not json", parts: 1 },
      // Valid JSON with one changed value: refused by the snapshot's own digest.
      { what: "a changed reward", bytes: JSON.stringify(changed), parts: 1 },
      { what: "a missing part", bytes: good, parts: 2 },
    ];
    for (const { what, bytes, parts } of damages) {
      await runInDurableObject(raw, (_o: FieldObject, state) => {
        state.storage.sql.exec("UPDATE snapshots SET data = ?, parts = ?", new TextEncoder().encode(bytes).buffer, parts);
      });
      await evictDurableObject(raw);
      expect(await view(stub, players.agents), what).toEqual(before);
      expect(await runInDurableObject(raw, (o: FieldObject) => inside(o).snapshotRev), what).toBe(0);
    }
    // The intact snapshot restores again.
    await runInDurableObject(raw, (_o: FieldObject, state) => {
      state.storage.sql.exec("UPDATE snapshots SET data = ?, parts = 1", new TextEncoder().encode(good).buffer);
    });
    await evictDurableObject(raw);
    expect(await view(stub, players.agents)).toEqual(before);
    expect(await runInDurableObject(raw, (o: FieldObject) => inside(o).snapshotRev)).toBe(snapRev);
    await runInDurableObject(raw, (_o: FieldObject, state) => {
      state.storage.sql.exec("DELETE FROM snapshots");
    });
    await evictDurableObject(raw);
    expect(await runInDurableObject(raw, (o: FieldObject) => inside(o).snapshotRev)).toBe(0);

    // The next stored write takes a fresh snapshot, and it restores.
    await playCells(stub, field, players, target + 1);
    expect(await snapshotRevs(raw)).toEqual([{ rev: target + 1, parts: 1 }]);
    const after = await view(stub, players.agents);
    await evictDurableObject(raw);
    expect(await view(stub, players.agents)).toEqual(after);
    expect(await runInDurableObject(raw, (o: FieldObject) => inside(o).snapshotRev)).toBe(target + 1);
  });
});
