import { beforeAll, describe, expect, it } from "vitest";
import { generateField } from "../../../src/engine";
import type { Field } from "../../../src/engine/types";
import type { Referee } from "../../../src/referee/referee";
import type { FieldRules } from "../../../src/referee/types";
import {
  applyLiveMessage,
  ArchiveReplay,
  leaderboard,
  modelAtStart,
  packCells,
  packTiles,
  SpectatorError,
  SpectatorModel,
  unpackCells,
  type PublicEvent,
  type SpectatorSnapshot,
  type TileGeometry,
} from "../../../src/spectator";
import { chainField, scatterField } from "../referee/fixtures";
import { playDay, type PlayedDay } from "./play-day";

/**
 * The spectator reducer against the real referee: a day is played by scripted machines, and a
 * model fed the day's public events — from revision 0, from a mid-game snapshot sent through
 * JSON, or as a fog-bound live client receiving batches — must end in the referee's own state:
 * known cells, tile statuses and solvers, groups, frontiers, machines' counters and health.
 */

const geometryOf = (field: Field): TileGeometry[] => field.tiles.map((t) => ({ id: t.id, x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects, m: t.m }));

/** The server's own model: every tile's geometry, a ring's tiles learned just before its event. */
function serverModel(whole: Field, initialTiles: number, rules: FieldRules, seedCommit: string): SpectatorModel {
  const model = new SpectatorModel({ gameId: "spectator-day", G: whole.G, fog: rules.fog, tilesTotal: initialTiles, rules, seedCommit });
  model.addTiles(geometryOf(whole).slice(0, initialTiles));
  return model;
}

function feed(model: SpectatorModel, whole: Field, event: PublicEvent): number[] {
  if (event.type === "grow") model.addTiles(geometryOf(whole).slice(event.first_tile, event.first_tile + event.tiles));
  return model.apply(event);
}

/**
 * Feeds `client` the events after its revision as the live feed sends them: batches of up to 5,
 * each with the geometry of the tiles they make visible, worked out by `server` (fed the same).
 */
function followLive(client: SpectatorModel, server: SpectatorModel, whole: Field, rest: PublicEvent[]): void {
  for (let i = 0; i < rest.length; i += 5) {
    const batch = rest.slice(i, i + 5);
    const newly = new Set<number>();
    for (const e of batch) for (const t of feed(server, whole, e)) newly.add(t);
    const tiles = [...newly].sort((a, b) => a - b).map((t) => server.tile(t) as TileGeometry);
    const result = applyLiveMessage(client, throughJson({ type: "events", events: batch, tiles: packTiles(tiles), log_head: server.head }));
    expect(result.resync).toBeUndefined();
  }
}

