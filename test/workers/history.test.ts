import { env as workerEnv, exports } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { generateField, type FieldParams } from "../../src/engine";
import type { Env } from "../../src/env";
import { closeDay, openDay } from "../../src/daily/daily-lifecycle";
import { readArchive } from "../../src/daily/audit/read-archive";
import { dayFromArchive } from "../../src/history/from-archive";
import { historyJson } from "../../src/history/downloads";
import { canonicalDay } from "../../src/history/types";
import { historyOf } from "../../src/history-store/history-stub";
import { fieldApi, ok, ScriptedPlayers, waitPlaying } from "./game-helpers";

/**
 * The history inside workerd with R2 (SPEC §11.1): each day recorded at its close from its
 * archive, once however often the day is closed, answered from the object's rows, and refilled
 * from R2 when the rows are lost.
 */

const env = workerEnv as unknown as Env;
const SMALL = { G: 200, chunks: 2, chunk_g: 40, grow: { every_minutes: 600 } };
const DATES = ["2032-03-01", "2032-03-02"];

async function playAndClose(date: string, models: string[]): Promise<void> {
  const opened = ok(await openDay(env, date, SMALL));
  const raw = env.FIELDS.getByName(opened.game_id);
  await waitPlaying(raw);
  const seed = await runInDurableObject(raw, (_o, state) => JSON.parse(state.storage.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'seed'").one().value) as string);
  const field = await generateField({ kind: "field", chunks: 2, chunk_g: 40, grow: true, G: 200, seed } as FieldParams);
  const players = new ScriptedPlayers(fieldApi(raw), field);
  for (const model of models) await players.join({ model });
  await players.pass(6);
  ok(await closeDay(env, date));
}

const get = (path: string, headers: Record<string, string> = {}): Promise<Response> => exports.default.fetch(`http://mosaic.test${path}`, { headers });

/** The history as the pure code computes it from the archives in R2. */
async function fromR2(): Promise<string> {
  const days = [];
  for (const date of DATES) {
    const obj = await env.ARCHIVES.get(`day-${date}.json.gz`);
    days.push(canonicalDay(dayFromArchive(await readArchive(new Uint8Array(await obj!.arrayBuffer())))));
  }
  return historyJson(days);
}

describe("the history store", () => {
  it("records each day at its close, once, and refills itself from R2 when its rows are lost", { timeout: 240_000 }, async () => {
    await playAndClose(DATES[0], ["model-a", "model-b"]);
    await playAndClose(DATES[1], ["model-b", "model-c", "model-a"]);
    const history = historyOf(env);
    expect(await history.recordedDays()).toEqual(DATES);

    const index = await get("/api/history");
    expect(index.status).toBe(200);
    const doc = (await index.json()) as { days: Array<{ day: string; machines: number; models: string[] }> };
    expect(doc.days.map((d) => [d.day, d.machines, d.models])).toEqual([
      [DATES[1], 3, ["model-a", "model-b", "model-c"]],
      [DATES[0], 2, ["model-a", "model-b"]],
    ]);
    // The rows hold what the archives say, byte for byte.
    const download = await get("/api/history/download.json");
    expect(download.headers.get("Content-Disposition")).toContain("attachment");
    const bytes = await download.text();
    expect(bytes).toBe(await fromR2());
    const day = JSON.parse(bytes).days[1];
    expect(day.machines.every((m: { writes: number; reward: number }) => m.writes > 0 && m.reward >= 0)).toBe(true);

    // A second close changes nothing: no new recording, the same bytes, the same ETag (304).
    const etag = download.headers.get("ETag")!;
    ok(await closeDay(env, DATES[1]));
    expect(await history.recordDay(`day-${DATES[1]}`)).toEqual({ game_id: `day-${DATES[1]}`, recorded: false });
    expect(await history.recordedDays()).toEqual(DATES);
    expect((await get("/api/history/download.json", { "If-None-Match": etag })).status).toBe(304);

    // The rows lost: the next read refills them from the archives in R2.
    await runInDurableObject(history, (_o, state) => {
      for (const table of ["days", "machine_days", "meta"]) state.storage.sql.exec(`DELETE FROM ${table}`);
    });
    expect(await history.recordedDays()).toEqual([]);
    const again = await get("/api/history/download.json");
    expect(await again.text()).toBe(bytes);
    expect(await history.recordedDays()).toEqual(DATES);
  });

  it("answers its reads with ETags and refuses bad parameters with a JSON error naming them", async () => {
    const ratings = await get("/api/history/ratings?by=model");
    expect(ratings.status).toBe(200);
    expect(ratings.headers.get("Cache-Control")).toBe("public, no-cache");
    const etag = ratings.headers.get("ETag");
    expect(etag).toMatch(/^W\/"/);
    expect((await get("/api/history/ratings?by=model", { "If-None-Match": etag! })).status).toBe(304);
    const bad = await get("/api/history/leaderboard?by=planet");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("Cache-Control")).toBe("no-store");
    expect(((await bad.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "bad_input", message: expect.stringMatching(/^by must be/) });
    const missing = await get("/api/history/machines/m-0000000000000000");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(/^no machine/);
    const csv = await get("/api/history/download.csv");
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("Access-Control-Allow-Origin")).toBe("*");
  });
});
