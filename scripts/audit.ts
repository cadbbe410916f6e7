/**
 * The auditor's command (SPEC §9): verifies a closed day's archive offline.
 *
 *   npm run audit -- <archive file | URL> [--head HASH@REV]… [--manifest saved.json] [--hashes saved.json]
 *                    [--threads N] [--only check,…] [--fail-fast] [--json]
 *
 * The checks are the pure ones of src/daily/audit (the same code a browser runs); this file only
 * reads the inputs, regenerates the field in worker threads while the main thread replays the log,
 * prints progress on stderr and the report on stdout. Exit status: 0 when every check passes,
 * 1 on a mismatch (the report names the first: check, tile id, event revision, field), 2 when the
 * archive or a saved file cannot be read or the arguments are wrong.
 */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { ArchiveTile } from "../src/daily/archive/format";
import { growEvents, type AuditedArchive } from "../src/daily/audit/event-log";
import { auditArchive, type AuditReport } from "../src/daily/audit/audit";
import { regeneratePiece, regenerationPlan, regenerationSummary, type RegenerationPart } from "../src/daily/audit/check-regeneration";
import { archiveField } from "../src/daily/audit/archive-field";
import { encodeField } from "../src/daily/audit/field-transfer";
import type { Field } from "../src/engine/types";
import { AuditMismatch, CHECK_TITLES, CHECKS, type CheckName, type CheckResult, type Mismatch } from "../src/daily/audit/mismatch";
import { ArchiveFormatError } from "../src/daily/audit/read-archive";
import { fetchBytes, nodeHashing, readBytes, UnreadableSource } from "./archive-input";
import { hashesGameId, parseHashes, parseHead, parseManifest, type SavedInputs } from "../src/daily/audit/saved";
import type { FromWorker, ToWorker } from "./audit-worker";
import { counted } from "../src/text/wording";

interface Args {
  source: string;
  saved: SavedInputs;
  threads: number;
  only?: CheckName[];
  failFast: boolean;
  json: boolean;
}

const USAGE = `usage: npm run audit -- <archive file | URL> [--head HASH@REV]... [--manifest saved.json] [--hashes saved.json]
                      [--threads N] [--only ${CHECKS.join(",")}] [--fail-fast] [--json]`;

class UsageError extends Error {}

/**
 * Worker threads for the regeneration by default: one per core but the main thread's (which runs
 * the other checks, then regenerates too), at most three. Each adds about 150–250 MB at G = 1000:
 * on two cores one worker keeps a full day's audit near 750 MB; `--threads N` sets the number.
 */
const DEFAULT_THREADS = Math.max(1, Math.min(3, availableParallelism() - 1));

/**
 * A worker's heap: its live data peaks near 100 MB on a full day (the field, about 25 MB, and the
 * largest ring being generated); a bounded old generation makes V8 collect instead of growing the
 * heap to several times that.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 32 };

function parseArgs(argv: string[]): Args {
  const args: Args = { source: "", saved: {}, threads: DEFAULT_THREADS, failFast: false, json: false };
  const value = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith("--")) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--head") (args.saved.heads ??= []).push(parseHead(value(i++, a)));
    else if (a === "--manifest") args.saved.manifest = parseManifest(readJson(value(i++, a), "--manifest"));
    else if (a === "--hashes") {
      const doc = readJson(value(i++, a), "--hashes");
      args.saved.hashes = parseHashes(doc);
      args.saved.hashesGameId = hashesGameId(doc);
    }
    else if (a === "--threads") {
      args.threads = Number(value(i++, a));
      if (!Number.isInteger(args.threads) || args.threads < 0) throw new UsageError("--threads must be a whole number (0: regenerate in the main thread)");
    } else if (a === "--only") {
      args.only = value(i++, a).split(",") as CheckName[];
      for (const c of args.only) if (!CHECKS.includes(c)) throw new UsageError(`--only: unknown check ${c} (checks: ${CHECKS.join(", ")})`);
    } else if (a === "--fail-fast") args.failFast = true;
    else if (a === "--json") args.json = true;
    else if (a === "--help" || a === "-h") throw new UsageError("");
    else if (a.startsWith("--")) throw new UsageError(`unknown option ${a}`);
    else if (args.source) throw new UsageError(`one archive at a time (got ${args.source} and ${a})`);
    else args.source = a;
  }
  if (!args.source) throw new UsageError("");
  return args;
}

function readJson(file: string, flag: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new UsageError(`${flag} ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

// ---- progress on stderr -----------------------------------------------------------------------

const live = new Map<string, string>();
let lastPrint = 0;
const tty = process.stderr.isTTY === true;

function progressLine(force = false): void {
  if (!force && Date.now() - lastPrint < (tty ? 200 : 5000)) return;
  lastPrint = Date.now();
  const line = [...live.values()].join("; ");
  if (!line) return;
  if (tty) process.stderr.write(`\r\x1b[K  … ${line}`);
  else process.stderr.write(`  … ${line}\n`);
}

function clearProgress(): void {
  if (tty) process.stderr.write("\r\x1b[K");
}

function setProgress(check: CheckName, text: string | null): void {
  if (text === null) live.delete(check);
  else live.set(check, `${CHECK_TITLES[check]} ${text}`);
  progressLine();
}

const pct = (done: number, total: number): string => `${Math.floor((100 * done) / Math.max(1, total))} %`;

// ---- regeneration in worker threads -------------------------------------------------------------

/**
 * Check 2 with the field's pieces spread over worker threads, largest first, while the main thread
 * runs the other checks; once those are done (`mainFree`), the main thread takes pieces from the
 * same queue too, so no core idles at the end. The workers get the archive's field once as two
 * flat arrays, then each piece with its own archive rows.
 */
