/**
 * The day's benchmark (issue 8): a synthetic full day at G = 1000 — the daily parameters, every
 * ring grown, ~50,000 writes by 16 machines, built in Node with the real engine and referee —
 * loaded into a field object of a real `wrangler dev` (dev import: meta, tiles with hashes,
 * solution, chained events, a referee snapshot), then:
 *
 * 1. `GET /api/games/:id/tiles?rect=…` on a 200 × 200 window of played tiles, p50/p99, against
 *    `GET /api/health` in the same run (target ≤ 20 ms p50);
 * 2. the close inside the object (`POST /api/dev/day/close`: the close and the archive streamed
 *    through gzip into an R2 multipart upload): wall time, and workerd's resident memory sampled
 *    every 20 ms before and during it (targets ≤ 30 s, ≤ 128 MB); then a second close (nothing
 *    written) and the archive's sizes.
 *
 *   npm run bench:day                                 # the full day (fields and the day cached in .cache/)
 *   npm run bench:day -- --writes 20000 --calls 300
 *   npm run bench:day -- --quick                      # a 2×2-of-40 day on a 400 canvas (smoke run)
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, renameSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { ArchiveParams } from "../../src/daily/archive/format";
import { DAY_GROW, DAY_RULES, DAY_SHAPE } from "../../src/daily/day-params";
import type { ImportPart } from "../../src/game/day-import";
import { Referee } from "../../src/referee";
import { applyLogged } from "../../src/referee/logged-input";
import { syntheticDay } from "../../test/support/synthetic-day";
import { startDevServer } from "../../test/support/wrangler-dev";
import { CACHE_DIR, cachedFields, sourceDigest } from "./field-cache";
import { flagOption, numberOption } from "./bench-options";
import { percentile } from "./samples";

const flag = flagOption;
const num = numberOption;
const quick = flag("quick");
const params: ArchiveParams = quick
  ? { kind: "field", chunks: 2, chunk_g: 40, G: 400, grow: true, rules: DAY_RULES, growth: DAY_GROW }
  : { kind: "field", chunks: DAY_SHAPE.chunks, chunk_g: DAY_SHAPE.chunk_g, G: DAY_SHAPE.G, grow: true, rules: DAY_RULES, growth: DAY_GROW };
const machines = num("machines", quick ? 6 : 16);
const maxWrites = num("writes", quick ? 5_000 : 50_000);
const CALLS = num("calls", 200);
const WARMUP = 20;
const GAME_ID = "day-2031-01-01";
const DAY_SEED = "d7".repeat(32);
const DAY_KEY = new Uint8Array(32).map((_, i) => (i * 37 + 11) & 255);

const log = (line: string): void => void process.stdout.write(`${line}\n`);
const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** The import's parts as JSON lines, cached: building the day takes minutes. */
async function importFile(): Promise<string> {
  const key = createHash("sha256")
    .update(JSON.stringify({ params, machines, maxWrites, v: 1 }))
    .update(sourceDigest("src/engine", "src/referee", "src/daily/archive", "src/game/day-import.ts", "test/support/synthetic-day.ts"))
    .digest("hex")
    .slice(0, 20);
  const dir = join(CACHE_DIR, "bench");
  const file = join(dir, `day-import-${key}.jsonl`);
  if (existsSync(file)) {
    log(`day: cached ${file}`);
    return file;
  }
  mkdirSync(dir, { recursive: true });
  const t0 = Date.now();
  let lastLog = 0;
  const day = await syntheticDay({
    gameId: GAME_ID,
    daySeed: DAY_SEED,
    dayKey: DAY_KEY,
    params,
    machines,
    maxWrites,
    fields: cachedFields(log),
    onProgress: (p) => {
      if (Date.now() - lastLog < 15_000) return;
      lastLog = Date.now();
      log(`  playing: ${p.writes} writes, ${p.rings} rings, ${p.revealed}/${p.tiles} tiles revealed (${s(Date.now() - t0)})`);
    },
  });
  log(`day played in ${s(Date.now() - t0)}: ${day.field.tiles.length} tiles, ${day.rings} rings, ${day.writes} writes by ${day.machines.length} machines, ${day.log.length} events`);
  // The object stores a snapshot of its referee; replay the log without its close to take it there.
  const initial = { G: day.field.G, tiles: day.field.tiles.slice(0, day.initialTiles), solution: day.field.solution };
  const referee = new Referee({ gameId: GAME_ID, seed: DAY_SEED, field: initial, rules: params.rules });
  const open = day.log.filter((e) => e.input.type !== "close");
  for (const e of open) {
    const r = applyLogged(referee, day.field, e.input, e.at);
    if (!r.ok) throw new Error(`replay of the synthetic day failed at ${e.rev}: ${r.error.message}`);
  }
  const hashes = await day.tileHashes();
  const tmp = `${file}.tmp`;
  const out = createWriteStream(tmp);
  const put = (part: ImportPart): Promise<void> => new Promise((resolve) => (out.write(JSON.stringify(part) + "\n") ? resolve() : out.once("drain", resolve)));
  await put({
    kind: "begin", gameId: GAME_ID, day: "2031-01-01", params: { kind: "field", chunks: params.chunks, chunk_g: params.chunk_g, grow: true, G: params.G },
    rules: params.rules, grow: params.growth, seed: DAY_SEED, dayKey: Buffer.from(DAY_KEY).toString("hex"), G: day.field.G, initialTiles: day.initialTiles, created: Date.UTC(2031, 0, 1),
  });
  for (let i = 0; i < day.field.tiles.length; i += 2000) {
    const tiles = day.field.tiles.slice(i, i + 2000).map(({ cellIds: _c, ...t }) => t);
    await put({ kind: "tiles", tiles, hashes: hashes.slice(i, i + 2000) });
  }
  await put({ kind: "solution", base64: Buffer.from(day.field.solution).toString("base64") });
  let rows: Extract<ImportPart, { kind: "events" }>["rows"] = [];
  let size = 0;
  for (const e of open) {
    const row = { rev: e.rev, at: e.at, input: e.input, event: e.event as Record<string, unknown>, hash: e.event.hash };
    rows.push(row);
    size += JSON.stringify(row).length;
    if (size > 4 << 20) {
      await put({ kind: "events", rows });
      rows = [];
      size = 0;
    }
  }
  if (rows.length > 0) await put({ kind: "events", rows });
  await put({ kind: "snapshot", rev: referee.revision, text: JSON.stringify(referee.snapshot()) });
  await put({ kind: "end" });
  await new Promise((resolve) => out.end(resolve));
  renameSync(tmp, file);
  log(`import written: ${open.length} events before the close`);
  return file;
}

