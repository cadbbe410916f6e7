// The history over HTTP (SPEC §11.1): five days opened through the dev routes of `wrangler dev`,
// each played by reference agents declaring different models and closed; the history's routes
// answer; `npm run ratings` recomputes every table from the downloaded archives, byte for byte,
// and refuses a tampered archive; the History view in headless Chromium draws its plots, opens a
// day's replay from a point, and fits a phone.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, describe, expect, inject, it } from "vitest";
import { playAgent } from "../../agent";
import { browserPerFile, openPage, PHONE, screenshot } from "../support/browser";

const base = inject("baseUrl");
const home = mkdtempSync(join(tmpdir(), "mosaic-history-e2e-"));
const browser = browserPerFile();
afterAll(() => rmSync(home, { recursive: true, force: true }));

const MODELS = ["ref-alpha", "ref-beta", "ref-gamma"];

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${base}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** Five consecutive dates of their own on the shared server, somewhere in 2070..2079. */
function freshDates(n: number): string[] {
  const start = Date.UTC(2070, 0, 1) + Math.floor(Math.random() * 3600) * 86_400_000;
  return Array.from({ length: n }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
}

/** One day: opened small, played by one reference agent per model (each stops after some actions), closed. */
async function playDay(date: string, day: number): Promise<void> {
  const opened = await post("/api/dev/day/open", { date, params: { G: 200, chunks: 2, chunk_g: 40, grow: { every_minutes: 1440 } } });
  const gameId = String(opened.game_id);
  for (let i = 0; (await getJson<{ status?: string }>(`/api/games/${gameId}`)).status !== "playing"; i++) {
    if (i > 1500) throw new Error("the day's field did not finish generating");
    await new Promise((r) => setTimeout(r, 200));
  }
  // Day 0 leaves a model out, so its entries do not all have the same number of days.
  const models = day === 0 ? MODELS.slice(0, 2) : MODELS;
  await Promise.all(
    models.map((model, i) => {
      const stop = new AbortController();
      let actions = 0;
      const limit = 12 + 8 * ((day + i) % 3);
      const log = (): void => {
        if (++actions >= limit) stop.abort();
      };
      return playAgent({ url: base, game: gameId, identityFile: join(home, `agent-${i}.json`), model, maxSessions: 1, idleSeconds: 5, maxSeconds: 60, log, signal: stop.signal });
    }),
  );
  await post("/api/dev/day/close", { date });
}

function ratings(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [resolve("node_modules/tsx/dist/cli.mjs"), resolve("scripts/ratings.ts"), ...args], { encoding: "utf8", timeout: 300_000, maxBuffer: 256 * 1024 * 1024 });
}

