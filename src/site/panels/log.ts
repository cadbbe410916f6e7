import { append, el, formatTime } from "../dom";
import type { PublicEvent } from "../../spectator";
import { died, meetings, verdicts } from "../events";
import { logSummary } from "./log-summary";
import { machineColour, machineOf } from "../palette";

const MAX_ROWS = 400;
/** At most one spoken summary per this many milliseconds, however fast lines come. */
const ANNOUNCE_EVERY_MS = 15_000;
/** Lines arriving after a quiet spell are gathered this long before the summary is spoken. */
const GATHER_MS = 2_000;
/** Spoken summaries kept in the region (older ones are never read again). */
const KEEP_SUMMARIES = 3;

/**
 * The public log as a scrolling list: one line per event with its time, agent, what it did, the
 * intent verbatim as text, and its verdict counts. Keeps the newest rows only; stays scrolled to
 * the bottom unless the reader scrolled up.
 *
 * The list is a plain, focusable `<ol>` (keyboard scrolling, list semantics), not a live region:
 * at up to ten batches a second, a line-by-line live region floods a screen reader. On the live
 * page, new lines are instead summed up in one sentence at most every 15 s (`logSummary`) in a
 * polite `role="log"` region, while the Log tab is open; "announce" turns that off.
 */
export class LogPanel {
  readonly root: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly announce: HTMLInputElement;
  private readonly news: HTMLElement;
  private pending: PublicEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private spokenAt = -Infinity;
  nameOf: (machine: string) => string = (m) => m;
  /** Whether the list follows the newest line: true until the reader scrolls up, again once back at the bottom. */
  private following = true;

  /** `announce`: whether added lines are summed up for screen readers (the live page; a replay's lines follow the reader's own scrubbing). */
  constructor(options: { announce?: boolean } = {}) {
    const announcing = options.announce ?? true;
    this.list = el("ol", { class: "log-list", "aria-label": "Intents and events, newest last", tabindex: 0 });
    this.announce = el("input", { type: "checkbox", id: "log-announce", checked: announcing });
    this.news = el("div", { class: "visually-hidden", role: "log", "aria-live": announcing ? "polite" : "off", "aria-label": "New log lines, summed up" });
    this.announce.addEventListener("change", () => {
      this.news.setAttribute("aria-live", this.announce.checked ? "polite" : "off");
      this.pending = [];
    });
    const toggle = el("label", { class: "toggle", title: "Say a summary of new lines at most every 15 s" }, this.announce, " announce");
    this.root = el(
      "section",
      { class: "panel log-panel", "aria-labelledby": "log-title" },
      el("header", { class: "panel-head" }, el("h2", { id: "log-title", text: "Log" }), announcing ? toggle : ""),
      this.list,
      this.news,
    );
    // A hidden list has no height: only a visible one says whether the reader left the bottom.
    this.list.addEventListener("scroll", () => this.readFollowing());
  }

  /** Queues lines for the next summary: spoken after a short gather, then no sooner than ANNOUNCE_EVERY_MS after the last. */
  private queueSummary(events: readonly PublicEvent[]): void {
    if (!this.announce.checked) return;
    this.pending.push(...events);
    if (this.timer) return;
    const wait = Math.max(GATHER_MS, this.spokenAt + ANNOUNCE_EVERY_MS - performance.now());
    this.timer = setTimeout(() => this.speak(), wait);
  }

  private speak(): void {
    this.timer = null;
    const events = this.pending;
    this.pending = [];
    // Only while the Log tab is open: a hidden region is not read, and stale news is not news.
    if (!events.length || !this.announce.checked || this.root.closest("[hidden]") || !this.root.isConnected) return;
    this.news.append(el("p", { text: logSummary(events, this.nameOf) }));
    while (this.news.childElementCount > KEEP_SUMMARIES) this.news.firstElementChild?.remove();
    this.spokenAt = performance.now();
  }

  /** Whether a visible list sits at its newest line (a hidden one has no height and keeps what it knew). */
  private readFollowing(): void {
    if (this.list.clientHeight > 0) this.following = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
  }

  /** The panel is shown again: back to the newest line if the reader was following it. */
  shown(): void {
    if (this.following) this.list.scrollTop = this.list.scrollHeight;
  }

  clear(): void {
    this.list.replaceChildren();
    this.pending = [];
  }

