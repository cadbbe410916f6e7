/**
 * The spectator site in headless Chromium at G = 1000 with 12,000+ tiles, against a G = 100 field
 * in the same run (targets: first paint ≤ 1 s after the snapshot arrives; a pan or zoom frame
 * ≤ 16 ms p95; the snapshot ≤ 1.5 MB over the wire).
 *
 * The page and its bundle are served by a real `wrangler dev`; the field's snapshot is a late-day
 * state built with the shared reducer over a generated field (what the server's snapshot route
 * serves for that state), handed to the page at its usual URL. Frames are timed by the page itself
 * (the duration of each draw) and as requestAnimationFrame intervals.
 *
 * First paint runs from the moment the snapshot's bytes have arrived (the response read whole) to
 * the end of the rendering of the frame that first drew the field's tiles on the canvas (the draw
 * call's own end is printed beside it). The machine's load average is printed with the figures:
 * on a shared machine wall-clock times follow it.
 *
 *   npm run bench:site                   # 10×10 chunks of 100 (G = 1000)
 *   npm run bench:site -- --chunks 4     # quicker
 *   npm run bench:site -- --fresh        # regenerate the cached fields
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { generateField, type FieldParams } from "../../src/engine";
import { launchBrowser } from "../../test/support/browser";
import { startDevServer } from "../../test/support/wrangler-dev";
import { buildSite } from "../build-site";
import { lateDayModel } from "./site-day";
import type { Browser, Page } from "playwright-core";
import type { FrameTiming } from "../../src/site/field/frame-timing";
import { flagOption, numberOption } from "./bench-options";

const arg = numberOption;
const CHUNKS = arg("chunks", 10);
const CHUNK_G = arg("chunk-g", 100);
const LOADS = arg("loads", 5);
const FRAMES = arg("frames", 120);

const loadAverage = (): string => loadavg().map((l) => l.toFixed(2)).join(", ");

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};

interface Figures {
  label: string;
  G: number;
  tiles: number;
  solved: number;
  jsonBytes: number;
  gzipBytes: number;
  /** Snapshot arrived → the frame holding the first draw of the field's tiles was rendered (ms). */
  firstPaint: number[];
  /** Snapshot arrived → the end of that first draw call (ms). */
  firstDraw: number[];
  timings: Record<string, number>;
  phases: Record<string, { draw: number[]; interval: number[] }>;
}

type Prepared = { label: string; gameId: string; text: string; G: number; tiles: number; solved: number };

/** Generating G = 1000 takes minutes on a busy machine: the snapshot is cached (it is deterministic). */
async function prepare(label: string, params: FieldParams): Promise<Prepared> {
  const cache = join(tmpdir(), `mosaic-bench-site-${createHash("sha256").update(JSON.stringify(params)).digest("hex").slice(0, 12)}.json`);
  if (!flagOption("fresh") && existsSync(cache)) {
    const cached = JSON.parse(readFileSync(cache, "utf8")) as Prepared;
    console.log(`${label}: G=${cached.G}, ${cached.tiles} tiles, ${cached.solved} solved (cached in ${cache})`);
    return cached;
  }
  const prepared = await generate(label, params);
  writeFileSync(cache, JSON.stringify(prepared));
  return prepared;
}