describe("the history across days", () => {
  it("five days played and closed: the routes answer, npm run ratings reproduces them from the archives, the History view plots them", { timeout: 900_000 }, async () => {
    const dates = freshDates(5);
    for (const [i, date] of dates.entries()) await playDay(date, i);

    // The routes answer, with the five days and the three declared models.
    const summary = await getJson<{ days: Array<{ day: string; models: string[]; machines: number }> }>("/api/history");
    for (const date of dates) expect(summary.days.find((d) => d.day === date)?.models).toEqual(expect.arrayContaining(date === dates[0] ? MODELS.slice(0, 2) : MODELS));
    const byModel = await getJson<{ entries: Array<{ key: string; days: number; self_reported: boolean; provisional: boolean; lo: number; hi: number; rating: number }> }>("/api/history/ratings?by=model");
    for (const model of MODELS) {
      const e = byModel.entries.find((x) => x.key === model)!;
      expect(e.self_reported).toBe(true);
      expect(e.days).toBe(model === "ref-gamma" ? 4 : 5);
      expect(e.provisional).toBe(false);
      expect(e.lo).toBeLessThanOrEqual(e.rating);
      expect(e.hi).toBeGreaterThanOrEqual(e.rating);
    }
    const series = await getJson<{ points: Array<{ day: string; replay: string }> }>("/api/history/models/ref-gamma");
    expect(series.points.filter((p) => dates.includes(p.day)).map((p) => p.replay)).toEqual(dates.slice(1).map((d) => `/replay/day-${d}`));
    const range = await getJson<{ days: number }>(`/api/history/leaderboard?by=model&from=${dates[1]}&to=${dates[3]}`);
    expect(range.days).toBe(3);
    const bad = await fetch(`${base}/api/history/leaderboard?by=model&from=${dates[3]}&to=${dates[1]}`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/^from .* is after to/);

    // Every archive on the server downloaded (other tests' days too: the history holds them all).
    const listing = await getJson<{ archives: Array<{ day: string; url: string }> }>("/api/archives");
    const files: string[] = [];
    for (const a of listing.archives) {
      const file = join(home, `${a.day}.json.gz`);
      writeFileSync(file, new Uint8Array(await (await fetch(`${base}${a.url}`)).arrayBuffer()));
      files.push(file);
    }
    const same = ratings([...files, "--against", base]);
    expect(same.status, `${same.stdout}\n${same.stderr}`).toBe(0);
    expect(same.stdout).toMatch(/^SAME: \d+ tables recomputed from \d+ archives/);
    // Printed without --against: each table is exactly the route's body.
    const printed = ratings(files);
    expect(printed.status, printed.stderr).toBe(0);
    const bundle = JSON.parse(printed.stdout) as Record<string, unknown>;
    expect(JSON.stringify(bundle["/api/history/ratings?by=model"])).toBe(await (await fetch(`${base}/api/history/ratings?by=model`)).text());

    // A tampered archive: one commit's reward raised, the file otherwise intact. Refused, nothing printed.
    const victim = files.find((f) => f.endsWith(`${dates[2]}.json.gz`))!;
    const doc = JSON.parse(gunzipSync(readFileSync(victim)).toString("utf8")) as { events: Array<{ type: string; reward?: number }> };
    const commit = doc.events.find((e) => e.type === "commit" && typeof e.reward === "number")!;
    commit.reward = (commit.reward ?? 0) + 1000;
    const tampered = join(home, "tampered.json.gz");
    writeFileSync(tampered, gzipSync(JSON.stringify(doc)));
    const refused = ratings([...files.filter((f) => f !== victim), tampered]);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toMatch(/^REFUSED: .*tampered\.json\.gz: hash chain: event \d+ \(commit\)/);
    expect(refused.stdout).not.toContain("/api/history");

    // The History view: plots drawn, a point opens that day's replay.
    const w = await openPage(browser(), base, "/history?model=ref-gamma");
    try {
      await w.page.waitForFunction(() => document.body.dataset.ready === "1", undefined, { timeout: 60_000 });
      const plots = w.page.locator("svg.plot");
      expect(await plots.count()).toBe(2);
      const points = w.page.locator("svg.plot").first().locator("a.plot-point");
      expect(await points.count()).toBe(series.points.length);
      expect(await w.page.locator("svg.plot polyline").first().getAttribute("points")).toMatch(/^\d/);
      expect(await w.page.locator(".ibar").count()).toBeGreaterThanOrEqual(MODELS.length);
      expect(await w.page.getByRole("link", { name: "CSV" }).getAttribute("href")).toBe("/api/history/download.csv");
      await screenshot(w.page, "history-desktop");
      await w.page.locator(`svg.plot a.plot-point[data-day="${dates[2]}"]`).first().click();
      await w.page.waitForURL(`**/replay/day-${dates[2]}`, { timeout: 30_000 });
      expect(w.foreignRequests).toEqual([]);
      expect(w.errors).toEqual([]);
    } finally {
      await w.context.close();
    }

    // On a phone: one column, nothing wider than the screen but the tables' own scrolling boxes.
    const p = await openPage(browser(), base, "/history", { viewport: PHONE, isMobile: true, hasTouch: true });
    try {
      await p.page.waitForFunction(() => document.body.dataset.ready === "1", undefined, { timeout: 60_000 });
      await p.page.getByRole("button", { name: "ref-alpha", exact: false }).first().tap();
      await p.page.locator("svg.plot").first().waitFor();
      const layout = await p.page.evaluate(() => {
        const main = document.getElementById("main")!;
        const plot = document.querySelector("svg.plot")!.getBoundingClientRect();
        return { page: document.documentElement.scrollWidth, inner: innerWidth, main: main.scrollWidth, mainWidth: main.clientWidth, plotRight: plot.right };
      });
      expect(layout.page).toBeLessThanOrEqual(layout.inner);
      expect(layout.main).toBeLessThanOrEqual(layout.mainWidth);
      expect(layout.plotRight).toBeLessThanOrEqual(layout.inner);
      await screenshot(p.page, "history-phone");
      expect(p.errors).toEqual([]);
    } finally {
      await p.context.close();
    }
  });
});
