import { gamePath, getJson } from "../api";
import { el, formatInt } from "../dom";
import { SortableTable, type Column } from "./table";

type Cell = unknown;
type Row = Record<string, Cell>;

/** A value with its bootstrap 95 % interval, in the shapes the analysis may use. */
function interval(v: Cell): { value: number; lo: number; hi: number } | null {
  if (!v || typeof v !== "object") return null;
  const o = v as Record<string, unknown>;
  const value = typeof o.value === "number" ? o.value : typeof o.mean === "number" ? o.mean : null;
  if (value === null) return null;
  const ci = Array.isArray(o.ci) ? o.ci : Array.isArray(o.ci95) ? o.ci95 : null;
  const lo = typeof o.lo === "number" ? o.lo : ci && typeof ci[0] === "number" ? ci[0] : null;
  const hi = typeof o.hi === "number" ? o.hi : ci && typeof ci[1] === "number" ? ci[1] : null;
  return lo === null || hi === null ? { value, lo: value, hi: value } : { value, lo, hi };
}

const ONE_DECIMAL = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Numbers as the leaderboard writes them: separators always, one decimal above 1, three below. */
function fmt(n: number): string {
  if (Number.isInteger(n)) return formatInt(n);
  return Math.abs(n) < 1 ? n.toFixed(3) : ONE_DECIMAL.format(n);
}

/** The field's optimum play (every tile revealed, propagation first), as the analysis document gives it. */
function optimumText(doc: unknown): string {
  const o = doc && typeof doc === "object" ? (doc as { optimum?: Record<string, unknown> }).optimum : undefined;
  if (!o) return "";
  if (o.status !== "ready" || typeof o.share !== "number") return " The field's optimum play is being computed.";
  const n = (k: string) => (typeof o[k] === "number" ? formatInt(o[k] as number) : "?");
  return ` Optimum play of the field's ${n("tiles")} tiles: ${(o.share * 100).toFixed(1)} % of ${n("cells")} cells forced (${n("forced")} forced, ${n("guesses")} guesses).`;
}

/** "At revision 1,204." when the document says which revision it describes. */
function revisionText(doc: unknown): string {
  const rev = doc && typeof doc === "object" ? (doc as { revision?: unknown }).revision : undefined;
  return typeof rev === "number" ? `At revision ${formatInt(rev)}. ` : "";
}

function sortValue(v: Cell): string | number | null {
  const ci = interval(v);
  if (ci) return ci.value;
  if (typeof v === "number" || typeof v === "string") return v;
  if (Array.isArray(v)) return v.join(", ");
  return null;
}

function render(v: Cell, share: boolean): string | Node {
  const ci = interval(v);
  const f = share ? (n: number) => `${(n * 100).toFixed(1)} %` : fmt;
  if (ci) {
    if (ci.lo === ci.hi) return f(ci.value);
    return el("span", {}, f(ci.value), el("span", { class: "ci", text: ` [${f(ci.lo)}–${f(ci.hi)}]` }));
  }
  if (typeof v === "number") return fmt(v);
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.join(", ");
  return "–";
}

/** How to read the figures. */
const FIGURES_NOTE = "Per 100 reward, lower is better; propagation share: cells propagation alone would have given. Brackets: bootstrap 95 % intervals.";

const LABELS: Record<string, string> = {
  key: "Group",
  tag: "Tag",
  value: "Value",
  group: "Group",
  machines: "Machines",
  agents: "Agents",
  reward: "Reward",
  calls: "Calls /100 reward",
  bytes: "Bytes /100 reward",
  wrong: "Wrong /100 reward",
  guesses: "Guesses /100 reward",
  propagation_share: "Propagation share",
  forced_share: "Forced share",
  reward_per_agent: "Reward / agent",
  calls_total: "Calls",
  bytes_total: "Bytes",
  wrong_cells: "Wrong cells",
  guess_cells: "Guesses",
  retractions: "Retractions",
  tiles: "Tiles",
  cells: "Cells",
};

/**
 * The analysis (SPEC §11) from `GET /api/games/:id/analysis`: one sortable table per grouping
 * (model, harness, tag), efficiency columns with their bootstrap 95 % intervals shown as
 * `value [lo–hi]`. Columns follow the JSON, so new measures appear without a page change.
 */
export class AnalysisPanel {
  readonly root: HTMLElement;
  private readonly body: HTMLElement;
  private readonly note: HTMLElement;
  private gameId: string | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  /** What the page says first of the figures (the replay: they are the close's, from the server). */
  private preface = "";

  constructor() {
    this.body = el("div", { class: "analysis" });
    this.note = el("p", { class: "note", text: "Loading…" });
    this.root = el("section", { class: "panel" }, el("header", { class: "panel-head" }, el("h2", { text: "Analysis" })), this.note, this.body);
  }

  /** Loads now and every 20 s while the panel is shown; `preface` goes before the note on the figures. */
  load(gameId: string, preface = ""): void {
    this.gameId = gameId;
    this.preface = preface;
    void this.refresh();
    if (this.timer) clearInterval(this.timer);
    this.timer = setInterval(() => {
      if (!document.hidden && this.root.offsetParent !== null) void this.refresh();
    }, 20_000);
  }

  /** Shows an analysis document directly (the replay computes nothing server-side). */
  show(doc: unknown, note = ""): void {
    const groups = groupsOf(doc);
    this.body.replaceChildren();
    if (!groups.length) {
      this.note.textContent = "No analysis yet: it appears once machines have played.";
      return;
    }
    // The revision says how fresh the figures are: the leaderboard moves with every event, the analysis every 20 s.
    this.note.textContent = `${revisionText(doc)}${note || FIGURES_NOTE}${optimumText(doc)}`;
    for (const [name, rows] of groups) {
      const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
      const columns: Array<Column<Row>> = keys.map((k, i) => ({
        key: k,
        label: LABELS[k] ?? k.replace(/_/g, " "),
        value: (r) => sortValue(r[k]),
        render: (r) => render(r[k], k.endsWith("_share")),
        numeric: rows.some((r) => typeof r[k] === "number" || interval(r[k]) !== null),
        pinned: i === 0,
      }));
      const table = new SortableTable(columns, { caption: `Analysis by ${name}`, sortKey: keys.includes("reward") ? "reward" : keys[0] });
      table.setRows(rows);
      this.body.append(el("h3", { class: "group-title", text: `By ${name}` }), el("div", { class: "table-wrap" }, table.root));
    }
  }

  async refresh(): Promise<void> {
    if (!this.gameId) return;
    try {
      this.show(await getJson(gamePath(this.gameId, "/analysis")), this.preface && `${this.preface} ${FIGURES_NOTE}`);
    } catch (err) {
      this.note.textContent = `Analysis unavailable: ${(err as Error).message}`;
    }
  }
}

/** `{by_model: [...], by_harness: [...], by_tag: [...]}` or `{groups: {model: [...]}}` → named row lists. */
function groupsOf(doc: unknown): Array<[string, Row[]]> {
  if (!doc || typeof doc !== "object") return [];
  const o = doc as Record<string, unknown>;
  const source = o.groups && typeof o.groups === "object" && !Array.isArray(o.groups) ? (o.groups as Record<string, unknown>) : o;
  const out: Array<[string, Row[]]> = [];
  for (const [key, value] of Object.entries(source)) {
    if (!Array.isArray(value) || !value.every((r) => r && typeof r === "object")) continue;
    out.push([key.replace(/^by_/, ""), value as Row[]]);
  }
  return out;
}
