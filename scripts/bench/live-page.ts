/**
 * The live page's main thread while a big fogged field is played: headless Chromium opens
 * `/?game=<id>` on a real `wrangler dev` (the page, its bundle's HTML and CSS) while the field's
 * snapshot, its log and its live socket are served from a day played with the shared reducer
 * (`live-page-day.ts`: four agents working outwards from their seeds on a G = 1000 field under
 * fog), the socket streaming the events at a set rate in 100 ms batches with the geometry they
 * reveal, as the server's feed does. Every few seconds the camera pans for a while.
 *
 * Per run it reports the long tasks (> 50 ms: their share of the wall time, count, p50, p95), the
 * frame intervals while panning (p50, p95), the page's own draw times, and a CPU profile's self
 * time per function and per source file. With `--baseline REF` the same runs are made with the
 * site as it was at REF, interleaved (REF, current, REF, current, …) on the same machine.
 *
 *   npm run bench:live-page                                   # 6 events/s, 2 runs of 60 s
 *   npm run bench:live-page -- --baseline main --runs 2       # before/after, interleaved
 *   npm run bench:live-page -- --rate 20 --seconds 45 --start 20000
 *   npm run bench:live-page -- --port 8850                    # wrangler dev on a chosen port
 *   npm run bench:live-page -- --trace 15                     # then 15 s traced: long tasks by trace event
 *   npm run bench:live-page -- --base http://127.0.0.1:8787 --game ID   # a field real agents play
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser, Page, WebSocketRoute } from "playwright-core";
import { generateField, type Field, type FieldParams } from "../../src/engine";
import { packTiles, type TileGeometry } from "../../src/spectator";
import { launchBrowser } from "../../test/support/browser";
import { startDevServer } from "../../test/support/wrangler-dev";
import { flagOption, numberOption, textOption } from "./bench-options";
import { playDay, type DayStep } from "./live-page-day";
import { startTrace, stopTrace, type TraceSummary } from "./live-page-trace";
import { longTasks, pageNow, pan, recordLongTasks, startProfile, stopProfile, type LongTaskFigures, type ProfileSummary } from "./live-page-probe";

const RATE = numberOption("rate", 6);
const SECONDS = numberOption("seconds", 60);
const RUNS = numberOption("runs", 2);
const START = numberOption("start", 3000);
const AGENTS = numberOption("agents", 4);
const PAN_EVERY = numberOption("pan-every", 10);
const PAN_MS = numberOption("pan-ms", 2000);
const TOP = numberOption("top", 12);
/** Seconds of a Chromium trace after each run's measured window (0: none). */
const TRACE = numberOption("trace", 0);
const BASELINE = textOption("baseline");
const PORT = textOption("port");
/** A field being played on a running server (`--base URL --game ID`) instead of the generated day. */
const GAME = textOption("game");
/** The tab shown beside the field while measuring (log, leaderboard, analysis, fields). */
const TAB = textOption("tab") ?? "log";
const BASE = textOption("base");
const PARAMS: FieldParams = { kind: "field", seed: "bench-site-large", chunks: numberOption("chunks", 10), chunk_g: numberOption("chunk-g", 100) };
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};