async function regenerateInWorkers(archive: AuditedArchive, threads: number, mainFree: Promise<void>): Promise<CheckResult> {
  const t0 = Date.now();
  let parts: RegenerationPart[];
  let field: Field;
  try {
    parts = regenerationPlan(archive);
    field = archiveField(archive).field;
  } catch (err) {
    if (!(err instanceof AuditMismatch)) throw err;
    return { check: "regeneration", ok: false, summary: err.message, mismatch: err.mismatch, ms: Date.now() - t0 };
  }
  const setup: ToWorker = { kind: "setup", G: archive.G, params: archive.params, day_seed: archive.day_seed, field: encodeField(field) };
  const rowsOf = (part: RegenerationPart): ArchiveTile[] => archive.tiles.slice(part.first, part.first + part.count);
  const queue = [...parts].sort((a, b) => b.count - a.count || a.ring - b.ring);
  const results = new Map<number, Mismatch | undefined>();
  const percent = new Map<number, number>();
  const show = (): void => {
    const running = [...percent].map(([ring, p]) => `${ring === 0 ? "initial" : `ring ${ring}`} ${p} %`);
    setProgress("regeneration", `${results.size}/${parts.length} pieces${running.length ? ` (${running.join(", ")})` : ""}`);
  };
  const onProgress = (ring: number, done: number, total: number): void => {
    percent.set(ring, Math.floor((100 * done) / Math.max(1, total)));
    show();
  };
  const finish = (ring: number, mismatch: Mismatch | undefined): void => {
    percent.delete(ring);
    results.set(ring, mismatch);
    show();
  };
  const workerCount = Math.max(1, Math.min(threads, parts.length));
  let inMain = 0;
  const workers = Array.from({ length: workerCount }, async () => {
    const worker = new Worker(new URL("./audit-worker.ts", import.meta.url), { execArgv: ["--import", "tsx"], resourceLimits: WORKER_LIMITS });
    try {
      worker.postMessage(setup);
      for (let part = queue.shift(); part; part = queue.shift()) {
        const current = part;
        const mismatch = await new Promise<Mismatch | undefined>((resolve, reject) => {
          const onMessage = (m: FromWorker): void => {
            if (m.kind === "progress") return onProgress(m.ring, m.done, m.total);
            worker.off("message", onMessage);
            worker.off("error", reject);
            resolve(m.mismatch);
          };
          worker.on("message", onMessage);
          worker.once("error", reject);
          worker.postMessage({ kind: "part", part: current, rows: rowsOf(current) } satisfies ToWorker);
        });
        finish(current.ring, mismatch);
      }
    } finally {
      await worker.terminate();
    }
  });
  const main = mainFree.then(async () => {
    // Between steps, let the event loop hand the workers their next pieces.
    const pause = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    for (let part = queue.shift(); part; part = queue.shift()) {
      const current = part;
      inMain++;
      let mismatch: Mismatch | undefined;
      try {
        await regeneratePiece({ G: archive.G, params: archive.params, day_seed: archive.day_seed, field, rows: rowsOf(current) }, current, {
          progress: (done, total) => onProgress(current.ring, done, total),
          pause,
        });
      } catch (err) {
        mismatch = err instanceof AuditMismatch ? err.mismatch : { message: `the check could not run: ${err instanceof Error ? err.message : String(err)}` };
      }
      finish(current.ring, mismatch);
    }
  });
  // A worker that cannot run says nothing about the archive: the audit stops as a setup problem (exit 2).
  await Promise.all([...workers, main]).catch((err: unknown) => {
    throw new SetupError(
      `the regeneration's worker threads could not run (${err instanceof Error ? err.message : String(err)}); run the auditor through \`npm run audit\`, or with --threads 0`,
    );
  });
  setProgress("regeneration", null);
  const failed = [...results.entries()].filter(([, m]) => m).sort((a, b) => a[0] - b[0])[0];
  const ms = Date.now() - t0;
  if (failed) return { check: "regeneration", ok: false, summary: failed[1]!.message, mismatch: failed[1]!, ms };
  const helpers = `${counted(workerCount, "worker thread")}${inMain > 0 ? ` and the main thread (${counted(inMain, "piece")})` : ""}`;
  return { check: "regeneration", ok: true, summary: `${regenerationSummary(parts)}; ${helpers}`, ms };
}

