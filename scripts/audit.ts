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
import { growEvents, type AuditedArchive } from "../src/daily/audit/event-log";
import { auditArchive, type AuditReport } from "../src/daily/audit/audit";
import { CHECK_TITLES, CHECKS, type CheckName, type CheckResult } from "../src/daily/audit/mismatch";
import { channelPieceWorker, type WorkerChannel } from "../src/daily/audit/piece-protocol";
import { ArchiveFormatError } from "../src/daily/audit/read-archive";
import { fetchBytes, nodeHashing, readBytes, UnreadableSource } from "./archive-input";
import { PieceRunnerError, type PieceRunner } from "../src/daily/audit/regeneration-pool";
import { checkLine, readingFailureLine, verdictLine } from "../src/daily/audit/report-text";
import { hashesGameId, parseHashes, parseHead, parseManifest, type SavedInputs } from "../src/daily/audit/saved";
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
 * The shared regeneration pool (src/daily/audit/regeneration-pool.ts) on worker threads: the
 * pieces spread over them, largest first, while the main thread runs the other checks; once those
 * are done, the main thread takes queued pieces too, so no core idles at the end.
 */
function threadRunner(threads: number): PieceRunner {
  return {
    workers: threads,
    helpWhenFree: true,
    noun: "worker thread",
    self: "the main thread",
    // Between steps, let the event loop hand the workers their next pieces.
    pause: () => new Promise((resolve) => setImmediate(resolve)),
    start: (setup) => {
      const worker = new Worker(new URL("./audit-worker.ts", import.meta.url), { execArgv: ["--import", "tsx"], resourceLimits: WORKER_LIMITS });
      const channel: WorkerChannel = {
        send: (message) => worker.postMessage(message),
        listen: (onMessage, onError) => {
          worker.on("message", onMessage);
          worker.on("error", (err) => onError(err.message));
          worker.on("exit", (code) => onError(`a worker thread stopped (exit code ${code})`));
        },
        terminate: () => worker.terminate(),
      };
      return channelPieceWorker(channel, setup);
    },
  };
}

// ---- report -----------------------------------------------------------------------------------

function printCheck(result: CheckResult): void {
  clearProgress();
  process.stdout.write(`${checkLine(result)}\n`);
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
    else process.stdout.write(`${readingFailureLine(err.message)}\n`);
    return unreadable ? 2 : 1;
  }
  const readMs = Date.now() - t0;
  const grows = growEvents(archive.events).length;
  if (!args.json) {
    process.stdout.write(
      `mosaic audit: ${archive.game_id} (G=${archive.G}, ${archive.tiles.length} tiles, ${counted(grows, "ring")}, ${archive.events.length} events), read in ${(readMs / 1000).toFixed(1)} s\n`,
    );
  }
  const report: AuditReport = await auditArchive(archive, args.saved, {
    only: args.only,
    failFast: args.failFast,
    regeneration: args.threads > 0 ? threadRunner(args.threads) : undefined,
    progress: (check, d, total, detail) => setProgress(check, d >= total ? null : (detail ?? pct(d, total))),
    hashing: nodeHashing,
    onCheck: (result) => {
      live.delete(result.check);
      if (!args.json) printCheck(result);
    },
  }).catch((err: unknown) => {
    // A worker that cannot run says nothing about the archive: the audit stops as a setup problem (exit 2).
    if (!(err instanceof PieceRunnerError)) throw err;
    throw new SetupError(
      `the regeneration's worker threads could not run (${err.message}); run the auditor through \`npm run audit\`, or with --threads 0`,
    );
  });
  clearProgress();
  const totalMs = Date.now() - t0;
  const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  if (args.json) {
    const cpu = process.cpuUsage();
    const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
    process.stdout.write(`${JSON.stringify({ ...report, read_ms: readMs, total_ms: totalMs, cpu_ms: cpuMs, max_rss_mb: maxRssMb })}\n`);
  } else if (report.ok) {
    process.stdout.write(`${verdictLine(report)} (${(totalMs / 1000).toFixed(1)} s, peak memory ${maxRssMb} MB)\n`);
  } else {
    process.stdout.write(`${verdictLine(report)}\n`);
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