/** Generating G = 1000 takes minutes: the field is cached (it is deterministic). */
async function loadField(): Promise<Field> {
  const cache = join(tmpdir(), `mosaic-bench-live-page-${PARAMS.seed}-${PARAMS.chunks}x${PARAMS.chunk_g}.json`);
  if (!flagOption("fresh") && existsSync(cache)) {
    const f = JSON.parse(readFileSync(cache, "utf8")) as Omit<Field, "solution"> & { solution: number[] };
    return { ...f, solution: Uint8Array.from(f.solution) };
  }
  const t0 = performance.now();
  const field = await generateField(PARAMS);
  console.log(`field generated in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  writeFileSync(cache, JSON.stringify({ ...field, solution: [...field.solution] }));
  return field;
}

/** The site as a page loads it: its bundle (unminified, so that the profile names functions) and its style sheet. */
interface Site {
  script: string;
  css: string;
}

/** The site from the work tree, or as it was at a git ref. */
async function site(ref: string | null): Promise<Site> {
  let base = root;
  let scratch: string | null = null;
  if (ref) {
    scratch = mkdtempSync(join(tmpdir(), "mosaic-site-ref-"));
    execFileSync("sh", ["-c", `git -C "${root}" archive "${ref}" src public/site.css | tar -x -C "${scratch}"`]);
    base = scratch;
  }
  try {
    const out = await build({ entryPoints: [join(base, "src/site/main.ts")], bundle: true, write: false, format: "esm", target: ["es2022"], minify: false, logLevel: "warning" });
    return { script: out.outputFiles[0].text, css: readFileSync(join(base, "public/site.css"), "utf8") };
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

/** Serves one version of the site's script and style sheet in place of the server's. */
async function serveSite(page: Page, s: Site): Promise<void> {
  await page.route("**/app/site.js", (r) => r.fulfill({ status: 200, contentType: "text/javascript", body: s.script }));
  await page.route("**/site.css", (r) => r.fulfill({ status: 200, contentType: "text/css", body: s.css }));
}

interface Day {
  gameId: string;
  snapshot: string;
  start: number;
  /** Every event from revision 1; those after `start` stream. */
  steps: DayStep[];
  geometry: (id: number) => TileGeometry | undefined;
}

function prepareDay(field: Field): Day {
  let snapshot = "";
  const events = START + Math.ceil(RATE * (SECONDS + TRACE) * 1.3) + 200;
  const gameId = "bench-live-page";
  const played = playDay(field, {
    gameId,
    agents: AGENTS,
    events,
    beforeEach: (m) => {
      if (m.revision === START) snapshot = JSON.stringify(m.snapshot("public"));
    },
  });
  if (!snapshot) throw new Error(`the day ended at revision ${played.steps.length}, before the snapshot's ${START}`);
  const model = played.model;
  console.log(`day: G=${field.G}, ${field.tiles.length} tiles, ${played.steps.length} events by ${AGENTS} agents (fog); snapshot at revision ${START}; ${model.visibleTiles().length} tiles reached and ${model.solvedCount} solved at the end`);
  return { gameId, snapshot, start: START, steps: played.steps, geometry: (id) => model.tile(id) };
}

/** Serves the field's reads and a live socket the caller feeds; returns a sender for the socket. */
async function serveDay(page: Page, day: Day): Promise<{ send(from: number, to: number): void }> {
  const json = (body: unknown) => ({ status: 200, contentType: "application/json", body: typeof body === "string" ? body : JSON.stringify(body) });
  const all = day.steps.map((s) => s.event);
  const early = all.slice(0, day.start);
  await page.route("**/api/games", (r) => r.fulfill(json({ games: [{ game_id: day.gameId, status: "playing", revision: day.start, G: 1000, tiles: 1 }] })));
  await page.route("**/api/archives", (r) => r.fulfill(json({ archives: [] })));
  await page.route(`**/api/games/${day.gameId}/snapshot`, (r) => r.fulfill(json(day.snapshot)));
  await page.route(`**/api/games/${day.gameId}/analysis`, (r) => r.fulfill(json({})));
  await page.route(`**/api/games/${day.gameId}/hashes`, (r) => r.fulfill(json({ hashes: [] })));
  // Only the events up to the snapshot are asked for (the log's backfill, past meetings): those after it stream.
  const before = day.start;
  await page.route(`**/api/games/${day.gameId}/events*`, (r) => {
    const url = new URL(r.request().url());
    const from = Number(url.searchParams.get("from") ?? 1);
    const limit = Number(url.searchParams.get("limit") ?? 200);
    r.fulfill(json({ events: early.filter((e) => e.rev >= from && e.rev <= before).slice(0, limit) }));
  });
  let socket: WebSocketRoute | null = null;
  await page.routeWebSocket(/\/live/, (ws) => {
    socket = ws;
    ws.send(JSON.stringify({ type: "hello", game_id: day.gameId, from: before, log_head: { hash: "", rev: before }, status: "playing", fog: true }));
  });
  return {
    /** Streams the events after the snapshot numbered [from, to) (0: the first after it). */
    send(from, to) {
      from += day.start;
      to += day.start;
      const steps = all.slice(from, to);
      if (!steps.length || !socket) return;
      const ids = new Set<number>();
      for (let i = from; i < to; i++) for (const t of day.steps[i].visible) ids.add(t);
      const geometry = [...ids].sort((a, b) => a - b).map(day.geometry).filter((g): g is TileGeometry => g !== undefined);
      const last = steps[steps.length - 1].rev;
      socket.send(JSON.stringify({ type: "events", events: steps, ...(geometry.length ? { tiles: packTiles(geometry) } : {}), log_head: { hash: "", rev: last } }));
    },
  };
}

interface Run {
  label: string;
  seconds: number;
  events: number;
  tasks: LongTaskFigures;
  intervals: number[];
  draws: number[];
  /** Canvas draws per second outside the pans. */
  drawRate: number;
  profile: ProfileSummary;
  trace: TraceSummary | null;
}

async function run(browser: Browser, baseUrl: string, day: Day | null, label: string, version: Site): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error(`${label}: page error: ${e.message}`));
  await recordLongTasks(page);
  // A field played elsewhere (`--game` on `--base`): the page reads the real server; only the site's version is chosen here.
  await serveSite(page, version);
  const feed = day ? await serveDay(page, day) : null;
  try {
    await page.goto(`${baseUrl}/?game=${day?.gameId ?? GAME}`);
    await page.waitForFunction(() => (window.mosaic?.live as { model?: unknown } | undefined)?.model, undefined, { timeout: 120_000 });
    await page.waitForFunction(() => (window.mosaic?.connected as (() => boolean) | undefined)?.(), undefined, { timeout: 30_000 });
    await page.click(`#tab-${TAB}`);
    await sleep(3000);
    const cdp = await startProfile(page);
    const t0 = await pageNow(page);
    const rev0 = await page.evaluate(() => (window.mosaic!.revision as () => number)());
    const draws0 = await page.evaluate(() => window.mosaic!.view!.timing.drawCount);
    const started = performance.now();
    let sent = 0;
    const total = day ? Math.min(day.steps.length - day.start, Math.floor(RATE * (SECONDS + TRACE))) : 0;
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE));
      if (due > sent) feed?.send(sent, due);
      sent = Math.max(sent, due);
    }, 100);
    const intervals: number[] = [];
    const draws: number[] = [];
    const pans = { draws: 0, ms: 0 };
    try {
      while (performance.now() - started < SECONDS * 1000) {
        await sleep(Math.max(0, Math.min(PAN_EVERY * 1000 - PAN_MS, started + SECONDS * 1000 - performance.now())));
        if (performance.now() - started >= SECONDS * 1000 - PAN_MS) break;
        const p = await pan(page, PAN_MS);
        pans.draws += p.count;
        pans.ms += PAN_MS;
        intervals.push(...p.intervals);
        draws.push(...p.draws);
      }
      await sleep(Math.max(0, started + SECONDS * 1000 - performance.now()));
      const t1 = await pageNow(page);
      const profile = await stopProfile(cdp, version.script);
      const tasks = await longTasks(page, t0, t1);
      const revision = await page.evaluate(() => (window.mosaic!.revision as () => number)());
      // Canvas draws outside the pans: what the live batches and the markers' pulse cost in frames.
      const drawsBetween = (await page.evaluate(() => window.mosaic!.view!.timing.drawCount)) - draws0 - pans.draws;
      let trace: TraceSummary | null = null;
      if (TRACE > 0) {
        // The stream goes on while the trace records, with a pan in its middle.
        await startTrace(browser, page);
        await sleep((TRACE * 1000 - PAN_MS) / 2);
        await pan(page, PAN_MS);
        await sleep((TRACE * 1000 - PAN_MS) / 2);
        trace = await stopTrace(browser);
      }
      return { label, seconds: (t1 - t0) / 1000, events: revision - rev0, tasks, intervals, draws, drawRate: drawsBetween / ((t1 - t0 - pans.ms) / 1000), profile, trace };
    } finally {
      clearInterval(timer);
    }
  } finally {
    await context.close();
  }
}

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
const ms = (x: number): string => `${x.toFixed(1)} ms`;

