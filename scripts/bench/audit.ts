/**
 * Auditor benchmark (SPEC §9, issue 8): a synthetic full day at G = 1000 — a growing field with
 * every ring grown (≥ 12,000 tiles), ≥ 50,000 writes by ≥ 16 machines — archived with the real
 * writer, then `npm run audit` on it in its own process. Prints the archive's size (raw and gzip),
 * the audit's wall time and peak memory against the targets (≤ 60 s, ≤ 1 GB), and, as the
 * baseline measured in the same run, the same audit with everything in one thread.
 *
 *   npm run bench:audit                          # the full day (fields and the day cached in .cache/)
 *   npm run bench:audit -- --chunk-g 60 --chunks 4 --machines 16 --writes 50000   # the day's own shape
 *   npm run bench:audit -- --no-baseline         # skip the single-thread run
 *   npm run bench:audit -- --quick               # a 2×2-of-40 day on a 400 canvas, for a smoke run
 *
 * Generating a G = 1000 field takes minutes of CPU; the pieces are cached under .cache/fields
 * (keyed by the engine's sources) and the archive under .cache/bench (keyed by every source that
 * shapes it), so a rerun measures the audit only.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { loadavg, cpus } from "node:os";
import { join } from "node:path";
import { createGzip } from "node:zlib";
import type { ArchiveParams } from "../../src/daily/archive/format";
import { archiveChunks } from "../../src/daily/archive/writer";
import { syntheticDay } from "../../test/support/synthetic-day";
import { CACHE_DIR, cachedFields, ROOT, sourceDigest } from "./field-cache";
import { flagOption, numberOption } from "./bench-options";

const flag = flagOption;
const num = numberOption;
const quick = flag("quick");
const params: ArchiveParams = {
  kind: "field",
  // 4×4 chunks of 50: 8 rings and about 15,000 tiles on the 1000 canvas (the day's own 4×4 of 60
  // makes about 11,600, under the 12,000 the benchmark asks for).
  chunks: num("chunks", quick ? 2 : 4),
  chunk_g: num("chunk-g", quick ? 40 : 50),
  G: num("G", quick ? 400 : 1000),
  grow: true,
  rules: { guess: "accept", depth: 0, fog: true },
  growth: { every_minutes: 90, frontier_coverage: 0.5 },
};
const machines = num("machines", quick ? 6 : 16);
const maxWrites = num("writes", quick ? 5_000 : 50_000);
const threads = num("threads", 0);

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function buildArchive(): Promise<{ file: string; rawBytes: number; tiles: number; events: number; writes: number; rings: number }> {
  const key = createHash("sha256")
    .update(JSON.stringify({ params, machines, maxWrites, v: 1 }))
    .update(sourceDigest("src/engine", "src/referee", "src/daily/archive", "test/support/synthetic-day.ts"))
    .digest("hex")
    .slice(0, 20);
  const dir = join(CACHE_DIR, "bench");
  const file = join(dir, `day-${key}.json.gz`);
  const meta = `${file}.meta.json`;
  if (existsSync(file) && existsSync(meta)) {
    log(`archive: cached ${file}`);
    return JSON.parse(readFileSync(meta, "utf8")) as Awaited<ReturnType<typeof buildArchive>>;
  }
  mkdirSync(dir, { recursive: true });
  const t0 = Date.now();
  let lastLog = 0;
  const day = await syntheticDay({
    gameId: "day-2031-01-01",
    daySeed: "b5".repeat(32),
    dayKey: new Uint8Array(32).map((_, i) => (i * 29 + 3) & 255),
    params,
    machines,
    maxWrites,
    batch: [1, 24],
    fields: cachedFields(log),
    onProgress: (p) => {
      if (Date.now() - lastLog < 15_000) return;
      lastLog = Date.now();
      log(`  playing: ${p.writes} writes, ${p.rings} rings, ${p.revealed}/${p.tiles} tiles revealed (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    },
  });
  log(`day played in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${day.field.tiles.length} tiles, ${day.rings} rings, ${day.writes} writes, ${day.log.length} events, ${day.machines.length} machines`);
  const source = await day.archiveSource();
  const t1 = Date.now();
  const tmp = `${file}.tmp`;
  const gzip = createGzip({ level: 6 });
  const out = createWriteStream(tmp);
  const done = new Promise<void>((resolve, reject) => {
    out.on("finish", resolve);
    out.on("error", reject);
    gzip.on("error", reject);
  });
  gzip.pipe(out);
  let rawBytes = 0;
  for (const piece of archiveChunks(source)) {
    const bytes = Buffer.from(piece, "utf8");
    rawBytes += bytes.length;
    if (!gzip.write(bytes)) await new Promise((resolve) => gzip.once("drain", resolve));
  }
  gzip.end();
  await done;
  renameSync(tmp, file);
  log(`archive written (streamed, gzip level 6) in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
  const info = { file, rawBytes, tiles: day.field.tiles.length, events: day.log.length, writes: day.writes, rings: day.rings };
  writeFileSync(meta, JSON.stringify(info));
  return info;
}

interface AuditRun {
  wallMs: number;
  report: { ok: boolean; total_ms: number; read_ms: number; cpu_ms: number; max_rss_mb: number; checks: Array<{ check: string; ok: boolean; ms: number; summary: string }> };
}

function runAudit(file: string, extra: string[]): Promise<AuditRun> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--import", "tsx", join(ROOT, "scripts/audit.ts"), file, "--json", ...extra], { cwd: ROOT, maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
      const wallMs = Date.now() - t0;
      try {
        const report = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as AuditRun["report"];
        resolve({ wallMs, report });
      } catch {
        reject(new Error(`audit failed (${err?.message ?? "no report"}): ${stderr.slice(-2000)}`));
      }
    });
  });
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

function describe(label: string, run: AuditRun): void {
  const r = run.report;
  log(`${label}: ${r.ok ? "PASS" : "FAIL"} in ${s(run.wallMs)} wall, ${s(r.cpu_ms)} CPU over all threads (read ${s(r.read_ms)}), peak memory ${r.max_rss_mb} MB`);
  for (const c of r.checks) log(`    ${c.check.padEnd(13)} ${c.ok ? "ok  " : "FAIL"} ${s(c.ms).padStart(8)}  ${c.summary}`);
}

async function main(): Promise<void> {
  log(`audit benchmark: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} at start`);
  log(`day: ${JSON.stringify(params)}, ${machines} machines, ≥ ${maxWrites} writes`);
  const archive = await buildArchive();
  const gzBytes = statSync(archive.file).size;
  log(`archive: ${archive.tiles} tiles, ${archive.rings} rings, ${archive.writes} writes, ${archive.events} events; ${mb(archive.rawBytes)} raw, ${mb(gzBytes)} gzip (${(archive.rawBytes / gzBytes).toFixed(1)}×)`);
  const withThreads = await runAudit(archive.file, threads > 0 ? ["--threads", String(threads)] : []);
  describe("npm run audit", withThreads);
  let baseline: AuditRun | null = null;
  if (!flag("no-baseline")) {
    baseline = await runAudit(archive.file, ["--threads", "0"]);
    describe("baseline, one thread (--threads 0)", baseline);
  }
  log("");
  log("| measure | figure | target |");
  log("|---|---|---|");
  log(`| synthetic day | ${archive.tiles} tiles, ${archive.rings} rings, ${archive.writes} writes by ${machines} machines | ≥ 12,000 tiles, ≥ 50,000 writes, ≥ 16 machines |`);
  log(`| archive size | ${mb(archive.rawBytes)} raw, ${mb(gzBytes)} gzip | — |`);
  const ratio = baseline ? ` (${(withThreads.wallMs / baseline.wallMs).toFixed(2)}× the one-thread run, ${s(baseline.wallMs)})` : "";
  log(`| npm run audit, wall | ${s(withThreads.wallMs)}${ratio} | ≤ 60 s |`);
  log(`| npm run audit, CPU (all threads) | ${s(withThreads.report.cpu_ms)}${baseline ? ` (one thread: ${s(baseline.report.cpu_ms)})` : ""} | — |`);
  log(`| npm run audit, peak memory | ${withThreads.report.max_rss_mb} MB${baseline ? ` (one thread: ${baseline.report.max_rss_mb} MB)` : ""} | ≤ 1 GB |`);
  log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  if (!withThreads.report.ok || (baseline && !baseline.report.ok)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