/** Everything the referee knows that a spectator may know, compared with the model. */
function expectSameState(model: SpectatorModel, ref: Referee, day: PlayedDay, opts: { frontiers?: boolean } = {}): void {
  expect(model.revision).toBe(ref.revision);
  expect(model.status).toBe(ref.status);
  expect(model.tilesTotal).toBe(ref.tilesTotal());
  expect(model.grown).toBe(ref.grown);
  const agentIds = model.agents.map((a) => a.id);
  for (let t = 0; t < ref.tilesTotal(); t++) {
    const s = ref.tileStatus(t);
    if (!s) throw new Error(`tile ${t}`);
    expect(["hidden", "revealed", "solved"][model.tileStatus[t]], `tile ${t} status`).toBe(s.status);
    expect(model.solver[t] >= 0 ? agentIds[model.solver[t]] : null, `tile ${t} solver`).toBe(s.agent);
    expect(model.revealer[t] >= 0 ? agentIds[model.revealer[t]] : null, `tile ${t} revealer`).toBe(s.revealed_by);
  }
  const known = ref.knownCells();
  const modelIds: number[] = [];
  let modelValues = "";
  for (let c = 0; c < model.known.length; c++) {
    if (model.known[c] === -1) continue;
    modelIds.push(c);
    modelValues += String(model.known[c]);
  }
  expect(modelIds).toEqual(known.ids);
  expect(modelValues).toBe(known.values);
  const expectedRejected = [...day.lastRejected].filter(([c]) => ref.cell(c)?.value === -1).sort((a, b) => a[0] - b[0]);
  const modelRejected: Array<[number, string]> = [];
  for (let c = 0; c < model.rejected.length; c++) if (model.rejected[c]) modelRejected.push([c, model.rejected[c] === 1 ? "wrong" : "guess"]);
  expect(modelRejected).toEqual(expectedRejected);

  const refAgents = ref.agents();
  expect(model.agents.map((a) => ({ id: a.id, name: a.name, model: a.model, harness: a.harness, group: model.groupId(a.id), seed_tile: a.seed, reward: a.reward, solved: a.solved, health: model.machines[a.machine].health.state }))).toEqual(
    refAgents.map((a) => ({ id: a.id, name: a.name, model: a.model, harness: a.harness, group: a.group, seed_tile: a.seed_tile, reward: a.reward, solved: a.solved, health: a.health })),
  );
  expect({ reward: model.totalReward, solved: model.solvedCount }).toEqual(ref.totals());
  if (opts.frontiers !== false) for (const a of agentIds) expect(model.frontierOf(a), `frontier of ${a}`).toEqual(ref.frontier(a));

  // Each machine's counters are the sums of its sessions' own.
  for (const m of model.machines) {
    const mine = model.agents.filter((a) => a.machine === m.index);
    for (const k of ["reward", "solved", "accepted", "forced", "guesses", "wrong", "rejected_guesses", "retractions"] as const) {
      expect(mine.reduce((n, a) => n + a[k], 0), `${m.id} ${k}`).toBe(m[k]);
    }
  }

  // The leaderboard's counters are the referee's own machine rows.
  const rows = new Map(leaderboard(model).map((r) => [r.machine, r]));
  const machines = ref.machines();
  expect(rows.size).toBe(machines.length);
  for (const m of machines) {
    const row = rows.get(String(m.machine));
    if (!row) throw new Error(`no row for ${String(m.machine)}`);
    const h = m.health as Record<string, unknown>;
    expect({
      sessions: row.sessions,
      agents: row.agents,
      models: row.models,
      harnesses: row.harnesses,
      reward: row.reward,
      solved: row.tiles,
      accepted: row.cells,
      forced: row.forced,
      guesses: row.guesses,
      wrong: row.wrong,
      retractions: row.retractions,
      health: { ...row.health, died_at: row.died_at, died_rev: row.died_rev },
    }).toEqual({
      sessions: m.sessions,
      agents: m.agents,
      models: m.models,
      harnesses: m.harnesses,
      reward: m.reward,
      solved: m.solved,
      accepted: m.accepted,
      forced: m.forced,
      guesses: m.guesses,
      wrong: m.wrong,
      retractions: m.retractions,
      health: { state: h.state, rate_bp: h.rate_bp, committed: h.committed, wrong: h.wrong, window: h.window, died_at: h.died_at, died_rev: h.died_rev },
    });
  }
}

/** Tiles some group has reached (SPEC §5), from the referee: the union of every agent's fog view. */
function reachedByReferee(ref: Referee): number[] {
  const out = new Set<number>();
  for (const a of ref.agents()) {
    const o = ref.observe({ agent: String(a.id), full: true });
    if (!o.ok) throw new Error(o.error.message);
    for (const t of o.observation.tiles as Array<{ id: number }>) out.add(t.id);
  }
  for (let t = 0; t < ref.tilesTotal(); t++) if (ref.tileStatus(t)?.status !== "hidden") out.add(t);
  return [...out].sort((a, b) => a - b);
}

const throughJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

interface Scenario {
  name: string;
  field: () => Promise<Field> | Field;
  rules: FieldRules;
  rings?: (f: Field) => number[];
  steps: number;
  seed: number;
}

