import { env as workerEnv, exports } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { generateField, type FieldParams } from "../../src/engine";
import { hexToBytes, seedCommit, sha256Hex, tileEncoding, tileHash } from "../../src/engine/commitments";
import type { Field } from "../../src/engine/types";
import type { Env } from "../../src/env";
import { runDailyCron, openDay, closeDay } from "../../src/daily/daily-lifecycle";
import { addDays, utcDate } from "../../src/daily/archive/day-dates";
import type { Archive } from "../../src/daily/archive/format";
import { errorOf, fieldApi, joinArgs, machineId, ok, ScriptedPlayers, waitPlaying } from "./game-helpers";

/**
 * The daily lifecycle inside workerd with R2 (SPEC §9): the cron opens today and closes earlier
 * days, at least once and in effect once; the close is one `close` event at the end of the log,
 * racing writes are either before it or refused `closed`; the archive is written once to R2,
 * gzip, and holds the released secrets, every tile and the whole chained log.
 */

const env = workerEnv as unknown as Env;
const SMALL = { G: 200, chunks: 2, chunk_g: 40, grow: { every_minutes: 600 } };

async function gunzipText(bytes: ArrayBuffer): Promise<string> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

async function playingDay(date: string): Promise<{ gameId: string; field: Field; seed: string; stub: ReturnType<typeof fieldApi>; raw: ReturnType<typeof env.FIELDS.getByName> }> {
  const opened = ok(await openDay(env, date, SMALL));
  const raw = env.FIELDS.getByName(opened.game_id);
  await waitPlaying(raw);
  const seed = await runInDurableObject(raw, (_o, state) => JSON.parse(state.storage.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'seed'").one().value) as string);
  const field = await generateField({ kind: "field", chunks: 2, chunk_g: 40, grow: true, G: 200, seed } as FieldParams);
  return { gameId: opened.game_id, field, seed, stub: fieldApi(raw), raw };
}

async function closeEvents(gameId: string): Promise<Array<Record<string, unknown>>> {
  const events = ok(await fieldApi(env.FIELDS.getByName(gameId)).events(0)).events;
  return events.filter((e) => e.type === "close");
}

describe("the daily lifecycle", () => {
  it("the cron run twice opens today once and closes the previous day once, with one archive", { timeout: 180_000 }, async () => {
    const now = Date.parse("2031-05-17T00:05:00Z");
    const today = utcDate(now);
    const yesterday = addDays(today, -1);
    const day = await playingDay(yesterday);
    expect(day.seed).toMatch(/^[0-9a-f]{64}$/);
    const players = new ScriptedPlayers(day.stub, day.field);
    await players.join();
    await players.join();
    await players.pass(4);

    const first = await runDailyCron(env, now, SMALL);
    expect(first.errors).toEqual([]);
    expect(first.opened).toEqual({ game_id: `day-${today}`, created: true });
    expect(first.closed).toEqual([`day-${yesterday}`]);
    const todayManifest = ok(await fieldApi(env.FIELDS.getByName(`day-${today}`)).manifest());
    expect(todayManifest).toMatchObject({ day: today, closes_at: Date.parse(`${addDays(today, 1)}T00:00:00Z`), status: "generating" });
    const archived = await env.ARCHIVES.get(`day-${yesterday}.json.gz`);
    const bytes = await archived!.arrayBuffer();

    const second = await runDailyCron(env, now, SMALL);
    expect(second.errors).toEqual([]);
    expect(second.opened).toEqual({ game_id: `day-${today}`, created: false });
    // The same day, unchanged (the seed commitment of the first opening stays).
    expect(ok(await fieldApi(env.FIELDS.getByName(`day-${today}`)).manifest()).seed_commit).toBe(todayManifest.seed_commit);
    const games = (await (await exports.default.fetch("http://mosaic.test/api/games")).json()) as { games: Array<{ game_id: string }> };
    expect(games.games.filter((g) => g.game_id === `day-${today}`)).toHaveLength(1);
    // Yesterday: exactly one close, the last event; the archive byte for byte the same.
    const events = ok(await day.stub.events(0)).events;
    expect(await closeEvents(day.gameId)).toHaveLength(1);
    expect(events[events.length - 1].type).toBe("close");
    const again = await (await env.ARCHIVES.get(`day-${yesterday}.json.gz`))!.arrayBuffer();
    expect(new Uint8Array(again)).toEqual(new Uint8Array(bytes));
    expect(ok(await closeDay(env, yesterday)).archive.bytes).toBe(bytes.byteLength);
    expect(await closeEvents(day.gameId)).toHaveLength(1);

    // The archive: mosaic-archive-v1 with the released secrets matching the commitments published before.
    const archive = JSON.parse(await gunzipText(bytes)) as Archive;
    const manifest = ok(await day.stub.manifest());
    expect(archive).toMatchObject({ format: "mosaic-archive-v1", game_id: day.gameId, day: yesterday, G: 200, rings: 0, day_seed: day.seed });
    expect(archive.seed_commit).toBe(await seedCommit(day.seed));
    expect(archive.hash_key_commit).toBe(await sha256Hex(hexToBytes(archive.day_key)));
    expect(archive.seed_commit).toBe(manifest.seed_commit);
    expect(archive.hash_key_commit).toBe(manifest.hash_key_commit);
    expect(archive.tiles).toHaveLength(day.field.tiles.length);
    const key = hexToBytes(archive.day_key);
    for (const t of archive.tiles.slice(0, 40)) expect(t.hash).toBe(await tileHash(key, tileEncoding(day.gameId, day.field.tiles[t.id], day.field.solution, 200)));
    expect(archive.events).toEqual(events);
    expect(archive.log_head).toEqual(manifest.log_head);
    expect(archive.scores.map((s) => s.machine)).toEqual([machineId(1), machineId(2)]);
    // Released with the close, and only then.
    expect(manifest).toMatchObject({ status: "closed", day_seed: day.seed, day_key: archive.day_key, archive: { url: `/api/archives/day-${yesterday}.json.gz`, bytes: bytes.byteLength } });
    expect(todayManifest).not.toHaveProperty("day_seed");
    expect(todayManifest).not.toHaveProperty("day_key");
  });

  it("a close racing writes: every accepted write is logged before the close, every later one refused closed", { timeout: 120_000 }, async () => {
    const date = "2031-06-01";
    const day = await playingDay(date);
    // Six machines, each on its own seed tile: their commits never conflict with one another.
    const machines = Array.from({ length: 6 }, (_, i) => machineId(0x70 + i));
    const seats = [];
    for (const m of machines) seats.push(ok(await day.stub.join(joinArgs(m))));
    const agents = seats.map((s) => String(s.agent));
    const seeds = seats.map((s) => Number(s.seed_tile));
    for (const [i, agent] of agents.entries()) {
      const head = ok(await day.stub.manifest()).log_head.rev;
      ok(await day.stub.write({ input: { type: "reveal", agent, expectedRevision: head, tile: seeds[i], intent: "open" }, machineId: machines[i] }));
    }
    const rev = ok(await day.stub.manifest()).log_head.rev;
    const commits = agents.flatMap((agent, i) => {
      const tile = day.field.tiles[seeds[i]];
      const open = tile.cellIds.filter((c) => !tile.givens.includes(c));
      return [0, 1].map((k) => ({ agent, machine: machines[i], cell: open[k], intent: `w${i}.${k}` }));
    });
    const send = (w: (typeof commits)[number]) =>
      day.stub.write({ input: { type: "commit", agent: w.agent, expectedRevision: rev, cells: [[w.cell, day.field.solution[w.cell] as 0 | 1]], intent: w.intent }, machineId: w.machine });
    // One commit per machine goes out before the close, one after it, none waiting for answers.
    const before = commits.filter((_, k) => k % 2 === 0).map(send);
    const closing = day.stub.closeDay();
    const after = commits.filter((_, k) => k % 2 === 1).map(send);
    const answers = await Promise.all([...before, ...after]);
    const sent = [...commits.filter((_, k) => k % 2 === 0), ...commits.filter((_, k) => k % 2 === 1)];
    const closed = ok(await closing);
    const events = ok(await day.stub.events(0)).events;
    const closeRev = (events.find((e) => e.type === "close") as { rev: number }).rev;
    expect(closeRev).toBe(events.length);
    expect(closed.revision).toBe(closeRev);
    let accepted = 0;
    let refusals = 0;
    for (const [k, a] of answers.entries()) {
      const logged = events.filter((e) => e.intent === sent[k].intent);
      if (a.ok) {
        accepted++;
        expect(Number(a.answer.revision)).toBeLessThan(closeRev);
        expect(logged.map((e) => e.rev)).toEqual([a.answer.revision]);
      } else {
        refusals++;
        expect(a.error.code).toBe("closed");
        expect(logged).toEqual([]);
      }
    }
    expect(accepted).toBeGreaterThan(0);
    expect(refusals).toBeGreaterThan(0);
    // After the close, every write is refused with a message naming the day and its archive.
    const refused = errorOf(await day.stub.write({ input: { type: "reveal", agent: agents[0], expectedRevision: closeRev, tile: seeds[1], intent: "after" }, machineId: machines[0] }));
    expect(refused.code).toBe("closed");
    expect(refused.message).toContain(`day ${date} is closed`);
    expect(refused.message).toContain(`/api/archives/day-${date}.json.gz`);
    expect(errorOf(await day.stub.join(joinArgs(machineId(9)))).code).toBe("closed");
    expect(ok(await day.stub.events(0)).events).toEqual(events);
  });

  it("a day closes itself when its alarm fires at the end of the day", { timeout: 120_000 }, async () => {
    const date = "2031-07-02";
    const day = await playingDay(date);
    await new ScriptedPlayers(day.stub, day.field).join();
    // The day opened for a past date has no automatic close; give it one in the past and fire the alarm.
    await runInDurableObject(day.raw, (_o, state) => {
      state.storage.sql.exec("INSERT INTO meta (key, value) VALUES ('closes_at', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", JSON.stringify(Date.now() - 1));
    });
    await runDurableObjectAlarm(day.raw);
    await runInDurableObject(day.raw, (instance) => (instance as unknown as { alarm(): Promise<void> }).alarm());
    expect(ok(await day.stub.manifest()).status).toBe("closed");
    expect(await env.ARCHIVES.head(`day-${date}.json.gz`)).not.toBeNull();
    expect(await closeEvents(day.gameId)).toHaveLength(1);
  });

  it("closing a day that was never opened answers missing and creates nothing", async () => {
    expect(errorOf(await closeDay(env, "2031-08-09")).code).toBe("missing");
    expect(errorOf(await openDay(env, "2031-02-30")).code).toBe("bad_input");
    expect(errorOf(await openDay(env, "2031-08-09", { chunks: 12, chunk_g: 120, G: 300 })).code).toBe("bad_input");
    // The dev routes do not exist unless MOSAIC_DEV=1.
    const res = await exports.default.fetch("http://mosaic.test/api/dev/day/open", { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
  });
});