/** Resident and peak-resident memory of the workerd processes of a wrangler process group. */
function workerdMemory(pgid: number): { rss: number; hwm: number } {
  let rss = 0;
  let hwm = 0;
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid || !stat.includes("(workerd)")) continue;
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      rss += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
      hwm += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      // gone meanwhile
    }
  }
  return { rss, hwm };
}

async function timedGet(url: string, samples: number[]): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = await res.arrayBuffer();
  samples.push(performance.now() - t0);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${new TextDecoder().decode(body).slice(0, 200)}`);
  return body.byteLength;
}

async function post(url: string, body: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function main(): Promise<void> {
  log(`day benchmark: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} at start`);
  const file = await importFile();
  const server = await startDevServer({ vars: { MOSAIC_DEV: "1" } });
  try {
    const base = server.baseUrl;
    const t0 = Date.now();
    let status: Record<string, unknown> = {};
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      if (line.trim() !== "") status = await post(`${base}/api/dev/import/${GAME_ID}`, line);
    }
    const manifest = (await (await fetch(`${base}/api/games/${GAME_ID}`)).json()) as { G: number; tiles_total: number; rings: number; log_head: { rev: number } };
    log(`imported in ${s(Date.now() - t0)}: ${JSON.stringify(status)}; G=${manifest.G}, ${manifest.tiles_total} tiles, ${manifest.rings} rings, revision ${manifest.log_head.rev}`);

    // 1. The tiles of a 200 × 200 window in the middle of the played field, against the health route.
    const x = Math.floor(manifest.G / 2) - 100;
    const tilesUrl = `${base}/api/games/${GAME_ID}/tiles?rect=${x},${x},200,200`;
    const health: number[] = [];
    const tiles: number[] = [];
    let bytes = 0;
    for (let i = 0; i < WARMUP; i++) {
      await timedGet(`${base}/api/health`, []);
      bytes = await timedGet(tilesUrl, []);
    }
    for (let i = 0; i < CALLS; i++) {
      await timedGet(`${base}/api/health`, health);
      await timedGet(tilesUrl, tiles);
    }
    const view = (await (await fetch(tilesUrl)).json()) as { tiles: unknown[]; known: { values: string } };
    health.sort((a, b) => a - b);
    tiles.sort((a, b) => a - b);
    log(`GET /api/health                        p50 ${percentile(health, 50).toFixed(1)} ms, p99 ${percentile(health, 99).toFixed(1)} ms (${CALLS} calls)`);
    log(`GET /api/games/:id/tiles 200×200       p50 ${percentile(tiles, 50).toFixed(1)} ms, p99 ${percentile(tiles, 99).toFixed(1)} ms, ${(bytes / 1024).toFixed(0)} KiB, ${view.tiles.length} tiles, ${view.known.values.length} known cells` +
      ` — ${(percentile(tiles, 50) / percentile(health, 50)).toFixed(1)}× health; target ≤ 20 ms p50: ${percentile(tiles, 50) <= 20 ? "met" : "MISSED"}`);

    // 2. The close, with workerd's memory sampled meanwhile.
    const before = workerdMemory(server.pid);
    let peak = before.rss;
    const sampler = setInterval(() => (peak = Math.max(peak, workerdMemory(server.pid).rss)), 20);
    const tc = performance.now();
    const closed = (await post(`${base}/api/dev/day/close`, JSON.stringify({ date: "2031-01-01" }))) as { revision: number; archive: { bytes: number; raw_bytes: number } };
    const closeMs = performance.now() - tc;
    clearInterval(sampler);
    peak = Math.max(peak, workerdMemory(server.pid).rss);
    const growth = peak - before.rss;
    log(`close + archive: ${s(closeMs)} (target ≤ 30 s: ${closeMs <= 30_000 ? "met" : "MISSED"}); archive ${mb(closed.archive.raw_bytes)} JSON, ${mb(closed.archive.bytes)} gzip, ${Math.max(1, Math.ceil(closed.archive.bytes / (5 * 2 ** 20)))} parts`);
    log(`workerd resident memory: ${mb(before.rss)} before the close, ${mb(peak)} at its peak during it: +${mb(growth)} (target: the close within 128 MiB: ${growth <= 128 * 2 ** 20 ? "met" : "MISSED"})`);
    const t2 = performance.now();
    const again = (await post(`${base}/api/dev/day/close`, JSON.stringify({ date: "2031-01-01" }))) as { archive: { bytes: number } };
    log(`second close: ${(performance.now() - t2).toFixed(0)} ms, archive ${again.archive.bytes === closed.archive.bytes ? "unchanged" : "CHANGED"}`);
    log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
