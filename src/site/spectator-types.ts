/**
 * The spectator model's shapes the page reads (owned by the spectator module on the server side;
 * this file narrows to what the page uses until that module is shared).
 */
export type HealthState = "healthy" | "warning" | "dead";

export interface HealthSummary {
  state: HealthState;
  rate_bp: number;
  committed: number;
  wrong: number;
  window: number;
}

export interface LeaderboardRow {
  rank: number;
  machine: string;
  name: string;
  sessions: string[];
  agents: string[];
  models: string[];
  harnesses: string[];
  reward: number;
  tiles: number;
  cells: number;
  committed: number;
  forced: number;
  forced_share: number;
  guesses: number;
  wrong: number;
  rejected_guesses: number;
  retractions: number;
  health: HealthSummary;
  died_at: number | null;
  died_rev: number | null;
}
