/**
 * The MCP Apps view `ui://mosaic/field` (SPEC §6.2): its weight, and the time from the host handing
 * it a tool result to the first frame drawn with it, in headless Chromium (targets: ≤ 200 KB,
 * ≤ 70 KB gzipped; ≤ 300 ms).
 *
 * The view is built as `npm run build:site` builds it and loaded into the test host (an ext-apps
 * AppBridge with the view in a sandboxed iframe, test/support/apps-host/) at 390 px wide. Each load
 * hands it a `join` answer (the first result: the renderer starts) and then an `observe {agent}`
 * answer at G = 1000 (a neighbourhood of a generated field placed mid-field: the scene and its
 * G × G board are the cost). The time runs from the host's sendToolResult to the end of the
 * rendering of the frame that drew the result (the page's own frame timing). The view's refresh
 * through the host is answered with a refusal, so only the handed result is drawn.
 *
 *   npm run bench:view                 # 8 loads
 *   npm run bench:view -- --loads 20
 */
import { loadavg } from "node:os";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import type { Frame } from "playwright-core";
import { generateField } from "../../src/engine";
import { launchBrowser, PHONE } from "../../test/support/browser";
import { startAppsHost } from "../../test/support/apps-host/serve";
import { buildView, VIEW_OUT } from "../build-view";
import { numberOption } from "./bench-options";

const LOADS = numberOption("loads", 8);
const BIG_G = 1000;
const OFFSET = 470;
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(", ");
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`load average before: ${load()}`);
const { bytes, scriptBytes } = await buildView();
const html = readFileSync(VIEW_OUT, "utf8").replace("__MOSAIC_ORIGIN__", "http://127.0.0.1:8787");
const gz = gzipSync(html, { level: 9 }).length;
const kb = (n: number): string => `${(n / 1000).toFixed(1)} KB (${(n / 1024).toFixed(1)} KiB)`;
const verdict = (n: number, target: number): string => (n <= target ? "met" : `over by ${((n - target) / 1000).toFixed(1)} KB`);
console.log(`size: ${kb(bytes)} raw, ${kb(gz)} gzip -9; targets 200 KB raw: ${verdict(bytes, 200_000)}, 70 KB gzip: ${verdict(gz, 70_000)}`);
console.log(`  script: ${kb(scriptBytes)}, all Mosaic's own (the spectator's renderer, the view and its link to the host; no dependency)`);

// A neighbourhood from a generated G = 60 field, moved to the middle of a G = 1000 one.
const field = await generateField({ kind: "scatter", G: 60, seed: "bench-view" });
const seed = field.tiles[Math.floor(field.tiles.length / 2)];
const shift = (c: number): number => (Math.floor(c / 60) + OFFSET) * BIG_G + (c % 60) + OFFSET;
const agent = "m-benchbenchbench/1";
const joinResult = {
  content: [{ type: "text", text: "joined" }],
  structuredContent: { agent, seed_tile: seed.id, seed: { id: seed.id, x0: seed.x0 + OFFSET, y0: seed.y0 + OFFSET, w: seed.w, h: seed.h, rects: seed.rects, cells: seed.cellIds.length, m: seed.m }, revision: 1, verified: true, harness: "bench", harness_source: "argument" },
};
const tiles = field.tiles.map((t, i) => ({
  id: t.id, x0: t.x0 + OFFSET, y0: t.y0 + OFFSET, w: t.w, h: t.h, rects: t.rects, cells: t.cellIds.length, m: t.m,
  status: i % 3 === 0 ? "solved" : i % 3 === 1 ? "revealed" : "hidden", agent: i % 3 === 0 ? agent : null, neighbours: [],
}));
const knownCells = field.tiles.filter((t) => t.id % 3 !== 2).flatMap((t) => t.cellIds).sort((a, b) => a - b);
const ids = [...new Set(knownCells.map(shift))].sort((a, b) => a - b);
const observeResult = {
  content: [{ type: "text", text: "observed" }],
  structuredContent: {
    observation: {
      game_id: "bench", status: "playing", revision: 100, G: BIG_G, tiles_total: 14000, grown: 0, fog: false, tiles,
      frontier: tiles.filter((t) => t.status !== "solved").slice(0, 20).map((t) => t.id),
      known: { gaps: ids.map((c, i) => (i === 0 ? c : c - ids[i - 1])), values: ids.map(() => "1").join("") },
      agents: [{ id: agent, reward: 42, seed_tile: seed.id }], totals: { reward: 42, solved: 40 }, health: { state: "healthy" },
    },
  },
};

const host = await startAppsHost();
const browser = await launchBrowser();
const times = { join: [] as number[], observe: [] as number[] };

/** Hands one result and waits for the frame that drew it; the time in ms. */
async function timed(page: import("playwright-core").Page, frame: Frame, args: Record<string, unknown>, result: unknown): Promise<number> {
  const before = await frame.evaluate(() => (window as unknown as { mosaicView: { results: number } }).mosaicView.results);
  const sentAt = await page.evaluate(([a, r]) => window.host.send(a, r as never), [args, result] as const);
  const handle = await frame.waitForFunction((n) => {
    const v = (window as unknown as { mosaicView: { results: number; view: { timing: { firstPaintAt: number } } | null } }).mosaicView;
    return v.results > n && v.view && v.view.timing.firstPaintAt > 0 ? performance.timeOrigin + v.view.timing.firstPaintAt : 0;
  }, before);
  return (await handle.jsonValue()) - sentAt;
}

try {
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.exposeFunction("hostCallTool", async () => ({ content: [{ type: "text", text: "the benchmark's host has no server" }], isError: true }));
    await page.goto(host.url);
    await page.waitForSelector("body[data-ready]", { state: "attached" });
    await page.evaluate((doc) => window.host.load(doc, { connectDomains: [], resourceDomains: [] }, "dark"), html);
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    times.join.push(await timed(page, frame, { game_id: "bench", session: "1" }, joinResult));
    times.observe.push(await timed(page, frame, { game_id: "bench", agent }, observeResult));
    await context.close();
  }
} finally {
  await browser.close();
  await host.close();
}
const line = (label: string, xs: number[]): string => `${label}: median ${median(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms over ${xs.length} loads`;
console.log(`result → first drawn frame (target 300 ms)`);
console.log(`  ${line("join (first result, renderer starts)", times.join)}`);
console.log(`  ${line(`observe {agent} at G = ${BIG_G}, ${tiles.length} tiles, ${ids.length} known cells`, times.observe)}`);
console.log(`load average after: ${load()}`);