// ---- report -----------------------------------------------------------------------------------

function printCheck(result: CheckResult, index: number): void {
  clearProgress();
  const title = `[${index}/5] ${CHECK_TITLES[result.check]}`.padEnd(20, " ");
  const time = result.ms >= 1000 ? `${(result.ms / 1000).toFixed(1)} s` : `${result.ms} ms`;
  process.stdout.write(`${title} ${result.ok ? "ok  " : "FAIL"}  ${result.summary}  (${time})\n`);
}

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError) && !(err instanceof Error)) throw err;
    process.stderr.write(`${err.message ? `${err.message}\n` : ""}${USAGE}\n`);
    return 2;
  }
  const t0 = Date.now();
  let archive: AuditedArchive;
  try {
    archive = await readBytes(await fetchBytes(args.source));
  } catch (err) {
    if (!(err instanceof ArchiveFormatError) && !(err instanceof UnreadableSource)) throw err;
    // Unreadable (no file, no answer): 2. Read but not a well-formed archive (truncated, malformed): a failed check, 1.
    const unreadable = err instanceof UnreadableSource;
    if (args.json) process.stdout.write(`${JSON.stringify({ ok: false, error: err.message })}\n`);
    else if (unreadable) process.stderr.write(`audit: ${err.message}\n`);
    else process.stdout.write(`FAIL: reading: ${err.message}\n`);
    return unreadable ? 2 : 1;
  }
  const readMs = Date.now() - t0;
  const grows = growEvents(archive.events).length;
  if (!args.json) {
    process.stdout.write(
      `mosaic audit: ${archive.game_id} (G=${archive.G}, ${archive.tiles.length} tiles, ${counted(grows, "ring")}, ${archive.events.length} events), read in ${(readMs / 1000).toFixed(1)} s\n`,
    );
  }
  const wanted = (c: CheckName): boolean => !args.only || args.only.includes(c);
  const done: Partial<Record<CheckName, Promise<CheckResult>>> = {};
  let mainFree = (): void => {};
  const whenMainFree = new Promise<void>((resolve) => (mainFree = resolve));
  if (wanted("regeneration") && args.threads > 0) done.regeneration = regenerateInWorkers(archive, args.threads, whenMainFree);
  let index = 0;
  const report: AuditReport = await auditArchive(archive, args.saved, {
    only: args.only,
    failFast: args.failFast,
    done,
    progress: (check, d, total) => setProgress(check, d >= total ? null : pct(d, total)),
    onLocalDone: mainFree,
    hashing: nodeHashing,
    onCheck: (result) => {
      index = CHECKS.indexOf(result.check) + 1;
      live.delete(result.check);
      if (!args.json) printCheck(result, index);
    },
  });
  clearProgress();
  const totalMs = Date.now() - t0;
  const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  if (args.json) {
    const cpu = process.cpuUsage();
    const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
    process.stdout.write(`${JSON.stringify({ ...report, read_ms: readMs, total_ms: totalMs, cpu_ms: cpuMs, max_rss_mb: maxRssMb })}\n`);
  } else if (report.ok) {
    const skipped = CHECKS.filter((c) => !report.checks.some((r) => r.check === c));
    const notRun = skipped.length ? `; not run: ${skipped.join(", ")}` : "";
    process.stdout.write(`PASS: ${report.checks.length} checks hold${notRun} (${(totalMs / 1000).toFixed(1)} s, peak memory ${maxRssMb} MB)\n`);
  } else {
    const f = report.first!;
    const where = [f.tile !== undefined ? `tile ${f.tile}` : "", f.rev !== undefined ? `event ${f.rev}` : "", f.field ? `field ${f.field}` : ""].filter(Boolean).join(", ");
    process.stdout.write(`FAIL: ${CHECK_TITLES[f.check]}: ${f.message}${where ? ` [${where}]` : ""}\n`);
  }
  return report.ok ? 0 : 1;
}

/** The auditor could not do its work (not a verdict on the archive): exit 2 with the message alone. */
class SetupError extends Error {}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`audit: ${err instanceof SetupError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(2);
  },
);
