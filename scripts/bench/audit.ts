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
import { statSync } from "node:fs";
import { loadavg, cpus } from "node:os";
import { join } from "node:path";
import { ROOT } from "./field-cache";
import { flagOption, numberOption } from "./bench-options";
import { buildArchive, log, machines, maxWrites, params } from "./audit-day";

const flag = flagOption;
const threads = numberOption("threads", 0);

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
