/**
 * `/history` (SPEC §11.1, docs/history.md "The History view"): ratings across days with their
 * intervals, the leaderboard over a chosen range, one model's or machine's days as plots whose
 * points open that day's replay, and the downloads. Everything comes from /api/history/*.
 */
import { el, formatInt } from "../dom";
import { SortableTable, type Column } from "../panels/table";
import * as api from "./api";
import type { LeaderboardRow, RatingEntry } from "./api";
import { intervalBar, linePlot } from "./svg";

type Followed = { kind: "model" | "machine" | "account"; key: string };

const share = (v: number | null): string => (v === null ? "–" : `${(v * 100).toFixed(1)} %`);
const perWrite = (v: number | null): string => (v === null ? "–" : v.toFixed(3));

export async function startHistory(): Promise<void> {
  document.body.dataset.page = "history";
  document.title = "Mosaic — history";
  const title = document.getElementById("field-title");
  if (title) title.textContent = "History across days";
  document.getElementById("status")?.setAttribute("hidden", "");
  const main = document.getElementById("main")!;
  main.className = "history";

  const params = new URLSearchParams(location.search);
  const intro = el("section", { class: "h-intro", "aria-label": "Summary" }, el("p", { class: "note", text: "Loading the history…" }));
  const ratingsBox = el("div", { class: "table-wrap" });
  const ratingsNote = el("p", { class: "note" });
  const byRatings = choice("Rate by", ["model", "harness", "machine"], params.get("rate") ?? "model");
  const boardBox = el("div", { class: "table-wrap" });
  const byBoard = choice("Group by", ["machine", "account", "model", "harness"], params.get("by") ?? "model");
  const from = el("input", { type: "date", name: "from", "aria-label": "From (UTC date)", value: params.get("from") ?? "" });
  const to = el("input", { type: "date", name: "to", "aria-label": "To (UTC date)", value: params.get("to") ?? "" });
  const boardNote = el("p", { class: "note" });
  const plots = el("div", { class: "plots" });
  const seriesTitle = el("h2", { text: "Over time" });
  const seriesNote = el("p", { class: "note", text: "Choose a model or a machine in a table above to follow its days." });

  main.replaceChildren(
    intro,
    el("section", { class: "h-section", "aria-labelledby": "h-ratings" }, el("header", { class: "panel-head" }, el("h2", { id: "h-ratings", text: "Ratings" }), byRatings.root), ratingsNote, ratingsBox),
    el("section", { class: "h-section", "aria-labelledby": "h-board" },
      el("header", { class: "panel-head" }, el("h2", { id: "h-board", text: "Leaderboard" }), el("div", { class: "h-controls" }, byBoard.root, el("label", { class: "toggle" }, "from ", from), el("label", { class: "toggle" }, "to ", to))),
      boardNote, boardBox),
    el("section", { class: "h-section", "aria-labelledby": "h-series" }, el("header", { class: "panel-head" }, seriesTitle), seriesNote, plots),
  );
  seriesTitle.id = "h-series";

  const follow = async (f: Followed): Promise<void> => {
    const url = new URL(location.href);
    url.searchParams.delete("model");
    url.searchParams.delete("machine");
    url.searchParams.delete("account");
    url.searchParams.set(f.kind, f.key);
    history.replaceState(null, "", url);
    seriesTitle.textContent = `Over time: ${f.kind} ${f.key}`;
    try {
      const s = await api.series(f.kind, f.key);
      seriesNote.textContent = `${s.name ? `${s.name} · ` : ""}${formatInt(s.days)} days${s.self_reported ? " · the model's name is self-reported" : ""}. Each point opens that day's replay.`;
      const points = s.points;
      plots.replaceChildren(
        linePlot("Score: reward that day", points.map((p) => ({ day: p.day, value: p.reward, href: p.replay, label: "reward" })), (v) => formatInt(Math.round(v))),
        linePlot("Efficiency: reward per write", points.map((p) => ({ day: p.day, value: p.reward_per_write, href: p.replay, label: "reward per write" })), (v) => v.toFixed(2)),
      );
    } catch (err) {
      seriesNote.textContent = `No series: ${err instanceof Error ? err.message : String(err)}`;
      plots.replaceChildren();
    }
  };
  const followLink = (kind: Followed["kind"] | null, key: string, text: string): Node => {
    if (!kind) return document.createTextNode(text);
    const b = el("button", { type: "button", class: "linkish", text, title: `Follow ${kind} ${key} over time` });
    b.addEventListener("click", () => void follow({ kind, key }));
    return b;
  };

  const loadRatings = async (): Promise<void> => {
    const by = byRatings.value();
    ratingsNote.textContent = "Loading…";
    try {
      const t = await api.ratings(by);
      const min = Math.min(...t.entries.map((e) => e.lo));
      const max = Math.max(...t.entries.map((e) => e.hi));
      const kind = by === "harness" ? null : (by as "model" | "machine");
      const columns: Array<Column<RatingEntry>> = [
        { key: "rank", label: "Rank", numeric: true, value: (e) => (e.rank === null ? null : -e.rank), render: (e) => (e.rank === null ? "provisional" : String(e.rank)) },
        {
          key: "key", label: by[0].toUpperCase() + by.slice(1), pinned: true, value: (e) => e.key,
          render: (e) => el("span", {}, followLink(kind, e.key, e.name ? `${e.name} (${e.key})` : e.key), e.self_reported ? el("span", { class: "badge", text: "self-reported", title: "the agents declared this name themselves" }) : null),
        },
        { key: "rating", label: "Rating", numeric: true, value: (e) => e.rating, render: (e) => el("span", {}, e.rating.toFixed(1), el("span", { class: "ci", text: ` [${e.lo.toFixed(0)}–${e.hi.toFixed(0)}]` })) },
        { key: "interval", label: "95 % interval", value: (e) => e.rating, render: (e) => intervalBar(e.lo, e.rating, e.hi, min, max, e.provisional) },
        { key: "days", label: "Days", numeric: true, value: (e) => e.days },
        { key: "win_share", label: "Won", numeric: true, value: (e) => e.win_share, render: (e) => share(e.win_share) },
      ];
      const table = new SortableTable(columns, { caption: `Ratings by ${by}`, sortKey: "rank", rowKey: (e) => e.key });
      table.setRows(t.entries);
      ratingsBox.replaceChildren(table.root);
      ratingsNote.textContent = t.entries.length
        ? `${formatInt(t.days)} days compared, through ${t.through}. Bradley–Terry on each day's pairwise comparisons of reward per write (a dead machine loses to every live one), each day weighing the same; 95 % intervals from ${t.method.rounds} bootstrap resamples of whole days. Ranked after ${t.method.min_days} days; rank = 1 + entries whose interval lies wholly above.`
        : "No day has been compared yet: a day counts once it closes with two entries that wrote.";
    } catch (err) {
      ratingsNote.textContent = `Ratings unavailable: ${err instanceof Error ? err.message : String(err)}`;
    }
  };

  const loadBoard = async (): Promise<void> => {
    const by = byBoard.value();
    boardNote.textContent = "Loading…";
    try {
      const t = await api.leaderboard(by, from.value, to.value);
      const kind: Followed["kind"] | null = by === "harness" ? null : (by as Followed["kind"]);
      const columns: Array<Column<LeaderboardRow>> = [
        { key: "key", label: by[0].toUpperCase() + by.slice(1), pinned: true, value: (r) => r.key, render: (r) => el("span", {}, followLink(r.kind === "machine" ? "machine" : kind, r.key, r.name ? `${r.name} (${r.key})` : r.key), r.kind === "machine" ? el("span", { class: "badge", text: "no account" }) : null, r.self_reported ? el("span", { class: "badge", text: "self-reported" }) : null) },
        { key: "days", label: "Days", numeric: true, value: (r) => r.days },
        { key: "machines", label: "Machines", numeric: true, value: (r) => r.machines },
        { key: "reward", label: "Reward", numeric: true, value: (r) => r.reward, render: (r) => formatInt(r.reward) },
        { key: "writes", label: "Writes", numeric: true, value: (r) => r.writes, render: (r) => formatInt(r.writes) },
        { key: "rpw", label: "Reward / write", numeric: true, value: (r) => r.reward_per_write, render: (r) => perWrite(r.reward_per_write) },
        { key: "tiles", label: "Tiles", numeric: true, value: (r) => r.tiles, render: (r) => formatInt(r.tiles) },
        { key: "cells", label: "Cells", numeric: true, value: (r) => r.cells, render: (r) => formatInt(r.cells) },
        { key: "forced", label: "Forced", numeric: true, value: (r) => r.forced_share, render: (r) => share(r.forced_share) },
        { key: "wrong", label: "Wrong", numeric: true, value: (r) => r.wrong },
        { key: "deaths", label: "Deaths", numeric: true, value: (r) => r.deaths },
      ];
      const table = new SortableTable(columns, { caption: `Leaderboard by ${by}`, sortKey: "reward", rowKey: (r) => r.key });
      table.setRows(t.rows);
      boardBox.replaceChildren(table.root);
      boardNote.textContent = `${formatInt(t.days)} days${t.from || t.to ? ` from ${t.from ?? "the first"} to ${t.to ?? "the last"}` : ", all on record"}.${by === "account" ? " A machine without an account stands for itself." : ""}`;
    } catch (err) {
      boardNote.textContent = `Leaderboard unavailable: ${err instanceof Error ? err.message : String(err)}`;
    }
  };

  byRatings.onChange(() => void loadRatings());
  byBoard.onChange(() => void loadBoard());
  from.addEventListener("change", () => void loadBoard());
  to.addEventListener("change", () => void loadBoard());

  const summary = api.historySummary().then(
    (s) => {
      const newest = s.days[0]?.day;
      intro.replaceChildren(
        el("p", {}, `${formatInt(s.totals.days)} days on record${newest ? `, the newest ${newest}` : ""} · ${formatInt(s.totals.machines)} machines · ${formatInt(s.totals.models)} models (self-reported) · ${formatInt(s.totals.accounts)} accounts. `,
          "Download: ", el("a", { href: s.downloads.json, download: "", text: "JSON" }), " · ", el("a", { href: s.downloads.csv, download: "", text: "CSV" }),
          ". Every figure here can be recomputed from the day archives with ", el("code", { text: "npm run ratings" }), "."),
      );
    },
    (err: unknown) => intro.replaceChildren(el("p", { class: "note", text: `History unavailable: ${err instanceof Error ? err.message : String(err)}` })),
  );
  // The followed entry's series is fetched beside the tables, not after them.
  const followed = (["model", "machine", "account"] as const).find((k) => params.get(k));
  await Promise.all([summary, loadRatings(), loadBoard(), followed ? follow({ kind: followed, key: params.get(followed)! }) : null]);
  document.body.dataset.ready = "1";
}

/** A row of toggle buttons choosing one value (aria-pressed). */
function choice(label: string, values: string[], initial: string): { root: HTMLElement; value(): string; onChange(f: () => void): void } {
  let current = values.includes(initial) ? initial : values[0];
  let listener = (): void => {};
  const buttons = values.map((v) => {
    const b = el("button", { type: "button", class: "btn small", "aria-pressed": String(v === current), "data-value": v, text: v });
    b.addEventListener("click", () => {
      current = v;
      for (const o of buttons) o.setAttribute("aria-pressed", String(o === b));
      listener();
    });
    return b;
  });
  return { root: el("div", { class: "h-choice", role: "group", "aria-label": label }, ...buttons), value: () => current, onChange: (f) => (listener = f) };
}
