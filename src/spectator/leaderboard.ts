import type { MachineState, SpectatorModel } from "./model";
import type { AccountRef, LeaderboardRow } from "./types";

/**
 * The leaderboard (SPEC §11) at the model's revision: one row per machine, best first — more
 * reward, then more tiles, then fewer wrong cells, then the machine id. Equal reward, tiles and
 * wrong cells share a rank. `accounts` gives each machine's account (SPEC §8.2); ranks stay per machine.
 */
export function leaderboard(model: SpectatorModel, accounts: Readonly<Record<string, AccountRef | null>> = {}): LeaderboardRow[] {
  const rows = model.machines.map((m) => row(model, m, accounts[m.id] ?? null));
  rows.sort(compareRows);
  for (let i = 0; i < rows.length; i++) {
    const prev = rows[i - 1];
    rows[i].rank = prev && prev.reward === rows[i].reward && prev.tiles === rows[i].tiles && prev.wrong === rows[i].wrong ? prev.rank : i + 1;
  }
  return rows;
}

function row(model: SpectatorModel, m: MachineState, account: AccountRef | null): LeaderboardRow {
  const agents = m.agents.map((i) => model.agents[i]);
  return {
    rank: 0,
    machine: m.id,
    name: m.name || m.id,
    account,
    sessions: [...m.sessions],
    agents: agents.map((a) => a.id),
    models: unique(agents.map((a) => a.model)),
    harnesses: unique(agents.map((a) => a.harness)),
    reward: m.reward,
    tiles: m.solved,
    cells: m.accepted,
    committed: m.accepted + m.wrong + m.rejected_guesses,
    forced: m.forced,
    forced_share: m.accepted === 0 ? 0 : m.forced / m.accepted,
    guesses: m.guesses,
    wrong: m.wrong,
    rejected_guesses: m.rejected_guesses,
    retractions: m.retractions,
    health: { ...m.health },
    died_at: m.died_at,
    died_rev: m.died_rev,
  };
}

function compareRows(a: LeaderboardRow, b: LeaderboardRow): number {
  return b.reward - a.reward || b.tiles - a.tiles || a.wrong - b.wrong || (a.machine < b.machine ? -1 : a.machine > b.machine ? 1 : 0);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
