/** What the replay page and its audit worker say to each other (audit-worker.ts, audit-client.ts). */
import type { AuditReport } from "../../daily/audit/audit";
import type { CheckName, CheckResult } from "../../daily/audit/mismatch";
import type { NotedHead } from "../../daily/audit/saved";

export type ToAuditor =
  /** The archive's bytes (gzip or not), read once and kept for every run. */
  | { kind: "open"; bytes: Uint8Array }
  /** A run, numbered by the page: what the worker says about it carries the number (`run`). */
  /** `workers`: the threads that regenerate (the cores the browser reports): the audit's worker and `workers - 1` more. */
  | { kind: "run"; run: number; heads: NotedHead[]; workers: number }
  | { kind: "cancel" };

export type FromAuditor = (

  | { kind: "read"; ms: number; tiles: number; events: number; rings: number }
  /** Bytes that are not a well-formed archive: the verdict, worded as the command words it. */
  | { kind: "unreadable"; line: string }
  | { kind: "progress"; check: CheckName; done: number; total: number; detail?: string }
  | { kind: "check"; result: CheckResult; line: string }
  | { kind: "done"; report: AuditReport; verdict: string }
  | { kind: "cancelled" }
  /** The audit could not run (its workers would not start, say): no verdict on the archive. */
  | { kind: "error"; message: string }
) & { run?: number };