  /**
   * Appends the events' lines (in order), trimming the oldest. Lines the list already shows are
   * skipped: live lines wait up to a quarter second in a batch, and the backfill fetched meanwhile
   * may have put the same revisions in first.
   */
  add(added: readonly PublicEvent[]): void {
    const last = Number(this.list.lastElementChild?.getAttribute("data-rev") ?? 0);
    const events = last > 0 ? added.filter((e) => e.rev > last) : added;
    if (!events.length) return;
    // Read now, not from the last scroll event: that fires a frame after the reader scrolled, and
    // lines arriving in between would pull them back down.
    this.readFollowing();
    const fragment = document.createDocumentFragment();
    for (const e of events.slice(-MAX_ROWS)) fragment.appendChild(this.row(e));
    this.list.appendChild(fragment);
    while (this.list.childElementCount > MAX_ROWS) this.list.firstElementChild?.remove();
    if (this.following) this.list.scrollTop = this.list.scrollHeight;
    if (this.news.getAttribute("aria-live") === "polite") this.queueSummary(events);
  }

  /** Older events shown above the current ones (the backfill when the page opens). */
  prepend(events: readonly PublicEvent[]): void {
    const first = Number(this.list.firstElementChild?.getAttribute("data-rev") ?? Infinity);
    const older = events.filter((e) => e.rev < first).slice(-MAX_ROWS);
    if (!older.length) return;
    const fragment = document.createDocumentFragment();
    for (const e of older) fragment.appendChild(this.row(e));
    this.list.insertBefore(fragment, this.list.firstChild);
    while (this.list.childElementCount > MAX_ROWS) this.list.firstElementChild?.remove();
    this.list.scrollTop = this.list.scrollHeight;
  }

  private agentChip(agent: string): HTMLElement {
    const machine = machineOf(agent);
    const session = agent.slice(machine.length + 1);
    const chip = el("span", { class: "agent", title: agent });
    chip.style.setProperty("--agent", machineColour(machine));
    chip.append(el("span", { class: "swatch", "aria-hidden": "true" }), this.nameOf(machine) + (session ? `/${session}` : ""));
    return chip;
  }

  private row(e: PublicEvent): HTMLLIElement {
    const li = el("li", { class: `ev ev-${e.type}`, "data-rev": e.rev });
    li.append(el("span", { class: "rev", text: `#${e.rev}` }), el("time", { class: "at", text: formatTime(e.at), datetime: new Date(e.at).toISOString() }));
    if ("agent" in e && e.agent) li.append(this.agentChip(e.agent));
    const v = verdicts(e);
    const what = el("span", { class: "what" });
    switch (e.type) {
      case "join":
        what.textContent = `joined (seed tile ${e.seed_tile ?? "none"}${e.model ? `, ${e.model}` : ""}${e.harness && e.harness !== "unknown" ? ` via ${e.harness}` : ""})`;
        break;
      case "reveal":
        what.textContent = `revealed tile ${String(e.tile)}${v.solved ? `, solved ${v.solved}` : ""}`;
        break;
      case "commit":
        what.textContent = "commit";
        break;
      case "retract":
        what.textContent = `retracted ${v.retracted}`;
        break;
      case "grow":
        what.textContent = `the field grew: ring ${String(e.ring)}, ${String(e.tiles)} tiles`;
        break;
      case "close":
        what.textContent = `the day closed: ${String(e.solved)} of ${String(e.tiles_total)} tiles solved`;
        break;
    }
    li.append(what);
    if ("intent" in e && e.intent) li.append(el("q", { class: "intent", text: e.intent }));
    if (e.type === "commit") {
      const counts = el("span", { class: "verdicts" });
      append(
        counts,
        el("span", { class: "ok", title: "accepted (forced / guess)", text: `✓${v.accepted}` }),
        v.accepted ? el("span", { class: "sub", text: ` (${v.forced}f/${v.guess}g)` }) : null,
        el("span", { class: v.rejected ? "bad" : "zero", title: "rejected", text: ` ✗${v.rejected}` }),
        v.ignored ? el("span", { class: "zero", title: "ignored", text: ` ·${v.ignored}` }) : null,
        v.unevaluated ? el("span", { class: "zero", title: "unevaluated", text: ` …${v.unevaluated}` }) : null,
        v.solved ? el("span", { class: "solved", title: "tiles solved", text: ` ■${v.solved}` }) : null,
        v.reward ? el("span", { class: "reward", title: "reward", text: ` +${v.reward}` }) : null,
      );
      li.append(counts);
    }
    for (const group of meetings(e)) li.append(el("span", { class: "meet", text: `met ${group.map((a) => this.nameOf(machineOf(a))).join(" + ")}` }));
    if (died(e)) li.append(el("span", { class: "death", text: "machine died" }));
    return li;
  }
}