const scenarios: Scenario[] = [
  { name: "engine scatter G=60, fog, depth 1", field: () => generateField({ kind: "scatter", seed: "spectator-scatter", G: 60 }), rules: { guess: "accept", depth: 1, fog: true }, steps: 700, seed: 11 },
  { name: "hand-made scatter, no fog, guesses refused", field: () => scatterField(), rules: { guess: "reject", depth: 0, fog: false }, steps: 300, seed: 5 },
  { name: "a chain growing two rings, fog", field: () => chainField(6, 9), rules: { guess: "accept", depth: 0, fog: true }, rings: () => [3, 6, 9], steps: 400, seed: 7 },
  { name: "a chain growing two rings, no fog", field: () => chainField(6, 9), rules: { guess: "accept", depth: 2, fog: false }, rings: () => [4, 7, 9], steps: 400, seed: 3 },
];

describe("spectator reducer = referee", () => {
  for (const sc of scenarios) {
    describe(sc.name, () => {
      let whole: Field;
      let rings: number[];
      let day: PlayedDay;
      /** Public snapshots of the server's model and the referee's reach at a few revisions. */
      const midSnapshots = new Map<number, { full: SpectatorSnapshot; public: SpectatorSnapshot }>();
      const reachAt = new Map<number, number[]>();

      beforeAll(async () => {
        whole = await sc.field();
        rings = sc.rings?.(whole) ?? [whole.tiles.length];
        const server = serverModel(whole, rings[0], sc.rules, "0".repeat(63) + "1");
        day = playDay(whole, { rules: sc.rules, rings, steps: sc.steps, seed: sc.seed, close: true }, (ref, event) => {
          feed(server, whole, event);
          if (event.rev % 17 === 0) {
            midSnapshots.set(event.rev, { full: throughJson(server.snapshot("full")), public: throughJson(server.snapshot("public")) });
            reachAt.set(event.rev, reachedByReferee(ref));
          }
        });
      }, 120_000);

      it("plays a real day: joins, reveals, solved tiles, meetings, wrong cells, a death, retractions and the close", () => {
        const types = new Set(day.events.map((e) => e.type));
        for (const t of ["join", "reveal", "commit", "retract", "close"]) expect(types, t).toContain(t);
        if (rings.length > 1) expect(types).toContain("grow");
        if (sc.rules.guess === "accept") expect(day.referee.totals().solved).toBeGreaterThan(3);
        else expect(day.events.some((e) => e.type === "commit" && e.rejected.some((r) => r.reason === "guess"))).toBe(true);
        expect(day.events.some((e) => e.type === "commit" && e.rejected.some((r) => r.reason === "wrong"))).toBe(true);
        expect(day.events.map((e) => e.rev)).toEqual(day.events.map((_, i) => i + 1));
        if (sc.steps >= 400) expect(day.events.some((e) => e.type === "commit" && e.died)).toBe(true);
        expect(midSnapshots.size).toBeGreaterThanOrEqual(2);
        expect(day.events.some((e) => (e.type === "commit" || e.type === "reveal") && e.meets.length > 0)).toBe(true);
      });

      it("from revision 0, the events give the referee's final state", () => {
        const model = serverModel(whole, rings[0], sc.rules, day.seedCommit);
        for (const e of day.events) feed(model, whole, e);
        expectSameState(model, day.referee, day);
        expect(model.head).toEqual({ hash: day.events.at(-1)?.hash, rev: day.referee.revision });
      });

      it("from every mid-game snapshot (through JSON), the rest of the events give the same final state", () => {
        for (const [rev, snaps] of midSnapshots) {
          const model = SpectatorModel.fromSnapshot(throughJson(snaps.full));
          expect(model.revision).toBe(rev);
          // Re-serialising a restored model gives the very same snapshot.
          expect(throughJson(model.snapshot("full"))).toEqual(snaps.full);
          for (const e of day.events.slice(rev)) feed(model, whole, e);
          expectSameState(model, day.referee, day);
        }
      });

      it("a live client (public snapshot, then batches with the geometry they make visible) sees exactly what the server shows", () => {
        for (const [rev, snaps] of midSnapshots) {
          const server = SpectatorModel.fromSnapshot(throughJson(snaps.full));
          const client = SpectatorModel.fromSnapshot(throughJson(snaps.public));
          expect(client.visibleTiles()).toEqual(server.visibleTiles());
          if (sc.rules.fog) expect(client.visibleTiles()).toEqual(reachAt.get(rev));
          else expect(client.visibleTiles().length).toBe(client.tilesTotal);
          followLive(client, server, whole, day.events.slice(rev));
          expect(throughJson(client.snapshot("public"))).toEqual(throughJson(server.snapshot("public")));
          expectSameState(client, day.referee, day, { frontiers: !sc.rules.fog });
          if (sc.rules.fog) expect(client.visibleTiles()).toEqual(reachedByReferee(day.referee));
        }
      });

      it("a clone is independent of its model: what either learns later, events or geometry, never reaches the other", () => {
        for (const [rev, snaps] of midSnapshots) {
          const client = SpectatorModel.fromSnapshot(throughJson(snaps.public));
          const copy = client.clone();
          expect(throughJson(copy.snapshot("full"))).toEqual(throughJson(client.snapshot("full")));
          // The client runs on to the end, learning under fog the geometry of tiles as they are reached.
          followLive(client, SpectatorModel.fromSnapshot(throughJson(snaps.full)), whole, day.events.slice(rev));
          expect(copy.revision).toBe(rev);
          expect(throughJson(copy.snapshot("full"))).toEqual(throughJson(SpectatorModel.fromSnapshot(throughJson(snaps.public)).snapshot("full")));
          for (let c = 0; c < whole.G * whole.G; c++) for (const t of copy.tilesAt(c)) expect(copy.tile(t), `cell ${c}: tile ${t}`).toBeDefined();
          // Fed the same, the copy ends where the client did, and the client is untouched by it.
          const clientEnd = throughJson(client.snapshot("full"));
          followLive(copy, SpectatorModel.fromSnapshot(throughJson(snaps.full)), whole, day.events.slice(rev));
          expect(throughJson(copy.snapshot("full"))).toEqual(clientEnd);
          expect(throughJson(client.snapshot("full"))).toEqual(clientEnd);
        }
      });

      it("a public snapshot under fog carries no geometry of unreached tiles", () => {
        if (!sc.rules.fog) return;
        for (const [rev, snaps] of midSnapshots) {
          const listed = SpectatorModel.fromSnapshot(snaps.public).visibleTiles();
          expect(listed).toEqual(reachAt.get(rev));
          expect(snaps.public.tiles.status.length).toBe(listed.length);
          expect(snaps.public.tiles.status.length).toBeLessThanOrEqual(snaps.full.tiles.status.length);
        }
      });

      it("a replay of the archive's events reaches the same state at every checkpoint and scrubs back", () => {
        const archive = { game_id: "spectator-day", G: whole.G, params: { rules: sc.rules }, seed_commit: day.seedCommit, tiles: geometryOf(whole), events: day.events };
        const replay = new ArchiveReplay(archive, { every: 25 });
        const end = replay.seek(day.events.length);
        expectSameState(end, day.referee, day);
        for (const [rev, snaps] of midSnapshots) {
          const at = replay.seek(rev);
          expect(throughJson(at.snapshot("full"))).toEqual(snaps.full);
        }
        expect(modelAtStart(archive).revision).toBe(0);
        expect(modelAtStart(archive).tilesTotal).toBe(rings[0]);
      });
    });
  }
});

