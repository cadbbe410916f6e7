import { append, el, formatTime } from "../dom";
import type { PublicEvent } from "../../spectator";
import { died, meetings, verdicts } from "../events";
import { machineColour, machineOf } from "../palette";

const MAX_ROWS = 400;

/**
 * The public log as a scrolling list (`role="log"`): one line per event with its time, agent,
 * what it did, the intent verbatim as text, and its verdict counts. Keeps the newest rows only;
 * stays scrolled to the bottom unless the reader scrolled up. Screen-reader announcements are
 * opt-in (a live region at this event rate would flood).
 */
export class LogPanel {
  readonly root: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly announce: HTMLInputElement;
  nameOf: (machine: string) => string = (m) => m;
  /** Whether the list follows the newest line: true until the reader scrolls up, again once back at the bottom. */
  private following = true;

  constructor() {
    this.list = el("ol", { class: "log-list", role: "log", "aria-live": "off", "aria-label": "Intents and events, newest last", tabindex: 0 });
    this.announce = el("input", { type: "checkbox", id: "log-announce" });
    this.announce.addEventListener("change", () => this.list.setAttribute("aria-live", this.announce.checked ? "polite" : "off"));
    this.root = el(
      "section",
      { class: "panel log-panel", "aria-labelledby": "log-title" },
      el("header", { class: "panel-head" }, el("h2", { id: "log-title", text: "Log" }), el("label", { class: "toggle" }, this.announce, " announce")),
      this.list,
    );
    // A hidden list has no height: only a visible one says whether the reader left the bottom.
    this.list.addEventListener("scroll", () => this.readFollowing());
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
