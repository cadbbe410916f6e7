/**
 * The auditor's words, shared by its hosts: the command prints them, the replay page shows them,
 * so a mismatch reads the same wherever the day is audited.
 */
import type { AuditReport } from "./audit";
import { CHECK_TITLES, CHECKS, type CheckResult, type Mismatch } from "./mismatch";

/** `[2/5] regeneration   ok    <summary>  (1.2 s)`: one check's line. */
export function checkLine(result: CheckResult): string {
  const title = `[${CHECKS.indexOf(result.check) + 1}/5] ${CHECK_TITLES[result.check]}`.padEnd(20, " ");
  return `${title} ${result.ok ? "ok  " : "FAIL"}  ${result.summary}  (${duration(result.ms)})`;
}

/** Where a mismatch is, as the verdict names it: `tile 3, event 12, field hash`. */
export function mismatchPlace(m: Mismatch): string {
  return [m.tile !== undefined ? `tile ${m.tile}` : "", m.rev !== undefined ? `event ${m.rev}` : "", m.field ? `field ${m.field}` : ""].filter(Boolean).join(", ");
}

/**
 * The verdict: `PASS: 5 checks hold` (naming the checks not run), or the first mismatch,
 * `FAIL: tile hashes: tile 3: hash differs … [tile 3, field hash]`. The command adds its time and memory to a pass.
 */
export function verdictLine(report: AuditReport): string {
  if (report.ok) {
    const skipped = CHECKS.filter((c) => !report.checks.some((r) => r.check === c));
    return `PASS: ${report.checks.length} checks hold${skipped.length ? `; not run: ${skipped.join(", ")}` : ""}`;
  }
  const f = report.first;
  if (!f) return "FAIL: not every check ran";
  const where = mismatchPlace(f);
  return `FAIL: ${CHECK_TITLES[f.check]}: ${f.message}${where ? ` [${where}]` : ""}`;
}

/** An archive read but not a well-formed mosaic-archive-v1 (cut short, malformed). */
export function readingFailureLine(message: string): string {
  return `FAIL: reading: ${message}`;
}

export function duration(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}
