/**
 * One entry's days as a series (SPEC §11.1 `/api/history/models/:model`, `/machines/:id`,
 * `/accounts/:id`): per day the entry played, its figures, and where that day's replay is.
 */
import { round } from "../analysis/analysis";
import { addCounters, zeroDayCounters, type DayCounters, type HistoryDay } from "./types";

export type SeriesKind = "model" | "machine" | "account";

export interface SeriesPoint extends DayCounters {
  day: string;
  game_id: string;
  /** The site's replay of that day. */
  replay: string;
  machines: number;
  deaths: number;
  forced_share: number | null;
  reward_per_write: number | null;
}

export interface Series {
  kind: SeriesKind;
  key: string;
  name?: string;
  self_reported?: boolean;
  days: number;
  points: SeriesPoint[];
}

/** The series, or null when the entry never played a day on record. */
export function seriesOf(history: readonly HistoryDay[], kind: SeriesKind, key: string): Series | null {
  const days = [...history].sort((a, b) => (a.day < b.day ? -1 : 1));
  const points: SeriesPoint[] = [];
  let name: string | undefined;
  for (const d of days) {
    const total = zeroDayCounters();
    let machines = 0;
    let deaths = 0;
    for (const m of d.machines) {
      let counted = false;
      if (kind === "model") {
        for (const a of m.agents) {
          if (a.model !== key) continue;
          addCounters(total, a);
          counted = true;
        }
      } else if (kind === "machine" ? m.machine === key : m.account === key) {
        addCounters(total, m);
        counted = true;
        if (kind === "machine") name = m.name;
      }
      if (!counted) continue;
      machines++;
      if (m.died_at !== null) deaths++;
    }
    if (machines === 0) continue;
    points.push({
      day: d.day,
      game_id: d.game_id,
      replay: `/replay/${d.game_id}`,
      machines,
      deaths,
      ...total,
      forced_share: total.cells > 0 ? round(total.forced / total.cells) : null,
      reward_per_write: total.writes > 0 ? round(total.reward / total.writes) : null,
    });
  }
  if (points.length === 0) return null;
  return {
    kind,
    key,
    ...(name !== undefined ? { name } : {}),
    ...(kind === "model" ? { self_reported: true } : {}),
    days: points.length,
    points,
  };
}
