import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { generateRing, type FieldParams } from "../../src/engine";
import type { Field } from "../../src/engine/types";
import type { FieldObject } from "../../src/game/field-object";
import { FieldStore } from "../../src/game/field-store";
import { rebuildReferee, SNAPSHOT_EVERY } from "../../src/game/replay";
import type { Referee } from "../../src/referee";
import type { FieldRules } from "../../src/referee/types";
import { createPlaying, ok, ScriptedPlayers, type RawStub, type Stub } from "./game-helpers";

/**
 * Restore from the newest referee snapshot plus the writes after it: the object stores a
 * snapshot every SNAPSHOT_EVERY events; after eviction the state, the log and every answer are
 * those of a full replay, and play continues. A damaged snapshot falls back to the full replay.
 */

const SCATTER = { kind: "scatter" as const, G: 40 };

/** What the object keeps in memory that the tests look at (its private field context). */
type Inside = { referee: Referee | null; snapshotRev: number };
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
        const known = ok(await stub.observe({ rect: [field.tiles[tile].x0, field.tiles[tile].y0, field.tiles[tile].w, field.tiles[tile].h] })).observation as { known: { gaps: number[] } };
        const knownIds = new Set<number>();
        known.known.gaps.reduce((id, gap) => (knownIds.add(id + gap), id + gap), 0);
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

const snapshotRevs = (raw: RawStub) =>
  runInDurableObject(raw, (_o: FieldObject, state) => state.storage.sql.exec<{ rev: number; parts: number }>("SELECT DISTINCT rev, parts FROM snapshots").toArray());

describe("field object: referee snapshots", () => {
  it("restores from the newest snapshot plus the later writes, identical to a full replay, and plays on", async () => {
    const { stub, raw, field } = await createPlaying(SCATTER, 40);
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    await players.join();
    const target = 2 * SNAPSHOT_EVERY + 37;
    await playCells(stub, field, players, target);
    expect(players.revision).toBe(target);
    // One snapshot kept, the newest, taken in the same transaction as its event.
    expect(await snapshotRevs(raw)).toEqual([{ rev: 2 * SNAPSHOT_EVERY, parts: 1 }]);

    const before = await view(stub, players.agents);
    const digest = await runInDurableObject(raw, (o: FieldObject) => inside(o).referee!.stateDigest());
    await evictDurableObject(raw);
    expect(await view(stub, players.agents)).toEqual(before);
    const restored = await runInDurableObject(raw, (o: FieldObject) => ({ digest: inside(o).referee!.stateDigest(), snapshotRev: inside(o).snapshotRev }));
    // It came back through the snapshot, and equals both the state before and a full replay.
    expect(restored).toEqual({ digest, snapshotRev: 2 * SNAPSHOT_EVERY });
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
    expect(await snapshotRevs(raw)).toEqual([{ rev: SNAPSHOT_EVERY, parts: 1 }]);
    expect(await grown()).toBe(1);
    const before = await view(stub, players.agents);
    const digest = await runInDurableObject(raw, (o: FieldObject) => inside(o).referee!.stateDigest());
    await evictDurableObject(raw);
    expect(await view(stub, players.agents)).toEqual(before);
    expect(await runInDurableObject(raw, (o: FieldObject) => ({ digest: inside(o).referee!.stateDigest(), snapshotRev: inside(o).snapshotRev }))).toEqual({
      digest,
      snapshotRev: SNAPSHOT_EVERY,
    });
    expect(await fullReplayDigest(raw)).toBe(digest);
  });

  it("a damaged or missing snapshot falls back to the full replay, and the next write stores a fresh one", async () => {
    const { stub, raw, field } = await createPlaying(SCATTER, 40);
    const players = new ScriptedPlayers(stub, field);
    await players.join();
    const target = SNAPSHOT_EVERY + 9;
    await playCells(stub, field, players, target);
    expect(await snapshotRevs(raw)).toEqual([{ rev: SNAPSHOT_EVERY, parts: 1 }]);
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
    expect(await runInDurableObject(raw, (o: FieldObject) => inside(o).snapshotRev)).toBe(SNAPSHOT_EVERY);
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
