/**
 * The replay page's auditor, off the main thread: the whole of `npm run audit` (src/daily/audit)
 * in a Web Worker. The page sends the archive's bytes, then asks for runs (with the heads the
 * reader pasted) and cancels; this worker reads the archive once, runs the five checks and starts
 * the regeneration's own Web Workers (this same script, one per core the browser reports), which
 * regenerate the field's pieces while the checks run here.
 *
 * A worker started by another one gets the field first (`setup`): it is a regeneration worker.
 */
import { auditArchive } from "../../daily/audit/audit";
import { isAbort } from "../../daily/audit/abort";
import type { AuditedArchive } from "../../daily/audit/event-log";
import type { CheckName } from "../../daily/audit/mismatch";
import { channelPieceWorker, pieceWorkerEndpoint, type FromPieceWorker, type ToPieceWorker, type WorkerChannel } from "../../daily/audit/piece-protocol";
import { ArchiveFormatError, readArchive } from "../../daily/audit/read-archive";
import { growEvents } from "../../daily/audit/event-log";
import { PieceRunnerError, type PieceRunner } from "../../daily/audit/regeneration-pool";
import { checkLine, readingFailureLine, verdictLine } from "../../daily/audit/report-text";
import type { NotedHead } from "../../daily/audit/saved";
import { releaseBytes } from "../../text/bytes";
import type { FromAuditor, ToAuditor } from "./audit-messages";

/** The worker's global scope, as far as this file uses it (the site compiles with DOM types only). */
interface WorkerScope {
  location: { href: string };
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
}
const scope = self as unknown as WorkerScope;

let role: "auditor" | "pieces" | null = null;
let pieces: ((message: ToPieceWorker) => void) | null = null;
let archive: AuditedArchive | null = null;
let running: AbortController | null = null;

const say = (message: FromAuditor): void => scope.postMessage(message);

scope.onmessage = (event: MessageEvent) => {
  const message = event.data as ToAuditor | ToPieceWorker;
  if (role === null) role = message.kind === "setup" ? "pieces" : "auditor";
  if (role === "pieces") {
    pieces ??= pieceWorkerEndpoint((m: FromPieceWorker) => scope.postMessage(m));
    return pieces(message as ToPieceWorker);
  }
  const m = message as ToAuditor;
  if (m.kind === "open") void open(m.bytes);
  else if (m.kind === "run") void run(m.run, m.heads, m.workers);
  else if (m.kind === "cancel") running?.abort();
};

let opened: Promise<boolean> = Promise.resolve(false);

/** A yield between generation steps without the clamping of nested zero timeouts (≥ 4 ms each). */
const yieldChannel = new MessageChannel();
const yieldQueue: Array<() => void> = [];
yieldChannel.port1.onmessage = () => yieldQueue.shift()?.();
function yieldToMessages(): Promise<void> {
  return new Promise((resolve) => {
    yieldQueue.push(resolve);
    yieldChannel.port2.postMessage(null);
  });
}

function open(bytes: Uint8Array): Promise<boolean> {
  opened = (async () => {
    const t0 = Date.now();
    try {
      archive = await readArchive(bytes);
    } catch (err) {
      if (!(err instanceof ArchiveFormatError)) throw err;
      say({ kind: "unreadable", line: readingFailureLine(err.message) });
      return false;
    } finally {
      // Read once and kept as text: the bytes (tens of MB) are freed now, not at this worker's
      // first full collection, which comes only after the replay check, near the page's peak.
      releaseBytes(bytes);
    }
    say({ kind: "read", ms: Date.now() - t0, tiles: archive.tiles.length, events: archive.events.length, rings: growEvents(archive.events).length });
    return true;
  })();
  return opened;
}

/**
 * The regeneration on one thread per core the browser reports: this worker and `cores - 1` more
 * (this script again, given the field and then one piece at a time). This worker runs the other
 * checks first, then takes queued pieces like the others: the cores stay busy to the end, and one
 * JavaScript heap fewer keeps a full day's page under 1 GB.
 */
function webWorkerRunner(cores: number): PieceRunner {
  return {
    workers: Math.max(0, cores - 1),
    helpWhenFree: true,
    noun: "Web Worker",
    self: "the audit's own worker",
    pause: yieldToMessages,
    start: (setup) => {
      const worker = new Worker(scope.location.href, { name: "mosaic-audit-regeneration" });
      const channel: WorkerChannel = {
        send: (message) => worker.postMessage(message),
        listen: (onMessage, onError) => {
          worker.onmessage = (e: MessageEvent) => onMessage(e.data as FromPieceWorker);
          worker.onerror = (e: ErrorEvent) => {
            e.preventDefault();
            onError(e.message || "a Web Worker of the regeneration failed");
          };
        },
        terminate: () => worker.terminate(),
      };
      return channelPieceWorker(channel, setup);
    },
  };
}

async function run(id: number, heads: NotedHead[], workers: number): Promise<void> {
  const say = (message: FromAuditor): void => scope.postMessage({ ...message, run: id });
  running?.abort();
  const controller = new AbortController();
  running = controller;
  if (!(await opened) || !archive) return;
  if (controller.signal.aborted) return say({ kind: "cancelled" });
  // Progress at most 10 times a second per check: the page redraws at 4 Hz.
  const lastSent = new Map<CheckName, number>();
  try {
    const report = await auditArchive(archive, { heads }, {
      signal: controller.signal,
      regeneration: webWorkerRunner(workers),
      progress: (check, done, total, detail) => {
        const now = Date.now();
        if (done < total && now - (lastSent.get(check) ?? 0) < 100) return;
        lastSent.set(check, now);
        say({ kind: "progress", check, done, total, detail });
      },
      onCheck: (result) => say({ kind: "check", result, line: checkLine(result) }),
    });
    say({ kind: "done", report, verdict: verdictLine(report) });
  } catch (err) {
    if (isAbort(err, controller.signal)) say({ kind: "cancelled" });
    else if (err instanceof PieceRunnerError) say({ kind: "error", message: `the regeneration's Web Workers could not run: ${err.message}` });
    else say({ kind: "error", message: err instanceof Error ? err.message : String(err) });
  } finally {
    if (running === controller) running = null;
  }
}