async function generate(label: string, params: FieldParams): Promise<Prepared> {
  const t0 = performance.now();
  const field = await generateField(params);
  const gameId = `bench-${field.G}`;
  const model = lateDayModel(field, gameId);
  const text = JSON.stringify(model.snapshot("public"));
  console.log(`${label}: G=${field.G}, ${field.tiles.length} tiles, ${model.solvedCount} solved, prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { label, gameId, text, G: field.G, tiles: field.tiles.length, solved: model.solvedCount };
}

/** Serves the field's JSON at the page's usual URLs, and a live socket that says hello and waits. */
async function serveField(page: Page, gameId: string, text: string): Promise<void> {
  const json = (body: unknown) => ({ status: 200, contentType: "application/json", body: typeof body === "string" ? body : JSON.stringify(body) });
  const head = (JSON.parse(text) as { log_head: unknown; revision: number }).log_head;
  await page.route("**/api/games", (r) => r.fulfill(json({ games: [{ game_id: gameId, status: "playing", revision: 1, G: 1, tiles: 1 }] })));
  await page.route("**/api/archives", (r) => r.fulfill(json({ archives: [] })));
  await page.route(`**/api/games/${gameId}/snapshot`, (r) => r.fulfill(json(text)));
  await page.route(`**/api/games/${gameId}/events*`, (r) => r.fulfill(json({ events: [] })));
  await page.route(`**/api/games/${gameId}/analysis`, (r) => r.fulfill(json({})));
  await page.routeWebSocket(/\/live/, (ws) => {
    ws.send(JSON.stringify({ type: "hello", game_id: gameId, from: 0, log_head: head, status: "playing", fog: false }));
  });
}

async function measure(browser: Browser, baseUrl: string, f: Prepared): Promise<Figures> {
  const figures: Figures = { label: f.label, G: f.G, tiles: f.tiles, solved: f.solved, jsonBytes: Buffer.byteLength(f.text), gzipBytes: gzipSync(f.text).length, firstPaint: [], firstDraw: [], timings: {}, phases: {} };
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await serveField(page, f.gameId, f.text);
  for (let i = 0; i < LOADS; i++) {
    await page.goto(`${baseUrl}/?game=${f.gameId}`);
    await page.waitForFunction(() => {
      const live = window.mosaic?.live as { snapshotArrivedAt?: number } | undefined;
      return !!live?.snapshotArrivedAt && (window.mosaic?.view?.timing.firstPaintAt ?? 0) > 0;
    }, undefined, { timeout: 60_000 });
    const [paint, draw] = await page.evaluate(() => {
      const arrived = (window.mosaic!.live as { snapshotArrivedAt: number }).snapshotArrivedAt;
      const view = window.mosaic!.view!;
      return [view.timing.firstPaintAt - arrived, view.timing.firstDrawAt - arrived];
    });
    figures.firstPaint.push(paint);
    figures.firstDraw.push(draw);
  }
  // Frames are timed once the page is idle: the model is built and the overlays computed.
  await page.waitForFunction(() => (window.mosaic!.live as { timings: Record<string, number> }).timings.model !== undefined, undefined, { timeout: 120_000 });
  figures.timings = await page.evaluate(() => (window.mosaic!.live as { timings: Record<string, number> }).timings);
  await page.waitForTimeout(3000);
  // Each phase moves the camera once per animation frame and records the page's draw times.
  const phases: Array<[string, string]> = [
    ["pan, whole field", "fit"],
    ["pan at 4 px/cell", "4"],
    ["pan at 16 px/cell", "16"],
    ["zoom sweep 0.5→40 px/cell", "zoom"],
  ];
  for (const [name, mode] of phases) {
    figures.phases[name] = await page.evaluate(
      async ([mode, frames]) => {
        const view = window.mosaic!.view! as unknown as {
          camera: { scale: number; width: number; height: number; panBy(x: number, y: number): void; zoomAt(f: number, x: number, y: number): void };
          timing: FrameTiming;
          invalidate(): void;
          fit(): void;
        };
        const cam = view.camera;
        view.fit();
        if (mode !== "fit" && mode !== "zoom") cam.zoomAt(Number(mode) / cam.scale, cam.width / 2, cam.height / 2);
        if (mode === "zoom") cam.zoomAt(0.5 / cam.scale, cam.width / 2, cam.height / 2);
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const draw: number[] = [];
        const interval: number[] = [];
        let last = performance.now();
        const factor = Math.pow(80, 1 / (frames / 2));
        for (let i = 0; i < frames; i++) {
          if (mode === "zoom") cam.zoomAt(i < frames / 2 ? factor : 1 / factor, cam.width * 0.4, cam.height * 0.6);
          else cam.panBy(i % 40 < 20 ? 7 : -7, i % 30 < 15 ? 4 : -4);
          const before = view.timing.drawCount;
          view.invalidate();
          await new Promise((r) => requestAnimationFrame(r));
          await new Promise((r) => setTimeout(r, 0));
          const now = performance.now();
          interval.push(now - last);
          last = now;
          if (view.timing.drawCount > before) draw.push(view.timing.drawTimes[(view.timing.drawCount - 1) % view.timing.drawTimes.length]);
        }
        return { draw, interval };
      },
      [mode, FRAMES] as [string, number],
    );
  }
  await context.close();
  return figures;
}

const small = await prepare("baseline G=100 scatter", { kind: "scatter", seed: "bench-site-small", G: 100 });
const large = await prepare(`large ${CHUNKS}×${CHUNKS} chunks of ${CHUNK_G}`, { kind: "field", seed: "bench-site-large", chunks: CHUNKS, chunk_g: CHUNK_G });
await buildSite();
const server = await startDevServer();
const browser = await launchBrowser();
try {
  const results = [await measure(browser, server.baseUrl, small), await measure(browser, server.baseUrl, large)];
  const kib = (n: number): string => `${(n / 1024).toFixed(0)} KiB`;
  const ms = (n: number): string => `${n.toFixed(1)} ms`;
  console.log(`\nmachine load (uptime): ${loadAverage()}`);
  console.log("\n| field | tiles | solved | snapshot JSON | gzip | first paint after arrival (median / max) | first draw call ended (median) |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of results) console.log(`| ${r.label}, G=${r.G} | ${r.tiles} | ${r.solved} | ${kib(r.jsonBytes)} | ${kib(r.gzipBytes)} | ${ms(quantile(r.firstPaint, 0.5))} / ${ms(Math.max(...r.firstPaint))} | ${ms(quantile(r.firstDraw, 0.5))} |`);
  for (const r of results) console.log(`G=${r.G} where the time went, last load: ${Object.entries(r.timings).map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(", ")}`);
  console.log("\n| phase | field | draw p50 | draw p95 | frame interval p95 |");
  console.log("|---|---|---|---|---|");
  for (const name of Object.keys(results[0].phases)) {
    for (const r of results) {
      const p = r.phases[name];
      console.log(`| ${name} | G=${r.G} | ${ms(quantile(p.draw, 0.5))} | ${ms(quantile(p.draw, 0.95))} | ${ms(quantile(p.interval, 0.95))} |`);
    }
  }
  const [s, l] = results;
  const allDraw = Object.values(l.phases).flatMap((p) => p.draw);
  const fp = quantile(l.firstPaint, 0.5);
  console.log(`\nG=${l.G}: first paint ${ms(fp)} after the snapshot arrived (target ≤ 1000 ms: ${fp <= 1000 ? "met" : "MISSED"}; ${(fp / quantile(s.firstPaint, 0.5)).toFixed(1)}× the G=${s.G} baseline)`);
  console.log(`G=${l.G}: pan/zoom draw p95 ${ms(quantile(allDraw, 0.95))} (target ≤ 16 ms: ${quantile(allDraw, 0.95) <= 16 ? "met" : "MISSED"}; baseline ${ms(quantile(Object.values(s.phases).flatMap((p) => p.draw), 0.95))})`);
  console.log(`G=${l.G}: snapshot ${(l.gzipBytes / 1e6).toFixed(2)} MB gzip over the wire (target ≤ 1.5 MB: ${l.gzipBytes <= 1_500_000 ? "met" : "MISSED"}), ${(l.jsonBytes / 1e6).toFixed(2)} MB uncompressed`);
} finally {
  await browser.close();
  await server.stop();
}
