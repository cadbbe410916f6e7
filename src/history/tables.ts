/**
 * Every published table of the history, as the text the routes answer (SPEC §11.1). One class
 * for the history object and for `npm run ratings`: given the same days, both produce the same
 * bytes. Each answer is built once per history (the object makes a new `HistoryTables` when a day
 * is recorded), so a repeated read costs a map lookup.
 */
import { isDate } from "../daily/archive/day-dates";
import { historyCsv, historyJson } from "./downloads";
import { leaderboardTable, type LeaderboardDimension } from "./leaderboard";
import { ratingsTable } from "./ratings";
import type { RatingDimension } from "./day-score";
import { seriesOf, type SeriesKind } from "./series";
import { historySummary } from "./summary";
import { canonicalDay, type HistoryDay } from "./types";

export interface HistoryAnswer {
  status: number;
  body: string;
  contentType: "json" | "csv";
}

const LEADERBOARD_BY: readonly LeaderboardDimension[] = ["machine", "account", "model", "harness"];
const RATINGS_BY: readonly RatingDimension[] = ["model", "harness", "machine"];
const SERIES: Record<string, SeriesKind> = { models: "model", machines: "machine", accounts: "account" };

export const HISTORY_PREFIX = "/api/history";

/** Answers kept per history: ranges make the leaderboard's queries many; the oldest go first. */
const CACHED_ANSWERS = 512;

const error = (status: number, code: string, message: string): HistoryAnswer => ({ status, body: JSON.stringify({ error: { code, message } }), contentType: "json" });
const json = (body: string): HistoryAnswer => ({ status: 200, body, contentType: "json" });

export class HistoryTables {
  readonly days: readonly HistoryDay[];
  private readonly cache = new Map<string, Promise<HistoryAnswer>>();

  constructor(days: readonly HistoryDay[]) {
    this.days = days.map(canonicalDay).sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  }

  /** The answer to a path under /api/history with its query (unknown parameters are refused). */
  answer(path: string, query: URLSearchParams): Promise<HistoryAnswer> {
    const key = `${path}?${[...query].map(([k, v]) => `${k}=${v}`).join("&")}`;
    let found = this.cache.get(key);
    if (!found) {
      found = this.compute(path, query);
      // Refusals are cheap and unbounded in number: only answers are kept.
      void found.then((a) => (a.status === 200 ? undefined : this.cache.delete(key)));
      this.cache.set(key, found);
      if (this.cache.size > CACHED_ANSWERS) this.cache.delete(this.cache.keys().next().value as string);
    }
    return found;
  }

  private async compute(path: string, query: URLSearchParams): Promise<HistoryAnswer> {
    const rest = path.startsWith(HISTORY_PREFIX) ? path.slice(HISTORY_PREFIX.length) : null;
    if (rest === null) return error(404, "missing", `no such route: ${path.slice(0, 200)}`);
    const allowed = (names: string[]): HistoryAnswer | null => {
      for (const name of query.keys()) if (!names.includes(name)) return error(400, "bad_input", `unknown parameter ${JSON.stringify(name.slice(0, 40))}${names.length ? ` (this route takes ${names.join(", ")})` : " (this route takes none)"}`);
      return null;
    };
    if (rest === "" || rest === "/") return allowed([]) ?? json(JSON.stringify(historySummary(this.days)));
    if (rest === "/download.json") return allowed([]) ?? json(historyJson(this.days));
    if (rest === "/download.csv") return allowed([]) ?? { status: 200, body: historyCsv(this.days), contentType: "csv" };
    if (rest === "/leaderboard") {
      const refused = allowed(["by", "from", "to"]);
      if (refused) return refused;
      const by = query.get("by") ?? "machine";
      if (!LEADERBOARD_BY.includes(by as LeaderboardDimension)) return error(400, "bad_input", `by must be one of ${LEADERBOARD_BY.join(", ")} (got ${JSON.stringify(by.slice(0, 40))})`);
      const from = query.get("from");
      const to = query.get("to");
      for (const [name, v] of [["from", from], ["to", to]] as const) {
        if (v !== null && !isDate(v)) return error(400, "bad_input", `${name} must be a date YYYY-MM-DD (got ${JSON.stringify(v.slice(0, 40))})`);
      }
      if (from !== null && to !== null && from > to) return error(400, "bad_input", `from (${from}) is after to (${to}): the range is reversed`);
      return json(JSON.stringify(leaderboardTable(this.days, by as LeaderboardDimension, from, to)));
    }
    if (rest === "/ratings") {
      const refused = allowed(["by"]);
      if (refused) return refused;
      const by = query.get("by") ?? "model";
      if (!RATINGS_BY.includes(by as RatingDimension)) return error(400, "bad_input", `by must be one of ${RATINGS_BY.join(", ")} (got ${JSON.stringify(by.slice(0, 40))})`);
      return json(JSON.stringify(await ratingsTable(this.days, by as RatingDimension)));
    }
    const m = /^\/(models|machines|accounts)\/([^/]+)$/.exec(rest);
    if (m) {
      const refused = allowed([]);
      if (refused) return refused;
      let id: string;
      try {
        id = decodeURIComponent(m[2]);
      } catch {
        return error(400, "bad_input", `${m[1].slice(0, -1)} is not a well-formed URL component`);
      }
      const kind = SERIES[m[1]];
      const series = seriesOf(this.days, kind, id);
      if (!series) return error(404, "missing", `no ${kind} ${JSON.stringify(id.slice(0, 80))} in the history (${kind === "model" ? "GET /api/history/ratings?by=model" : "GET /api/history/leaderboard?by=" + kind} lists them)`);
      return json(JSON.stringify(series));
    }
    return error(404, "missing", `no such route: GET ${path.slice(0, 200)} (the history's routes: ${HISTORY_PREFIX}, /leaderboard, /ratings, /models/:model, /machines/:id, /accounts/:id, /download.json, /download.csv)`);
  }

  /**
   * Every published table's path, in a fixed order: what `npm run ratings` recomputes and
   * compares. The series of every model, machine and account on record are among them.
   */
  publishedPaths(): string[] {
    const models = new Set<string>();
    const machines = new Set<string>();
    const accounts = new Set<string>();
    for (const d of this.days) {
      for (const m of d.machines) {
        machines.add(m.machine);
        if (m.account !== null) accounts.add(m.account);
        for (const a of m.agents) models.add(a.model);
      }
    }
    const sorted = (s: Set<string>): string[] => [...s].sort();
    return [
      HISTORY_PREFIX,
      ...RATINGS_BY.map((by) => `${HISTORY_PREFIX}/ratings?by=${by}`),
      ...LEADERBOARD_BY.map((by) => `${HISTORY_PREFIX}/leaderboard?by=${by}`),
      ...sorted(models).map((k) => `${HISTORY_PREFIX}/models/${encodeURIComponent(k)}`),
      ...sorted(machines).map((k) => `${HISTORY_PREFIX}/machines/${encodeURIComponent(k)}`),
      ...sorted(accounts).map((k) => `${HISTORY_PREFIX}/accounts/${encodeURIComponent(k)}`),
      `${HISTORY_PREFIX}/download.json`,
      `${HISTORY_PREFIX}/download.csv`,
    ];
  }

  /** The answer to one of `publishedPaths()`. */
  answerUrl(pathAndQuery: string): Promise<HistoryAnswer> {
    const url = new URL(pathAndQuery, "http://history.invalid");
    return this.answer(url.pathname, url.searchParams);
  }
}
