/**
 * The audit as the replay shows it: a line in the replay bar (what is running, or the verdict)
 * and the "Audit" tab, one row per step of SPEC §9 with its progress, the time it has left and
 * what it verified or found, the heads the reader noted, Cancel and Verify again. "Verified"
 * appears only when all five steps passed.
 */
import { CHECK_TITLES, type CheckName } from "../../daily/audit/mismatch";
import { duration } from "../../daily/audit/report-text";
import { parseHead, type NotedHead } from "../../daily/audit/saved";
import { timeLeftText } from "../../daily/audit/time-left";
import { el, throttle } from "../dom";
import type { AuditState, StepState } from "./audit-client";

const WHAT: Record<CheckName, string> = {
  commitments: "the released seed and key against the commitments published before play",
  regeneration: "the field regenerated from the seed, ring by ring, tile for tile",
  hashes: "every tile's HMAC against the hash published with it",
  chain: "the log's hash chain from the seed commitment to its head, and the heads you noted",
  replay: "the log replayed through the referee: every verdict, reward, score and health",
};

export class AuditPanel {
  readonly root: HTMLElement;
  /** The one-line summary for the replay bar (tap to unfold on a phone). */
  readonly line: HTMLElement;
  private readonly rows = new Map<CheckName, { row: HTMLElement; status: HTMLElement; bar: HTMLProgressElement; text: HTMLElement }>();
  private readonly verdict: HTMLElement;
  private readonly heads: HTMLTextAreaElement;
  private readonly headsError: HTMLElement;
  private readonly action: HTMLButtonElement;
  private state: AuditState | null = null;
  /** Redraws at most 4 times a second: progress arrives faster. */
  readonly refresh = throttle(() => this.render(), 250);

  constructor(
    private readonly onStart: (heads: NotedHead[]) => void,
    private readonly onCancel: () => void,
  ) {
    this.line = el("div", { class: "verify pending", role: "status", text: "Auditing the archive…" });
    this.line.addEventListener("click", () => this.line.classList.toggle("expanded"));
    const list = el("ol", { class: "audit-steps" });
    for (const check of ["commitments", "regeneration", "hashes", "chain", "replay"] as CheckName[]) {
      const status = el("span", { class: "audit-status" });
      const bar = el("progress", { max: 1, value: 0, "aria-label": `${CHECK_TITLES[check]} progress` });
      const text = el("p", { class: "audit-text" });
      const row = el("li", { class: "audit-step waiting", "data-check": check }, el("div", { class: "audit-title" }, el("strong", { text: CHECK_TITLES[check] }), status), el("p", { class: "audit-what", text: WHAT[check] }), bar, text);
      this.rows.set(check, { row, status, bar, text });
      list.append(row);
    }
    this.verdict = el("p", { class: "audit-verdict" });
    this.heads = el("textarea", { id: "audit-heads", rows: 2, spellcheck: false, placeholder: "hash@revision, one per line" });
    this.headsError = el("p", { class: "audit-heads-error", hidden: true });
    this.action = el("button", { type: "button", class: "btn", text: "Cancel" });
    this.action.addEventListener("click", () => (this.state && (this.state.phase === "reading" || this.state.phase === "running") ? this.onCancel() : this.restart()));
    this.root = el(
      "section",
      { class: "audit", "aria-label": "Audit of the archive" },
      el("p", { class: "note", text: "The auditor of SPEC §9, the same code as npm run audit, run here in Web Workers on the archive alone: nothing else is fetched." }),
      this.verdict,
      list,
      el("label", { class: "audit-heads-label", for: "audit-heads", text: "Log heads you noted during the day (the header's copy button gives hash@revision); the chain must pass through each:" }),
      this.heads,
      this.headsError,
      el("div", { class: "audit-actions" }, this.action),
    );
  }

  update(state: AuditState): void {
    this.state = state;
    // The end of a run is drawn at once; progress at the throttled pace.
    if (state.phase === "reading" || state.phase === "running") this.refresh();
    else this.render();
  }

  /** Runs again with the heads in the box (refused with a message when one is not hash@revision). */
  private restart(): void {
    const lines = this.heads.value.split(/[\s,]+/).filter(Boolean);
    const heads: NotedHead[] = [];
    for (const line of lines) {
      try {
        heads.push(parseHead(line));
      } catch (err) {
        this.headsError.hidden = false;
        this.headsError.textContent = (err as Error).message;
        return;
      }
    }
    this.headsError.hidden = true;
    this.onStart(heads);
  }

