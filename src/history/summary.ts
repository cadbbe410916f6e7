/**
 * `GET /api/history` (SPEC §11.1): the days on record, newest first, each with its totals and its
 * archive, plus what the history holds overall and where to download it.
 */
import type { HistoryDay } from "./types";

export interface DaySummary {
  day: string;
  game_id: string;
  archive: string;
  replay: string;
  log_head: { hash: string; rev: number };
  machines: number;
  agents: number;
  models: string[];
  reward: number;
  writes: number;
  deaths: number;
  tiles_solved: number;
  tiles_total: number;
}

export interface HistorySummary {
  days: DaySummary[];
  totals: { days: number; machines: number; accounts: number; models: number; harnesses: number };
  downloads: { json: string; csv: string };
}

export function historySummary(history: readonly HistoryDay[]): HistorySummary {
  const machines = new Set<string>();
  const accounts = new Set<string>();
  const models = new Set<string>();
  const harnesses = new Set<string>();
  const days = [...history]
    .sort((a, b) => (a.day < b.day ? 1 : -1))
    .map((d): DaySummary => {
      const dayModels = new Set<string>();
      let agents = 0;
      for (const m of d.machines) {
        machines.add(m.machine);
        if (m.account !== null) accounts.add(m.account);
        for (const a of m.agents) {
          agents++;
          dayModels.add(a.model);
          models.add(a.model);
          harnesses.add(a.harness);
        }
      }
      return {
        day: d.day,
        game_id: d.game_id,
        archive: d.archive,
        replay: `/replay/${d.game_id}`,
        log_head: d.log_head,
        machines: d.machines.length,
        agents,
        models: [...dayModels].sort(),
        reward: d.machines.reduce((s, m) => s + m.reward, 0),
        writes: d.machines.reduce((s, m) => s + m.writes, 0),
        deaths: d.machines.filter((m) => m.died_at !== null).length,
        tiles_solved: d.tiles_solved,
        tiles_total: d.tiles_total,
      };
    });
  return {
    days,
    totals: { days: days.length, machines: machines.size, accounts: accounts.size, models: models.size, harnesses: harnesses.size },
    downloads: { json: "/api/history/download.json", csv: "/api/history/download.csv" },
  };
}
