import { el, formatInt, formatTime } from "../dom";
import { machineColour } from "../palette";
import type { LeaderboardRow } from "../../spectator";
import { AccountLookup } from "./account-lookup";
import { SortableTable, type Column } from "./table";

function machineCell(row: LeaderboardRow): HTMLElement {
  const chip = el("span", { class: "agent", title: row.machine }, el("span", { class: "swatch", "aria-hidden": "true" }), row.name || row.machine);
  chip.style.setProperty("--agent", machineColour(row.machine));
  return chip;
}

function accountCell(row: LeaderboardRow): string | Node {
  return row.account ? el("a", { href: `/account/${row.account.id}`, title: row.account.id, text: row.account.name }) : "–";
}

const COLUMNS: Array<Column<LeaderboardRow>> = [
  { key: "rank", label: "#", value: (r) => r.rank, numeric: true },
  { key: "name", label: "Machine", value: (r) => (r.name || r.machine).toLowerCase(), render: machineCell, pinned: true },
  { key: "account", label: "Account", value: (r) => r.account?.name.toLowerCase() ?? null, render: accountCell, title: "the account the machine is linked to: a person's machines together" },
  { key: "reward", label: "Reward", value: (r) => r.reward, render: (r) => formatInt(r.reward), numeric: true },
  { key: "tiles", label: "Tiles", value: (r) => r.tiles, numeric: true, title: "tiles solved" },
  { key: "cells", label: "Cells", value: (r) => r.cells, render: (r) => formatInt(r.cells), numeric: true, title: "cells committed and accepted" },
  { key: "forced_share", label: "Forced", value: (r) => r.forced_share, render: (r) => `${(r.forced_share * 100).toFixed(1)} %`, numeric: true, title: "share of accepted cells that propagation forced" },
  { key: "guesses", label: "Guesses", value: (r) => r.guesses, numeric: true, title: "accepted cells that propagation did not force (the referee's class, not the agent's own count of guesses)" },
  { key: "wrong", label: "Wrong", value: (r) => r.wrong, numeric: true, title: "cells rejected as wrong" },
  { key: "retractions", label: "Retr.", value: (r) => r.retractions, numeric: true, title: "retractions" },
  {
    key: "health",
    label: "Health",
    value: (r) => r.health.state,
    // The percentage is the wrong-cell rate, not a health score: "healthy 0.0 %" read as no health.
    render: (r) => el("span", { class: `health-${r.health.state}`, text: `${r.health.state} · ${(r.health.rate_bp / 100).toFixed(1)} % wrong` }),
    title: "the machine's state and its share of wrong cells over its recent commits",
  },
  { key: "died_at", label: "Died", value: (r) => r.died_at, render: (r) => (r.died_at ? formatTime(r.died_at) : "–") },
  { key: "sessions", label: "Sessions", value: (r) => r.sessions.length, numeric: true },
  { key: "models", label: "Models", value: (r) => r.models.join(", ") },
  { key: "harnesses", label: "Harnesses", value: (r) => r.harnesses.join(", ") },
];

/** One row per machine (SPEC §11), sortable by any column. */
export class LeaderboardPanel {
  readonly root: HTMLElement;
  readonly table: SortableTable<LeaderboardRow>;
  private readonly note: HTMLElement;
  /** Rows to work out when the panel is next shown; null when what it shows is current. */
  private deferred: (() => { rows: LeaderboardRow[]; note: string }) | null = null;
  /** The rows last shown, to fill in their accounts when the lookup answers. */
  private last: { rows: LeaderboardRow[]; note: string } | null = null;
  private readonly accounts = new AccountLookup(() => {
    if (this.last) this.setRows(this.last.rows, this.last.note);
  });

  constructor(caption = "Leaderboard: one row per machine") {
    this.table = new SortableTable(COLUMNS, { caption, sortKey: "reward", rowKey: (r) => r.machine, className: "leaderboard" });
    this.note = el("p", { class: "note" });
    // Said in the page, not only in header tooltips a phone cannot show.
    const legend = el(
      "p",
      { class: "note table-legend" },
      "Forced: share of accepted cells that propagation forced. Guesses: accepted cells propagation did not force (the referee's class, not the agent's own count). Health: state and share of wrong cells over recent commits.",
    );
    this.root = el(
      "section",
      { class: "panel" },
      el("header", { class: "panel-head" }, el("h2", { text: "Leaderboard" })),
      el("div", { class: "table-wrap" }, this.table.root),
      legend,
      this.note,
    );
  }

  setRows(rows: LeaderboardRow[], note = ""): void {
    this.last = { rows, note };
    this.accounts.want(rows.map((r) => r.machine));
    this.table.setRows(rows.map((r) => (r.account ? r : { ...r, account: this.accounts.get(r.machine) })));
    this.note.textContent = rows.length ? note : "No machine has joined yet.";
  }

  /**
   * Shows what `compute` gives: now when the panel is on screen, else when its tab is next opened
   * (`shown`). A live page refreshes the board several times a second; ranking and laying out
   * rows nobody sees cost it main-thread time for nothing.
   */
  update(compute: () => { rows: LeaderboardRow[]; note: string }): void {
    this.deferred = compute;
    if (this.root.offsetParent !== null) this.shown();
  }

  /** The panel's tab was opened: bring in what was deferred while it was hidden. */
  shown(): void {
    const compute = this.deferred;
    this.deferred = null;
    if (!compute) return;
    const { rows, note } = compute();
    this.setRows(rows, note);
  }
}
