/**
 * Synthetic days on record for the history's tests and benchmark: each machine with its agents'
 * declared models and figures given directly, so a test states the order it expects.
 */
import type { AgentDay, HistoryDay, MachineDay } from "../../src/history/types";

export interface SyntheticAgent {
  model: string;
  harness?: string;
  harness_source?: string;
  reward: number;
  writes: number;
}

export interface SyntheticMachine {
  machine: string;
  name?: string;
  account?: string | null;
  dead?: boolean;
  agents: SyntheticAgent[];
  tags?: string[];
}

const pad = (n: number, width: number): string => String(n).padStart(width, "0");

/** `2031-01-01` plus `n` days. */
export function dateAt(n: number): string {
  return new Date(Date.UTC(2031, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
}

export function machineId(n: number): string {
  return `m-${pad(n, 16)}`;
}

export function historyDay(date: string, machines: readonly SyntheticMachine[]): HistoryDay {
  const rows: MachineDay[] = machines.map((m, mi) => {
    const agents: AgentDay[] = m.agents.map((a, ai) => ({
      agent: `${m.machine}/${ai + 1}`,
      model: a.model,
      harness: a.harness ?? "test-harness",
      harness_source: a.harness_source ?? "argument",
      reward: a.reward,
      tiles: Math.floor(a.reward / 10),
      cells: a.reward,
      forced: Math.floor(a.reward / 2),
      guesses: a.reward - Math.floor(a.reward / 2),
      wrong: Math.max(0, a.writes - a.reward),
      retractions: 0,
      writes: a.writes,
    }));
    const sum = (k: keyof AgentDay): number => agents.reduce((s, a) => s + (a[k] as number), 0);
    return {
      machine: m.machine,
      name: m.name ?? `Machine ${mi + 1}`,
      account: m.account ?? null,
      models: [...new Set(agents.map((a) => a.model))],
      harnesses: [...new Set(agents.map((a) => a.harness))],
      tags: m.tags ?? [],
      sessions: agents.length,
      reward: sum("reward"),
      tiles: sum("tiles"),
      cells: sum("cells"),
      forced: sum("forced"),
      guesses: sum("guesses"),
      wrong: sum("wrong"),
      retractions: 0,
      writes: sum("writes"),
      health: m.dead ? "dead" : "healthy",
      rate_bp: 0,
      died_at: m.dead ? Date.parse(`${date}T12:00:00Z`) : null,
      died_rev: m.dead ? 100 : null,
      agents,
    };
  });
  return {
    day: date,
    game_id: `day-${date}`,
    archive: `/api/archives/day-${date}.json.gz`,
    log_head: { hash: "0".repeat(64), rev: 1 },
    tiles_total: 100,
    tiles_solved: 10,
    machines: rows,
  };
}
