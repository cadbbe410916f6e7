/**
 * The page's side of the in-browser audit: starts the audit worker (audit-worker.ts) with the
 * archive's bytes, runs the five checks, follows their progress with an estimate of the time
 * left, cancels and restarts. The main thread only keeps this state: every check runs in workers.
 */
import { CHECKS, type CheckName, type CheckResult } from "../../daily/audit/mismatch";
import type { NotedHead } from "../../daily/audit/saved";
import { TimeLeft } from "../../daily/audit/time-left";
import type { FromAuditor, ToAuditor } from "./audit-messages";

export interface StepState {
  check: CheckName;
  status: "waiting" | "running" | "passed" | "failed" | "not run";
  done: number;
  total: number;
  detail?: string;
  /** Milliseconds left, when there is enough progress to tell. */
  left: number | null;
  result?: CheckResult;
  /** The command's line for this check once it is done. */
  line?: string;
}

export type AuditPhase = "reading" | "running" | "passed" | "failed" | "cancelled" | "unreadable" | "error";

export interface AuditState {
  phase: AuditPhase;
  steps: StepState[];
  /** The verdict as the command prints it (`PASS: 5 checks hold`, `FAIL: …`), once there is one. */
  verdict?: string;
  /** Why the audit could not run (phase "error"). */
  error?: string;
  heads: NotedHead[];
  startedAt: number;
  endedAt?: number;
  /** Regeneration workers started (one per core the browser reports). */
  workers: number;
}

/** How long a cancel may take before the worker is stopped outright. */
const CANCEL_GRACE_MS = 1500;

export class BrowserAudit {
  state: AuditState;
  private worker: Worker | null = null;
  private readonly timeLeft = new TimeLeft();
  private cancelTimer = 0;
  private runId = 0;

  constructor(
    /** The archive's bytes as downloaded: handed over to the worker (the page keeps no copy). */
    private bytes: Uint8Array | null,
    private readonly onChange: (state: AuditState) => void,
    private readonly workerUrl: URL,
    /** The bytes again, for a worker started after one was stopped outright (the browser's cache usually has them). */
    private readonly download: () => Promise<Uint8Array>,
  ) {
    this.state = this.fresh([], "reading");
  }

  /** Runs the five checks (again), with the heads the reader noted. */
  start(heads: NotedHead[] = []): void {
    // Bytes that are not an archive stay so: nothing to run again.
    if (this.worker && this.state.phase === "unreadable") return;
    window.clearTimeout(this.cancelTimer);
    const workers = Math.max(1, Math.min(16, navigator.hardwareConcurrency || 1));
    if (!this.worker) {
      this.worker = new Worker(this.workerUrl, { name: "mosaic-audit" });
      this.worker.onmessage = (e: MessageEvent) => this.receive(e.data as FromAuditor);
      this.worker.onerror = (e: ErrorEvent) => {
        e.preventDefault();
        this.end("error", { error: e.message || "the audit worker failed" });
        this.stopWorker();
      };
      this.state = this.fresh(heads, "reading", workers);
      const run = ++this.runId;
      const worker = this.worker;
      // Transferred, not copied: a full day's bytes are tens of MB, and the page does not need them again.
      const bytes = this.bytes ? Promise.resolve(this.bytes) : this.download();
      this.bytes = null;
      bytes.then(
        (b) => {
          if (this.worker !== worker) return;
          this.send({ kind: "open", bytes: b }, [b.buffer]);
          this.send({ kind: "run", run, heads, workers });
        },
        (err: Error) => this.end("error", { error: `the archive could not be downloaded again: ${err.message}` }),
      );
    } else {
      this.state = this.fresh(heads, "running", workers);
      this.send({ kind: "run", run: ++this.runId, heads, workers });
    }
    this.timeLeft.reset();
    this.onChange(this.state);
  }

  cancel(): void {
    if (!this.running) return;
    this.send({ kind: "cancel" });
    // A worker deep in a step it cannot leave is stopped: the next start reads the archive anew.
    this.cancelTimer = window.setTimeout(() => {
      this.stopWorker();
      this.end("cancelled");
    }, CANCEL_GRACE_MS);
  }

  get running(): boolean {
    return this.state.phase === "reading" || this.state.phase === "running";
  }

  private fresh(heads: NotedHead[], phase: AuditPhase, workers = 0): AuditState {
    return {
      phase,
      heads,
      workers,
      startedAt: performance.now(),
      steps: CHECKS.map((check) => ({ check, status: "waiting", done: 0, total: 0, left: null })),
    };
  }

  private send(message: ToAuditor, transfer: Transferable[] = []): void {
    this.worker?.postMessage(message, transfer);
  }

  private step(check: CheckName): StepState {
    return this.state.steps.find((s) => s.check === check)!;
  }

  private receive(m: FromAuditor): void {
    if (!this.running || (m.run !== undefined && m.run !== this.runId)) return;
    switch (m.kind) {
      case "read":
        this.state.phase = "running";
        break;
      case "unreadable":
        this.end("unreadable", { verdict: m.line });
        return;
      case "progress": {
        const s = this.step(m.check);
        if (s.status === "passed" || s.status === "failed") break;
        Object.assign(s, { status: "running", done: m.done, total: m.total, detail: m.detail, left: this.timeLeft.update(m.check, m.done, m.total, performance.now()) });
        break;
      }
      case "check": {
        const s = this.step(m.result.check);
        Object.assign(s, { status: m.result.ok ? "passed" : "failed", result: m.result, line: m.line, left: 0, done: s.total || 1, total: s.total || 1 });
        break;
      }
      case "done":
        for (const s of this.state.steps) if (s.status !== "passed" && s.status !== "failed") s.status = "not run";
        this.end(m.report.ok && this.state.steps.every((s) => s.status === "passed") ? "passed" : "failed", { verdict: m.verdict });
        return;
      case "cancelled":
        this.end("cancelled");
        return;
      case "error":
        this.end("error", { error: m.message });
        return;
    }
    this.onChange(this.state);
  }

  private end(phase: AuditPhase, extra: Partial<AuditState> = {}): void {
    window.clearTimeout(this.cancelTimer);
    if (phase === "cancelled" || phase === "error") for (const s of this.state.steps) if (s.status === "waiting" || s.status === "running") s.status = "not run";
    Object.assign(this.state, { phase, endedAt: performance.now() }, extra);
    this.onChange(this.state);
  }

  private stopWorker(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}
