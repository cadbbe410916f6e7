/**
 * The leaderboard across a range of days (SPEC §11.1): sums and rates per machine, account, model
 * or harness. A model's or a harness's figures are its agents' (a machine running two models
 * counts each agent under its own); a machine's are the machine's; an account's are its
 * machines'. A machine without an account stands for itself in `by=account` (docs/history.md).
 */
import { round } from "../analysis/analysis";
import { addCounters, zeroDayCounters, type DayCounters, type HistoryDay } from "./types";

export type LeaderboardDimension = "machine" | "account" | "model" | "harness";

export interface LeaderboardRow extends DayCounters {
  key: string;
  /** by=machine: the latest display name; by=account: "account", or "machine" for a machine without one. */
  name?: string;
  kind?: "account" | "machine";
  self_reported?: boolean;
  days: number;
  machines: number;
  /** Machine-days that ended dead. */
  deaths: number;
  forced_share: number | null;
  reward_per_write: number | null;
}

export interface LeaderboardTable {
  by: LeaderboardDimension;
  from: string | null;
  to: string | null;
  days: number;
  rows: LeaderboardRow[];
}

interface Acc extends DayCounters {
  key: string;
  name?: string;
  kind?: "account" | "machine";
  selfReported: boolean;
  days: Set<string>;
  machines: Set<string>;
  deaths: number;
}

export function leaderboardTable(history: readonly HistoryDay[], by: LeaderboardDimension, from: string | null, to: string | null): LeaderboardTable {
  const days = history.filter((d) => (from === null || d.day >= from) && (to === null || d.day <= to)).sort((a, b) => (a.day < b.day ? -1 : 1));
  const groups = new Map<string, Acc>();
  const acc = (key: string): Acc => {
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, ...zeroDayCounters(), selfReported: false, days: new Set(), machines: new Set(), deaths: 0 }));
    return g;
  };
  for (const d of days) {
    for (const m of d.machines) {
      if (by === "machine" || by === "account") {
        const key = by === "machine" || m.account === null ? m.machine : m.account;
        const g = acc(key);
        if (by === "machine") g.name = m.name;
        else g.kind = m.account === null ? "machine" : "account";
        addCounters(g, m);
        g.days.add(d.day);
        g.machines.add(m.machine);
        if (m.died_at !== null) g.deaths++;
        continue;
      }
      const seen = new Set<string>();
      for (const a of m.agents) {
        const key = by === "model" ? a.model : a.harness;
        const g = acc(key);
        addCounters(g, a);
        g.days.add(d.day);
        g.machines.add(m.machine);
        if (by === "model" || a.harness_source !== "transport") g.selfReported = true;
        // A machine that died counts one death for each of its entries that day.
        if (!seen.has(key)) {
          seen.add(key);
          if (m.died_at !== null) g.deaths++;
        }
      }
    }
  }
  const rows: LeaderboardRow[] = [...groups.values()].map((g) => ({
    key: g.key,
    ...(g.name !== undefined ? { name: g.name } : {}),
    ...(g.kind !== undefined ? { kind: g.kind } : {}),
    ...(by === "model" || by === "harness" ? { self_reported: g.selfReported } : {}),
    days: g.days.size,
    machines: g.machines.size,
    reward: g.reward,
    tiles: g.tiles,
    cells: g.cells,
    forced: g.forced,
    guesses: g.guesses,
    wrong: g.wrong,
    retractions: g.retractions,
    writes: g.writes,
    deaths: g.deaths,
    forced_share: g.cells > 0 ? round(g.forced / g.cells) : null,
    reward_per_write: g.writes > 0 ? round(g.reward / g.writes) : null,
  }));
  rows.sort((a, b) => b.reward - a.reward || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { by, from, to, days: days.length, rows };
}
