import { env } from "cloudflare:workers";
import { abortAllDurableObjects, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { generateField, generateRing, type FieldParams } from "../../src/engine";
import type { FieldContext } from "../../src/game/field-context";
import type { Field } from "../../src/engine/types";
import { chainProblems, type LoggedEvent } from "../support/event-log";
import { createPlaying, fieldApi, joinArgs, machineId, ok, uniqueId, waitPlaying, type RawStub, type Stub } from "./game-helpers";

/** Stubs of an aborted object are broken for good; the field is reached again through a new one. */
function freshStub(gameId: string): { raw: RawStub; stub: Stub } {
  const raw = env.FIELDS.getByName(gameId);
  return { raw, stub: fieldApi(raw) };
}

/**
 * Faults inside workerd (SPEC §4.9, §5, §12): a field object evicted or aborted while writes are
 * in flight, and a growth alarm that runs twice, fails half-way or dies with its object. Each write
 * is applied wholly or not at all, every answered write is in the log at its revision, the log's
 * chain is intact, and a ring is added exactly once.
 */

type Cell = [number, 0 | 1];

async function log(stub: Stub): Promise<LoggedEvent[]> {
  const events: LoggedEvent[] = [];
  for (;;) {
    const page = ok(await stub.events(events.length)).events as LoggedEvent[];
    if (page.length === 0) return events;
    events.push(...page);
  }
}

async function expectChain(stub: Stub): Promise<LoggedEvent[]> {
  const events = await log(stub);
  const manifest = ok(await stub.manifest());
  expect(await chainProblems({ ...manifest, log_head: manifest.log_head }, events)).toEqual([]);
  return events;
}

/** Cells a tile has besides its givens, in the tile's order. */
function openCells(field: Field, tile: number): number[] {
  const givens = new Set(field.tiles[tile].givens);
  return field.tiles[tile].cellIds.filter((c) => !givens.has(c));
}

interface SentWrite {
  intent: string;
  agent: string;
  cells: Cell[];
  settled: PromiseSettledResult<Awaited<ReturnType<Stub["write"]>>>;
}

/**
 * Checks each sent commit against the log: answered → logged once at its revision with the same
 * verdicts; refused → absent; no answer (the object went away under it) → absent, or logged once
 * with a verdict for every one of its cells (never half a batch).
 */
function commitProblems(sent: SentWrite[], events: LoggedEvent[]): string[] {
  const problems: string[] = [];
  for (const w of sent) {
    const logged = events.filter((e) => e.intent === w.intent);
    if (logged.length > 1) problems.push(`${w.intent} logged ${logged.length} times`);
    const e = logged[0];
    if (w.settled.status === "fulfilled" && w.settled.value.ok) {
      const a = w.settled.value.answer;
      if (!e) problems.push(`${w.intent} answered at revision ${String(a.revision)} but not logged`);
      else if (e.rev !== a.revision || JSON.stringify(e.accepted) !== JSON.stringify(a.accepted)) problems.push(`${w.intent} answered ${String(a.revision)} but logged ${e.rev} with other verdicts`);
    } else if (w.settled.status === "fulfilled") {
      if (e) problems.push(`${w.intent} refused but logged at ${e.rev}`);
    } else if (e) {
      const judged = ["accepted", "rejected", "ignored", "unevaluated"].reduce((n, k) => n + ((e[k] as unknown[] | undefined)?.length ?? 0), 0);
      if (judged !== w.cells.length) problems.push(`${w.intent} applied without an answer, but only ${judged} of ${w.cells.length} cells judged`);
    }
  }
  return problems;
}

describe("faults: a field object evicted or aborted mid-write", () => {
  it("applies each of 16 writers' commits wholly or not at all and keeps every answered one", { timeout: 240_000 }, async () => {
    const created = await createPlaying({ kind: "scatter", G: 100 }, 100, { seed: "faults-evict-mid-write" });
    const { field, gameId } = created;
    let { stub, raw } = created;
    const machines = Array.from({ length: 16 }, (_, i) => machineId(0x500 + i));
    const seats = await Promise.all(machines.map(async (m) => ok(await stub.join(joinArgs(m)))));
    const tiles = seats.map((s) => Number((s.seed_tile as { id?: number }).id ?? s.seed_tile));
    const agents = seats.map((s) => String(s.agent));
    for (const [i, agent] of agents.entries()) {
      ok(await stub.write({ input: { type: "reveal", agent, expectedRevision: 0, tile: tiles[i], intent: `open ${i}` }, machineId: machines[i] }));
    }
    // Each writer commits its seed tile's open cells, a few per call, round after round; after
    // every round's calls are sent, the object is evicted (gracefully) or aborted (at once).
    const next = agents.map(() => 0);
    const sent: SentWrite[] = [];
    let unanswered = 0;
    for (let round = 0; round < 12; round++) {
      const revision = ok(await stub.manifest()).log_head.rev;
      const batch = agents.map((agent, i) => {
        const cells = openCells(field, tiles[i]).slice(next[i], next[i] + 6).map((c) => [c, field.solution[c] as 0 | 1] as Cell);
        next[i] += 6;
        const intent = `w${i} r${round}`;
        const promise = stub.write({ input: { type: "commit", agent, expectedRevision: revision, cells, intent }, machineId: machines[i] });
        promise.catch(() => {});
        return { intent, agent, cells, promise };
      }).filter((w) => w.cells.length > 0);
      // Vary the moment of the fault: at once, after a few turns, or after the first answer.
      if (round % 3 === 1) await Promise.resolve();
      if (round % 3 === 2) await Promise.race(batch.map((w) => w.promise));
      const fault = (round % 2 === 0 ? abortAllDurableObjects() : evictDurableObject(raw)).catch(() => {});
      const settled = await Promise.allSettled(batch.map((w) => w.promise));
      await fault;
      ({ stub, raw } = freshStub(gameId));
      for (const [k, w] of batch.entries()) {
        sent.push({ intent: w.intent, agent: w.agent, cells: w.cells, settled: settled[k] });
        if (settled[k].status === "rejected") unanswered++;
      }
    }
    const events = await expectChain(stub);
    expect(commitProblems(sent, events)).toEqual([]);
    // The aborts struck writes in flight, and most writes were answered.
    expect(unanswered).toBeGreaterThan(0);
    expect(sent.filter((w) => w.settled.status === "fulfilled" && w.settled.value.ok).length).toBeGreaterThan(sent.length / 2);
    // What the restored object knows is what the log says: every logged cell is known with its value.
    const loggedCells = events.flatMap((e) => ((e.accepted as Array<{ id: number; v: number }> | undefined) ?? []).map((c) => [c.id, c.v]));
    expect(new Set(loggedCells.map(([id]) => id)).size).toBe(loggedCells.length);
    for (const [i, agent] of agents.entries()) {
      const o = ok(await stub.observe({ agent, callerMachineId: machines[i] })).observation as { known: { gaps: number[]; values: string } };
      const known = new Map<number, number>();
      o.known.gaps.reduce((id, gap, k) => (known.set(id + gap, Number(o.known.values[k])), id + gap), 0);
      const mine = new Set(field.tiles[tiles[i]].cellIds);
      for (const [id, v] of loggedCells) if (mine.has(id)) expect(known.get(id), `cell ${id}`).toBe(v);
    }
    // And play goes on from the head of the log.
    const head = ok(await stub.manifest()).log_head.rev;
    expect(head).toBe(events.length);
    const more = openCells(field, tiles[0]).slice(next[0], next[0] + 2).map((c) => [c, field.solution[c] as 0 | 1] as Cell);
    if (more.length > 0) expect(ok(await stub.write({ input: { type: "commit", agent: agents[0], expectedRevision: head, cells: more, intent: "after" }, machineId: machines[0] })).revision).toBe(head + 1);
  });
});

// ---- growth under alarm faults ---------------------------------------------------------------

// The smallest growing field the ranges allow (SPEC §3): its first ring is 12 chunks of 40.
const GROW = { kind: "field" as const, chunks: 2, chunk_g: 40, grow: true, G: 200 };
const FOG = { guess: "accept" as const, depth: 0 as const, fog: true };
// Every growth test grows ring 1 of the same field in its own object, so the oracle (the engine's
// field and ring, generated here independently of the object) is computed once for the file.
const GROW_SEED = "faults-grow";
let oracle: Promise<{ field: Field; ringTiles: number }> | null = null;
function growthOracle(): Promise<{ field: Field; ringTiles: number }> {
  oracle ??= (async () => {
    const params = { ...GROW, seed: GROW_SEED } as FieldParams;
    const field = await generateField(params);
    const ring = await generateRing(GROW_SEED, params, 1, field);
    expect(ring.tiles.length).toBeGreaterThan(0);
    return { field, ringTiles: ring.tiles.length };
  })();
  return oracle;
}

async function header(stub: Stub) {
  return ok(await stub.observe({ rect: [0, 0, 1, 1] })).observation as { grown: number; tiles_total: number; revision: number };
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A growing field whose first ring is due (the timer has passed) and whose alarm has not run yet. */
async function dueField(label: string): Promise<{ stub: Stub; raw: RawStub; gameId: string }> {
  const gameId = uniqueId(`faults-grow-${label}`);
  const raw = env.FIELDS.getByName(gameId);
  const stub = fieldApi(raw);
  ok(await stub.create({ gameId, params: GROW, rules: FOG, G: GROW.G, seed: GROW_SEED, grow: { every_minutes: 60 } }));
  await waitPlaying(raw);
  ok(await stub.join(joinArgs(machineId(0x900)))); // seated: the field does not expire
  await runInDurableObject(raw, (_i, state) => {
    state.storage.sql.exec("UPDATE meta SET value = ? WHERE key = 'next_grow_at'", JSON.stringify(Date.now() - 1));
  });
  return { stub, raw, gameId };
}

/** Runs the object's alarm handler directly (as an alarm retry, or an overlapping invocation, would). */
function runAlarmHandler(raw: RawStub): Promise<void> {
  return runInDurableObject(raw, (instance) => (instance as unknown as { alarm(): Promise<void> }).alarm());
}

/**
 * Waits until the object is generating a ring (its growth promise is in flight), so a fault
 * strikes mid-generation however fast or loaded the machine is.
 */
async function untilGrowing(raw: RawStub): Promise<void> {
  const growing = () => runInDurableObject(raw, (instance) => (instance as unknown as { context: FieldContext }).context.growing !== null);
  await until(growing, "the ring's generation to start");
}

/** Exactly one ring: one grow event for ring 1, the engine's tile count, and the same after eviction. */
async function expectOneRing(stub: Stub, raw: RawStub): Promise<void> {
  const { field, ringTiles } = await growthOracle();
  const events = await expectChain(stub);
  const grows = events.filter((e) => e.type === "grow");
  expect(grows.map((e) => e.ring)).toEqual([1]);
  expect(grows[0]).toMatchObject({ first_tile: field.tiles.length, tiles: ringTiles });
  const h = await header(stub);
  expect(h).toMatchObject({ grown: 1, tiles_total: field.tiles.length + ringTiles, revision: events.length });
  // What is stored is that ring, once: the object's tile table holds ids 0 … total-1, no more.
  const stored = await runInDurableObject(raw, (_i, state) => state.storage.sql.exec<{ n: number; top: number }>("SELECT COUNT(*) AS n, MAX(id) AS top FROM tiles").one());
  expect(stored).toEqual({ n: field.tiles.length + ringTiles, top: field.tiles.length + ringTiles - 1 });
  await evictDurableObject(raw).catch(() => {});
  expect(await header(stub)).toEqual(h);
  expect(await log(stub)).toEqual(events);
}

const grownOnce = (stub: Stub) => async () => (await header(stub)).grown >= 1 && (ok(await stub.manifest()).growth?.next_at ?? 0) > Date.now();

describe("faults: the growth alarm retried", () => {
  it("two alarm runs at once, then a third, grow one ring", { timeout: 240_000 }, async () => {
    const { stub, raw } = await dueField("twice");
    // The second run starts while the first is generating the ring (not merely queued behind it).
    const first = runAlarmHandler(raw);
    await untilGrowing(raw);
    const second = runAlarmHandler(raw);
    await Promise.all([first, second]);
    await runAlarmHandler(raw);
    await runDurableObjectAlarm(raw);
    await until(grownOnce(stub), "the ring");
    await expectOneRing(stub, raw);
  });

  it("an alarm whose ring cannot be stored changes nothing, and its retry grows one ring", { timeout: 240_000 }, async () => {
    const { stub, raw } = await dueField("storage");
    const before = { header: await header(stub), events: await log(stub) };
    // The storage refuses the ring's tiles (as a full disk would) while the alarm runs.
    await runInDurableObject(raw, (_i, state) => {
      state.storage.sql.exec("CREATE TRIGGER refuse_tiles BEFORE INSERT ON tiles BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    });
    await runAlarmHandler(raw).catch(() => {});
    expect(await header(stub)).toEqual(before.header);
    expect(await log(stub)).toEqual(before.events);
    await evictDurableObject(raw).catch(() => {});
    expect(await header(stub)).toEqual(before.header);
    // The fault clears; the retried alarm grows the ring once.
    await runInDurableObject(raw, (_i, state) => {
      state.storage.sql.exec("DROP TRIGGER refuse_tiles");
    });
    await runDurableObjectAlarm(raw);
    await until(grownOnce(stub), "the ring");
    await runDurableObjectAlarm(raw);
    await expectOneRing(stub, raw);
  });

  it("an object aborted while it generates a ring grows that ring once when the alarm is retried", { timeout: 240_000 }, async () => {
    const due = await dueField("abort");
    // Start the alarm and abort the object while the ring is being generated (it yields between steps).
    const running = runAlarmHandler(due.raw).then(() => "finished", () => "aborted");
    await untilGrowing(due.raw);
    await abortAllDurableObjects();
    expect(await running).toBe("aborted");
    const { stub, raw } = freshStub(due.gameId);
    expect((await header(stub)).grown).toBe(0);
    // The alarm is still scheduled (at-least-once): its retry grows the ring.
    await runDurableObjectAlarm(raw);
    await until(grownOnce(stub), "the ring");
    await runDurableObjectAlarm(raw);
    await expectOneRing(stub, raw);
  });
});