function report(runs: Run[]): void {
  const what = GAME ? `${GAME} as played on ${BASE}` : `G=1000 fogged field, ${AGENTS} agents' events at ${RATE}/s from revision ${START}`;
  console.log(`\nlive page, ${what}, the ${TAB} tab open, ${SECONDS} s per run, a ${PAN_MS / 1000} s pan every ${PAN_EVERY} s; load average at the end ${loadavg().map((l) => l.toFixed(2)).join(", ")}`);
  console.log("\n| run | events applied/s | long tasks: share of time | count | p50 | p95 | max | pan frame p50 | pan frame p95 | draw p50 | draw p95 | draws/s between pans | CPU busy (profile) |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of runs) {
    const t = r.tasks;
    console.log(`| ${r.label} | ${(r.events / r.seconds).toFixed(1)} | ${pct(t.share)} | ${t.count} | ${ms(t.p50)} | ${ms(t.p95)} | ${ms(t.max)} | ${ms(quantile(r.intervals, 0.5))} | ${ms(quantile(r.intervals, 0.95))} | ${ms(quantile(r.draws, 0.5))} | ${ms(quantile(r.draws, 0.95))} | ${r.drawRate.toFixed(1)} | ${pct(r.profile.busy / 1000 / r.seconds)} |`);
  }
  for (const label of [...new Set(runs.map((r) => r.label))]) {
    const mine = runs.filter((r) => r.label === label);
    const busy = mine.reduce((s, r) => s + r.profile.busy, 0);
    const fns = new Map<string, { name: string; file: string; ms: number }>();
    const files = new Map<string, number>();
    for (const r of mine) {
      for (const f of r.profile.functions) {
        const key = `${f.name}@${f.file}`;
        const e = fns.get(key) ?? { name: f.name, file: f.file, ms: 0 };
        e.ms += f.ms;
        fns.set(key, e);
      }
      for (const f of r.profile.files) files.set(f.file, (files.get(f.file) ?? 0) + f.ms);
    }
    console.log(`\n${label}: main-thread CPU self time by function (share of the profile's busy time, ${(busy / 1000).toFixed(1)} s over ${mine.length} run(s))`);
    for (const f of [...fns.values()].sort((a, b) => b.ms - a.ms).slice(0, TOP)) console.log(`  ${pct(f.ms / busy).padStart(7)}  ${f.name} (${f.file})`);
    console.log(`${label}: by source file`);
    for (const [file, t] of [...files].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${pct(t / busy).padStart(7)}  ${file}`);
    const traced = mine.flatMap((r) => (r.trace ? [r.trace] : []));
    if (traced.length) {
      const total = traced.reduce((s, t) => s + t.total, 0);
      const names = new Map<string, number>();
      for (const t of traced) for (const n of t.names) names.set(n.name, (names.get(n.name) ?? 0) + n.ms);
      console.log(`${label}: inside the traced long tasks (${traced.reduce((s, t) => s + t.tasks, 0)} tasks, ${(total / 1000).toFixed(1)} s over ${TRACE} s per run), self time by trace event`);
      for (const [name, t] of [...names].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${pct(t / total).padStart(7)}  ${name}`);
      const allTotal = traced.reduce((s, t) => s + t.allTotal, 0);
      const all = new Map<string, number>();
      for (const t of traced) for (const n of t.allNames) all.set(n.name, (all.get(n.name) ?? 0) + n.ms);
      console.log(`${label}: every traced task on the main thread (${(allTotal / 1000).toFixed(1)} s busy over ${TRACE} s per run, ${traced.reduce((s, t) => s + t.frames, 0)} frames), self time by trace event`);
      for (const [name, t] of [...all].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${pct(t / allTotal).padStart(7)}  ${name}`);
    }
  }
}

const day = GAME ? null : prepareDay(await loadField());
const current = await site(null);
const baseline = BASELINE ? await site(BASELINE) : null;
const server = BASE ? { baseUrl: BASE, stop: async () => {} } : await startDevServer(PORT ? { port: Number(PORT) } : {});
const browser = await launchBrowser();
try {
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (baseline) {
      runs.push(await run(browser, server.baseUrl, day, `before (${BASELINE})`, baseline));
      console.log(`run ${runs.length} done`);
    }
    runs.push(await run(browser, server.baseUrl, day, "current", current));
    console.log(`run ${runs.length} done`);
  }
  report(runs);
} finally {
  await browser.close();
  await server.stop();
}