  private render(): void {
    const s = this.state;
    if (!s) return;
    const busy = s.phase === "reading" || s.phase === "running";
    this.action.textContent = busy ? "Cancel" : "Verify again";
    for (const step of s.steps) this.renderStep(step, s);
    const passed = s.steps.filter((x) => x.status === "passed").map((x) => CHECK_TITLES[x.check]);
    const failed = s.steps.filter((x) => x.status === "failed").map((x) => CHECK_TITLES[x.check]);
    const took = s.endedAt !== undefined ? ` in ${duration(s.endedAt - s.startedAt)}` : "";
    let line: string;
    let cls: "ok" | "bad" | "pending";
    switch (s.phase) {
      case "passed":
        line = `✓ Verified in this browser: all five checks passed${took} (regenerated on ${s.workers} core${s.workers === 1 ? "" : "s"}).`;
        cls = "ok";
        break;
      case "failed":
        line = `✗ Tampered or corrupt archive: ${s.verdict ?? "a check failed"}`;
        cls = "bad";
        break;
      case "unreadable":
        line = `✗ Tampered or corrupt archive: ${s.verdict ?? "it cannot be read"}`;
        cls = "bad";
        break;
      case "cancelled":
        line = `Audit cancelled: not verified (${passed.length ? `passed so far: ${passed.join(", ")}` : "no check finished"}). Verify again in the Audit tab.`;
        cls = "pending";
        break;
      case "error":
        line = `The audit could not run: ${s.error ?? "unknown error"}. Not verified.`;
        cls = "bad";
        break;
      default: {
        const left = Math.max(0, ...s.steps.map((x) => (x.status === "running" || x.status === "waiting" ? (x.left ?? 0) : 0)));
        const doing = s.steps.filter((x) => x.status === "running").map((x) => `${CHECK_TITLES[x.check]} ${percent(x)}`);
        line = s.phase === "reading" ? "Auditing: reading the archive…" : `Auditing (${passed.length} of 5 passed${failed.length ? `, ${failed.length} failed` : ""}): ${doing.join(", ") || "starting"}${left > 0 ? ` · ${timeLeftText(left)}` : ""}`;
        cls = failed.length ? "bad" : "pending";
      }
    }
    // While it runs the line keeps one height (one line, cut with an ellipsis): a line that wrapped
    // anew with each redraw would resize the field's canvas below it 4 times a second.
    this.line.className = `verify ${cls}${busy ? " running" : ""}${this.line.classList.contains("expanded") ? " expanded" : ""}`;
    if (this.line.textContent !== line) this.line.textContent = line;
    this.verdict.className = `audit-verdict ${cls}`;
    const summary = busy ? line : s.phase === "passed" ? `${line} ${s.verdict ?? ""}` : s.phase === "failed" || s.phase === "unreadable" ? (s.verdict ?? line) : line;
    if (this.verdict.textContent !== summary) this.verdict.textContent = summary;
  }

  private renderStep(step: StepState, s: AuditState): void {
    const r = this.rows.get(step.check)!;
    r.row.className = `audit-step ${step.status.replace(" ", "-")}`;
    r.bar.max = Math.max(1, step.total);
    r.bar.value = step.status === "passed" || step.status === "failed" ? r.bar.max : step.done;
    let status: string;
    if (step.status === "running") status = `${percent(step)}${step.left !== null && step.left > 0 ? ` · ${timeLeftText(step.left)}` : ""}`;
    else if (step.status === "passed") status = `✓ passed${step.result ? ` (${duration(step.result.ms)})` : ""}`;
    else if (step.status === "failed") status = "✗ failed";
    else if (step.status === "not run") status = s.phase === "cancelled" ? "cancelled" : "not run";
    else status = s.phase === "reading" ? "waiting for the archive" : "waiting";
    if (r.status.textContent !== status) r.status.textContent = status;
    const text = step.result ? (step.result.ok ? step.result.summary : `FAIL: ${step.result.summary}`) : (step.detail ?? "");
    if (r.text.textContent !== text) r.text.textContent = text;
  }
}

function percent(step: StepState): string {
  return `${Math.floor((100 * step.done) / Math.max(1, step.total))} %`;
}