describe("live messages", () => {
  it("a gap asks for a resync and leaves the model where it was; repeated events are skipped", () => {
    const field = chainField(6, 4);
    const day = playDay(field, { rules: { guess: "accept", depth: 0, fog: false }, steps: 60, seed: 2 });
    const model = serverModel(field, field.tiles.length, { guess: "accept", depth: 0, fog: false }, day.seedCommit);
    const head = { hash: "h", rev: day.events.length };
    expect(applyLiveMessage(model, { type: "events", events: day.events.slice(0, 10), log_head: head }).applied).toBe(10);
    expect(applyLiveMessage(model, { type: "events", events: day.events.slice(5, 12), log_head: head }).applied).toBe(2);
    const gap = applyLiveMessage(model, { type: "events", events: day.events.slice(14, 16), log_head: head });
    expect(gap.resync).toMatch(/missing events 13\.\.14/);
    expect(model.revision).toBe(12);
    expect(applyLiveMessage(model, { type: "resync", reason: "too far behind", log_head: head }).resync).toBe("too far behind");
  });

  it("an event naming what does not exist is refused and changes nothing", () => {
    const field = chainField(6, 4);
    const day = playDay(field, { rules: { guess: "accept", depth: 0, fog: false }, steps: 60, seed: 2 });
    const model = serverModel(field, field.tiles.length, { guess: "accept", depth: 0, fog: false }, day.seedCommit);
    model.applyAll(day.events.slice(0, 20));
    const before = JSON.stringify(model.snapshot("full"));
    const next = day.events[20];
    const bad: PublicEvent[] = [
      { ...next, agent: "m-nobody/1" } as PublicEvent,
      { rev: 21, type: "commit", at: 1, agent: day.events[0].type === "join" ? day.events[0].agent : "", intent: "", accepted: [{ id: 10, v: 1, class: "guess" }, { id: field.G * field.G, v: 1, class: "guess" }], rejected: [], ignored: [], unevaluated: [], solved: [], meets: [], reward: 0 },
      { rev: 21, type: "reveal", at: 1, agent: day.events[0].type === "join" ? day.events[0].agent : "", intent: "", tile: 99, givens: [], solved: [], meets: [], reward: 0 },
      { rev: 21, type: "grow", at: 1, ring: 1, first_tile: 2, tiles: 3 },
      { rev: 21, type: "commit", at: 1 } as unknown as PublicEvent,
    ];
    for (const e of bad) {
      expect(() => model.apply(e)).toThrow(SpectatorError);
      expect(JSON.stringify(model.snapshot("full"))).toBe(before);
    }
    model.apply(next);
    expect(model.revision).toBe(21);
  });

  it("a snapshot whose groups name an agent that never joined is refused", () => {
    const field = chainField(6, 4);
    const day = playDay(field, { rules: { guess: "accept", depth: 0, fog: false }, steps: 60, seed: 2 });
    const model = serverModel(field, field.tiles.length, { guess: "accept", depth: 0, fog: false }, day.seedCommit);
    model.applyAll(day.events.slice(0, 20));
    const snap = throughJson(model.snapshot("full"));
    expect(SpectatorModel.fromSnapshot(throughJson(snap)).groups()).toEqual(model.groups());
    for (const member of [snap.agents.length, -1, 0.5]) {
      const bad = throughJson(snap);
      bad.groups[0] = [...bad.groups[0], member];
      expect(() => SpectatorModel.fromSnapshot(bad)).toThrow(/does not exist/);
    }
  });

  it("hands its arrays out as they are, read-only, without a copy per read", () => {
    const field = chainField(6, 4);
    const day = playDay(field, { rules: { guess: "accept", depth: 0, fog: false }, steps: 60, seed: 2 });
    const model = serverModel(field, field.tiles.length, { guess: "accept", depth: 0, fog: false }, day.seedCommit);
    const known = model.known;
    model.applyAll(day.events.slice(0, 20));
    expect(model.known).toBe(known);
    expect([...known].some((v) => v >= 0)).toBe(true);
    expect(model.tileStatus).toBe(model.tileStatus);
    // Type-checked, never run: a user of the model cannot write its state.
    const writes = (): void => {
      // @ts-expect-error the cells are the reducer's to write
      model.known[0] = 1;
      // @ts-expect-error no mutating method either
      model.tileStatus.fill(0);
      // @ts-expect-error nor the revision
      model.revision = 0;
    };
    expect(typeof writes).toBe("function");
  });

  it("cells round-trip through the packed form", () => {
    const values = new Int8Array(1000).fill(-1);
    for (let c = 0; c < 1000; c += 3) values[c] = (c >> 2) & 1;
    for (let c = 500; c < 700; c++) values[c] = 1;
    values[999] = 0;
    const packed = throughJson(packCells(values));
    expect(packed.runs[0]).toBe(0);
    expect(unpackCells(packed, 1000)).toEqual(values);
    expect(unpackCells(packCells(new Int8Array(64).fill(-1)), 64)).toEqual(new Int8Array(64).fill(-1));
    expect(() => unpackCells({ runs: [0, 5000], values: "" }, 1000)).toThrow(/past the end/);
  });
});
